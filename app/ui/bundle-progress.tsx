import { progressColour, progressFill } from "~/features/bundles";

/** Bundle progress (spec 9): the fill is twice the return count, coloured green <40, orange 40–49, red ≥50. */
export function BundleProgress({ total }: { total: number }) {
  const colour = progressColour(total);
  const fill = progressFill(total);
  return (
    <span className={`progress progress-${colour}`} title={`${total} returer`}>
      <span className="progress-bar" aria-hidden="true">
        <span className="progress-fill" style={{ width: `${fill}%` }} />
      </span>
      <span className="progress-text">{total} returer</span>
    </span>
  );
}

/** The open bundles of one paper type as chips, or '- Ingen öppen bunt'. */
export function BundleChips({ bundles }: { bundles: { number: number; total: number }[] }) {
  if (bundles.length === 0) return <p className="muted">- Ingen öppen bunt</p>;
  return (
    <ul className="bundle-chips" aria-label="Öppna buntar">
      {bundles.map((b) => (
        <li key={b.number} className="bundle-chip">
          <span>Bunt #{b.number}</span> <BundleProgress total={b.total} />
        </li>
      ))}
    </ul>
  );
}
