// Försäljning's chart (issue 18 §4): per week a stacked bar, sold below and returned on
// top, so its height is what was delivered. Rendered on the server as SVG: no library,
// nothing to run in the browser, and it prints. The same figures are in the table beside
// it, for screen readers and for copying; the picture has a one-line summary as its name.
import type { SalesWeek } from "~/features/sales/index.server";

export function SalesChart({ title, weeks }: { title: string; weeks: SalesWeek[] }) {
  const height = 140;
  const top = 12;
  const left = 36;
  const bar = 18;
  const gap = 8;
  const width = left + weeks.length * (bar + gap) + 4;
  const max = Math.max(1, ...weeks.map((w) => w.delivered));
  // A round top for the scale: 1, 2 or 5 times a power of ten.
  const step = [1, 2, 5].map((m) => m * 10 ** Math.floor(Math.log10(max))).find((s) => s * 2 >= max / 2) ?? max;
  const ceiling = Math.ceil(max / step) * step;
  const y = (v: number) => top + height - (height * v) / ceiling;
  const delivered = weeks.reduce((s, w) => s + w.delivered, 0);
  const returned = weeks.reduce((s, w) => s + w.returned, 0);
  const summary = `${title}, vecka ${weeks[0]?.week}–${weeks[weeks.length - 1]?.week}: ${delivered} levererade, ${returned} returnerade, ${Math.max(delivered - returned, 0)} sålda.`;
  return (
    <svg className="sales-chart" viewBox={`0 0 ${width} ${height + top + 24}`} width="100%" style={{ maxWidth: `${width * 1.6}px` }} role="img" aria-label={summary}>
      {[0, ceiling / 2, ceiling].map((v) => (
        <g key={v}>
          <line x1={left} x2={width} y1={y(v)} y2={y(v)} className="grid" />
          <text x={left - 4} y={y(v) + 4} textAnchor="end" className="tick">
            {v}
          </text>
        </g>
      ))}
      {weeks.map((w, i) => {
        const x = left + 4 + i * (bar + gap);
        return (
          <g key={w.monday}>
            <rect x={x} width={bar} y={y(w.sold)} height={y(0) - y(w.sold)} className="sold" />
            <rect x={x} width={bar} y={y(w.delivered)} height={y(w.sold) - y(w.delivered)} className="returned" />
            <text x={x + bar / 2} y={top + height + 16} textAnchor="middle" className="tick">
              {w.week}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
