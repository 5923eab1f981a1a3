import type { ShouldRevalidateFunction } from "@remix-run/react";
import type { ReactNode } from "react";

/**
 * A route with an edit form answered 409 reloads its data, so StoredNow shows what the
 * other save stored (Remix does not revalidate after a 4xx action by default).
 * Export it as the route's `shouldRevalidate`.
 */
export const revalidateOnConflict: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) => actionStatus === 409 || defaultShouldRevalidate;

/**
 * What is stored now, shown beside an edit form whose save was refused because someone
 * else changed the row since the form was opened (409). The typed values stay in the
 * form; this panel shows the other save, so nothing vanishes silently. The hidden
 * version field is the stored one, so a second press saves the typed values on purpose.
 */
export function StoredNow({ conflict, rows }: { conflict: string[] | undefined; rows: [label: string, value: ReactNode][] }) {
  if (!conflict?.length) return null;
  return (
    <section className="card stored-now" aria-labelledby="stored-now-title" role="alert">
      <p>{conflict.join(" ")}</p>
      <h3 id="stored-now-title">Sparat nu</h3>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value === "" || value === null || value === undefined ? "–" : value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The version hidden field: the stored row's, from the loader (not the echoed one). */
export function VersionInput({ version }: { version: number }) {
  return <input type="hidden" name="version" value={version} key={version} />;
}
