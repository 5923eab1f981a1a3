import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { formatSek, parsePrice, priceBreakdown, PRICE_ERROR } from "~/features/products";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "In- & utpriser – Returportalen" }];

// A GET form: the calculation changes nothing, so it is a bookmarkable URL (?pris=30,00).
const PRICE_SEARCH = { pris: param.typed(40) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  const { pris: raw } = readSearch(request, PRICE_SEARCH);
  if (raw === null || raw.trim() === "") return { raw: "", error: null };
  if (parsePrice(raw) === null) return data({ raw, error: PRICE_ERROR }, { status: 400 });
  return { raw, error: null };
}

export default function PricesPage() {
  const loaded = useLoaderData<typeof loader>();
  // With JavaScript the results follow the input as you type; without, the form's GET answers.
  const [raw, setRaw] = useState(loaded.raw);
  const [lastLoaded, setLastLoaded] = useState(loaded.raw);
  if (loaded.raw !== lastLoaded) {
    setLastLoaded(loaded.raw);
    setRaw(loaded.raw);
  }
  const price = raw.trim() === "" ? null : parsePrice(raw);
  const error = raw === loaded.raw ? loaded.error : raw.trim() !== "" && price === null ? PRICE_ERROR : null;
  const result = price === null ? null : priceBreakdown(price);
  return (
    <>
      <h1>In- &amp; utpriser</h1>
      <p>Räkna fram inköpspris och provision från tidningens försäljningspris.</p>
      <Form method="get" className="price-form">
        <div className="field">
          <label htmlFor="pris">Försäljningspris (kr)</label>
          <input
            id="pris"
            name="pris"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={raw}
            onChange={(e) => setRaw(e.currentTarget.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "pris-error" : undefined}
          />
          {error ? (
            <div id="pris-error" className="field-error" role="alert">
              {error}
            </div>
          ) : null}
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Beräkna
          </button>
        </div>
      </Form>
      {result ? (
        <section aria-labelledby="price-result" aria-live="polite">
          <h2 id="price-result">Resultat</h2>
          <dl className="facts price-result">
            <dt>Försäljningspris</dt>
            <dd data-testid="price">{formatSek(result.price)}</dd>
            <dt>Pris exkl. moms</dt>
            <dd data-testid="origin">{formatSek(result.origin)}</dd>
            <dt>Provision (21,5 %)</dt>
            <dd data-testid="commission">{formatSek(result.commission)}</dd>
            <dt>Inköpspris</dt>
            <dd data-testid="purchase">{formatSek(result.purchasePrice)}</dd>
            <dt>Moms (6 %) på inköpspris</dt>
            <dd data-testid="vat">{formatSek(result.vat)}</dd>
          </dl>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
