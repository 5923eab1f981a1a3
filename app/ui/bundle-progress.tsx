import { progressColour, progressFill } from "~/features/bundles";

/**
 * Bundle progress (spec 9): a circle whose fill is twice the return count,
 * green below 40, orange 40–49, red from 50, with the count beside it and, from 40, how full
 * it is in words ("nästan full", "full"): the colour is never the only sign. Inline
 * SVG: no script, no image request, drawn the same on old phones.
 */
export function BundleProgress({ total }: { total: number }) {
  const colour = progressColour(total);
  const fill = progressFill(total);
  return (
    <span className={`progress progress-${colour}`} title={`${total} returer`}>
      {/* r = 100 / 2π: the circumference is 100, so the dash is the fill in percent. */}
      <svg className="progress-circle" viewBox="0 0 36 36" width="1.75em" height="1.75em" aria-hidden="true" focusable="false">
        <circle className="progress-track" cx="18" cy="18" r="15.9155" fill="none" strokeWidth="4" />
        {fill > 0 ? (
          <circle className="progress-fill" cx="18" cy="18" r="15.9155" fill="none" strokeWidth="4" strokeDasharray={`${fill} ${100 - fill}`} strokeDashoffset="25" />
        ) : null}
      </svg>
      <span className="progress-text">
        {total} returer{colour === "red" ? ", full" : colour === "orange" ? ", nästan full" : ""}
      </span>
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
