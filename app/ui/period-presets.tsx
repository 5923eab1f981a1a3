import { Link, useLocation } from "@remix-run/react";
import { preset, PRESET_LABELS, type PresetId } from "~/lib/period";

/** The current query string with `changes` applied: null removes a key, an array repeats it. */
export function withParams(search: string, changes: Record<string, string | string[] | null>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    params.delete(k);
    if (v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  }
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * The range picker's preset links (plain GET links, so they work without JavaScript).
 * `reset` names the parameters a new period makes meaningless (a page, a chosen row).
 */
export function PeriodPresets({ ids, today, reset }: { ids: PresetId[]; today: string; reset: string[] }) {
  const location = useLocation();
  const cleared = Object.fromEntries(reset.map((k) => [k, null]));
  return (
    <nav aria-label="Snabbval för period" className="actions">
      {ids.map((id) => {
        const p = preset(id, today);
        return (
          <Link key={id} className="button" to={withParams(location.search, { ...cleared, fran: p.from, till: p.to })}>
            {PRESET_LABELS[id]}
          </Link>
        );
      })}
    </nav>
  );
}
