import { Link, useSearchParams } from "@remix-run/react";

export { pageCount } from "~/lib/paging";

/**
 * The one pager: "Föregående · Sida N av M · Nästa" as plain links that keep the rest of
 * the query string and set `?sida=`, so it works without JavaScript. Nothing when
 * everything fits on one page.
 */
export function Pager({ page, pages, param = "sida" }: { page: number; pages: number; param?: string }) {
  const [params] = useSearchParams();
  if (pages <= 1) return null;
  const link = (p: number) => {
    const next = new URLSearchParams(params);
    next.set(param, String(p));
    return `?${next}`;
  };
  return (
    <nav className="pager actions" aria-label="Sidor">
      {page > 1 ? <Link to={link(page - 1)}>Föregående</Link> : null}
      <span>
        Sida {page} av {pages}
      </span>
      {page < pages ? <Link to={link(page + 1)}>Nästa</Link> : null}
    </nav>
  );
}
