import { Link, useSearchParams } from "@remix-run/react";

/**
 * The one tab strip: tabs are URL state (`?flik=`), plain links that keep the query
 * parameters named in `keep`, so they work without JavaScript; the current one is
 * `aria-current="page"`.
 */
export function TabStrip<T extends string>({ tabs, current, param = "flik", keep = [], label }: { tabs: readonly { id: T; label: string }[]; current: T; param?: string; keep?: string[]; label: string }) {
  const [params] = useSearchParams();
  const link = (id: T) => {
    const next = new URLSearchParams();
    next.set(param, id);
    for (const k of keep) {
      const v = params.get(k);
      if (v) next.set(k, v);
    }
    return `?${next}`;
  };
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link key={t.id} to={link(t.id)} aria-current={current === t.id ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
