// Försäljning per distributör: the retailer's sell-through chart summed over
// every customer of one distributor, the last 13 weeks per title. A utb user sees only
// their own distributor; another one is 403.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { listDistributors, scopeFor } from "~/features/distribution/index.server";
import { listDistributorSales } from "~/features/sales/index.server";
import { DistributorSelect } from "~/ui/distributor-select";
import { SalesTitles } from "~/ui/sales-chart";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Försäljning per distributör – Returportalen" }];

const SALES_SEARCH = { utb: param.ref() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = scopeFor(user);
  const distributors = await listDistributors(scope);
  const { utb } = readSearch(request, SALES_SEARCH);
  if (utb === null) throw new Response("Okänd distributör.", { status: 400 });
  // A utb user has one distributor: theirs is shown without asking.
  const wanted = utb ?? (scope.distributorIds?.length === 1 ? scope.distributorIds[0] : null);
  if (wanted === null) return { distributors, chosen: null, titles: [] };
  const chosen = distributors.find((d) => d.id === wanted);
  if (!chosen) {
    if (scope.distributorIds !== null) throw new Response("Du har inte behörighet till den distributören.", { status: 403 });
    throw new Response("Distributören finns inte.", { status: 404 });
  }
  return { distributors, chosen, titles: await listDistributorSales(chosen.id) };
}

export default function DistributorSales() {
  const { distributors, chosen, titles } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Försäljning per distributör</h1>
      <p>
        Levererat, returnerat och sålt de senaste 13 veckorna, summerat över distributörens kunder. <Link to="/admin/distribution">Till Distribution</Link>
      </p>
      <Form method="get" className="filters">
        <div className="field">
          <DistributorSelect id="sales-utb" label="Distributör" emptyLabel="Välj distributör" distributors={distributors} defaultValue={chosen?.id} />
        </div>
        <button type="submit">Visa</button>
      </Form>
      {chosen ? (
        <section aria-labelledby="sales-distributor">
          <h2 id="sales-distributor">{chosen.name}</h2>
          {titles.length === 0 ? <p>Inga leveranser de senaste 13 veckorna.</p> : <SalesTitles titles={titles} level={3} />}
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
