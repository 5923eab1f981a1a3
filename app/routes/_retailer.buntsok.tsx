import { BUNDLE_NUMBER, PAPER_TYPE_HEADING } from "~/catalog";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { getBundle } from "~/features/bundles/index.server";
import type { CreditTrail } from "~/features/invoices";
import { creditTrails } from "~/features/invoices/index.server";
import { CreditTrailText } from "~/ui/credit-trail";
import { BundleTable } from "~/ui/bundle-table";
import { Pager, pageCount } from "~/ui/pager";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Sök buntinnehåll – Returportalen" }];

/** Spec 9: 10 rows per page. */
const PAGE_SIZE = 10;

const BUNDLE_SEARCH = { id: param.text(20), sida: param.page() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const { id, sida } = readSearch(request, BUNDLE_SEARCH);
  if (!id) return { id, result: null };
  const bundle = BUNDLE_NUMBER.test(id) ? await getBundle(user.customerId, Number(id)) : null;
  if (!bundle) {
    // Unknown, malformed and other customers' numbers answer alike.
    return data({ id, result: { found: false as const } }, { status: 404 });
  }
  const pages = pageCount(bundle.lines.length, PAGE_SIZE);
  const page = Math.min(sida, pages);
  const { lines, ...rest } = bundle;
  const shown = lines.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  // Where each shown line's copies were credited.
  const trails = Object.fromEntries(await creditTrails(user.customerId, shown.map((l) => l.returnId))) as Record<number, CreditTrail>;
  return {
    id,
    result: { found: true as const, bundle: { ...rest, lines: shown }, page, pages, trails },
  };
}

export default function BundleSearch() {
  const { id, result } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Sök buntinnehåll</h1>
      <Form method="get" className="search-form" role="search">
        <div className="field">
          <label htmlFor="bundle-id">Buntnummer</label>
          <input id="bundle-id" name="id" type="text" inputMode="numeric" autoComplete="off" defaultValue={id} key={id} />
        </div>
        <div className="field">
          <button type="submit" className="primary">
            Sök
          </button>
        </div>
      </Form>
      {result && !result.found ? (
        <p className="field-error" role="alert">
          Kan inte hitta bunt med id {id}
        </p>
      ) : null}
      {result && result.found ? (
        <section aria-labelledby="bundle-heading">
          <h2 id="bundle-heading">Bunt #{result.bundle.number}</h2>
          <p>
            {result.bundle.open ? <strong>Öppen</strong> : <strong>Stängd {result.bundle.closedDate}</strong>}{" "}
            <span className="muted">({PAPER_TYPE_HEADING[result.bundle.type]})</span>
          </p>
          <BundleTable
            lines={result.bundle.lines}
            total={result.bundle.total}
            credit={(l) => <CreditTrailText trail={result.trails[l.returnId]} invoiceHref={(n) => `/faktura/${n}.pdf`} />}
          />
          <Pager page={result.page} pages={result.pages} />
          <p className="actions">
            <a className="button" href={`/buntinnehall/${result.bundle.number}.pdf`} download={`Bunt-${result.bundle.number}.pdf`}>
              Skriv ut buntinnehåll
            </a>
          </p>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
