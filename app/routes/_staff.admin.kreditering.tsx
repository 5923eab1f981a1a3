// Kreditering: customer service answers "where is my credit?" in one screen.
// A customer number and a bundle number show the bundle's returns and, for each, the
// invoice that credited it (with the invoice) or why not yet. A utb user reaches only
// their distributor's customers; others answer as unknown (404), like the customer pages.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useLoaderData } from "@remix-run/react";
import { BUNDLE_NUMBER, CUSTOMER_NUMBER, PAPER_TYPE_HEADING } from "~/catalog";
import { requireStaff } from "~/auth/guards.server";
import { getBundle } from "~/features/bundles/index.server";
import { customerInScope, customerScope } from "~/features/customers/index.server";
import type { CreditTrail } from "~/features/invoices";
import { creditTrails } from "~/features/invoices/index.server";
import { BundleTable } from "~/ui/bundle-table";
import { CreditTrailText } from "~/ui/credit-trail";
import { PlainField } from "~/ui/field";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Kreditering – Returportalen" }];

const MESSAGES = {
  customer: "Ange ett kundnummer (1–5 siffror).",
  bundle: "Ange ett buntnummer.",
  notFound: (customer: string, bundle: string) => `Kund ${customer} har ingen bunt ${bundle}.`,
} as const;

const CREDIT_SEARCH = { kund: param.text(10), bunt: param.text(10) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const { kund, bunt } = readSearch(request, CREDIT_SEARCH);
  const typed = { kund, bunt };
  if (!kund && !bunt) return { typed, errors: null, result: null };
  const errors = { kund: CUSTOMER_NUMBER.test(kund) ? undefined : MESSAGES.customer, bunt: BUNDLE_NUMBER.test(bunt) ? undefined : MESSAGES.bundle };
  if (errors.kund || errors.bunt) return data({ typed, errors, result: null }, { status: 400 });
  const customerId = Number(kund);
  // Outside the scope, unknown customer and unknown bundle answer alike.
  const bundle = (await customerInScope(customerId, customerScope(user))) ? await getBundle(customerId, Number(bunt)) : null;
  if (!bundle) return data({ typed, errors: { kund: undefined, bunt: MESSAGES.notFound(kund, bunt) }, result: null }, { status: 404 });
  const trails = Object.fromEntries(await creditTrails(customerId, bundle.lines.map((l) => l.returnId))) as Record<number, CreditTrail>;
  return { typed, errors: null, result: { customerId, bundle, trails } };
}

export default function CreditLookup() {
  const { typed, errors, result } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Kreditering</h1>
      <p>Var har returerna i en bunt krediterats? Ange kund och bunt.</p>
      <Form method="get" className="search-form" role="search" aria-label="Sök bunt">
        <PlainField id="credit-kund" name="kund" label="Kundnummer" inputMode="numeric" autoComplete="off" defaultValue={typed.kund} error={errors?.kund} />
        <PlainField id="credit-bunt" name="bunt" label="Buntnummer" inputMode="numeric" autoComplete="off" defaultValue={typed.bunt} error={errors?.bunt} />
        <div className="field">
          <button type="submit" className="primary">
            Sök
          </button>
        </div>
      </Form>
      {result ? (
        <section aria-labelledby="credit-bundle">
          <h2 id="credit-bundle">
            Bunt #{result.bundle.number} hos kund <Link to={`/admin/kunder/${result.customerId}`}>{result.customerId}</Link>
          </h2>
          <p>
            {result.bundle.open ? "Öppen" : `Stängd ${result.bundle.closedDate}`} <span className="muted">({PAPER_TYPE_HEADING[result.bundle.type]})</span>
          </p>
          <BundleTable
            lines={result.bundle.lines}
            total={result.bundle.total}
            credit={(l) => <CreditTrailText trail={result.trails[l.returnId]} invoiceHref={(n) => `/admin/kunder/${result.customerId}/faktura/${n}.pdf`} />}
          />
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
