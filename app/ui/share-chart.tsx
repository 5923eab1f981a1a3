// A small server-rendered SVG bar chart of the daily share of reporting customers:
// no chart library, nothing to run in the browser.
export type ShareDay = { date: string; reporting: number; customerCount: number };

const pct = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 1 });

export function shareOf(d: ShareDay): number {
  return d.customerCount ? (100 * d.reporting) / d.customerCount : 0;
}

export function ShareChart({ days }: { days: ShareDay[] }) {
  if (days.length === 0) return null;
  const bar = days.length <= 14 ? 26 : 14;
  const gap = days.length <= 14 ? 6 : 3;
  const height = 120;
  const top = 10;
  const width = Math.max(days.length * (bar + gap) + 40, 200);
  const average = days.reduce((s, d) => s + shareOf(d), 0) / days.length;
  return (
    <figure className="share-chart">
      <figcaption>Andel rapporterande kunder per dag</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 30}`}
        width="100%"
        style={{ maxWidth: `${width}px` }}
        role="img"
        aria-label={`Andel rapporterande kunder per dag, ${days[0].date} till ${days[days.length - 1].date}: i snitt ${pct.format(average)} %.`}
      >
        <line x1="34" y1={top} x2={width} y2={top} className="grid" />
        <line x1="34" y1={top + height / 2} x2={width} y2={top + height / 2} className="grid" />
        <line x1="34" y1={top + height} x2={width} y2={top + height} className="axis" />
        <text x="30" y={top + 4} textAnchor="end" className="tick">100 %</text>
        <text x="30" y={top + height / 2 + 4} textAnchor="end" className="tick">50 %</text>
        <text x="30" y={top + height + 4} textAnchor="end" className="tick">0 %</text>
        {days.map((d, i) => {
          const share = shareOf(d);
          const h = (height * share) / 100;
          const x = 40 + i * (bar + gap);
          return (
            <g key={d.date}>
              <rect x={x} y={top + height - h} width={bar} height={Math.max(h, 0.5)} className="bar">
                <title>{`${d.date}: ${d.reporting} av ${d.customerCount} (${pct.format(share)} %)`}</title>
              </rect>
              {i === 0 || i === days.length - 1 || (days.length <= 14 && i % 2 === 0) ? (
                <text x={x + bar / 2} y={top + height + 16} textAnchor="middle" className="tick">
                  {d.date.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
