import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { SALES_TEXTS } from "~/features/sales";
import { listSales } from "~/features/sales/index.server";
import { SalesTitles } from "~/ui/sales-chart";

export const meta: MetaFunction = () => [{ title: "Försäljning – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  // The session's customer only (the retailer's own data).
  return { titles: await listSales(user.customerId) };
}

/** Försäljning: per title the last 13 weeks as a chart and a table, and a hint when the return rate says so. */
export default function SalesPage() {
  const { titles } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>{SALES_TEXTS.title}</h1>
      <p className="intro">{SALES_TEXTS.intro}</p>
      {titles.length === 0 ? <p>{SALES_TEXTS.empty}</p> : null}
      <SalesTitles titles={titles} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
