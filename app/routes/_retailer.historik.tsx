import { paperName } from "~/catalog";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { requireRetailer } from "~/auth/guards.server";
import { checkHistoryRange, defaultHistoryRange, historyLimits, listHistory, type HistoryRow } from "~/features/returns/index.server";
import { creditTrails } from "~/features/invoices/index.server";
import type { CreditTrail } from "~/features/invoices";
import { CLAIM_TEXTS, claimStatusText, type ClaimState } from "~/features/deliveries";
import { claimsOfDeliveries } from "~/features/deliveries/index.server";
import { CreditTrailText } from "~/ui/credit-trail";
import { TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Historik – Returportalen" }];

// The range as typed: the history's own limits answer it (checkHistoryRange).
const HISTORY_SEARCH = { fran: param.typed(10), till: param.typed(10) };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const limits = historyLimits();
  const { fran, till } = readSearch(request, HISTORY_SEARCH);
  const range = fran !== null || till !== null ? { from: (fran ?? "").trim(), to: (till ?? "").trim() } : defaultHistoryRange();
  const errors = checkHistoryRange(range.from, range.to);
  if (errors.from || errors.to) return data({ range, limits, errors, rows: null, trails: {} as Record<number, CreditTrail>, claims: {} as Record<number, ClaimState> }, { status: 400 });
  const rows = await listHistory(user.customerId, range.from, range.to);
  // Where each return was credited, and where each claim stands, in two more queries.
  const [trails, claims] = await Promise.all([
    creditTrails(user.customerId, rows.flatMap((r) => (r.returnId === null ? [] : [r.returnId]))),
    claimsOfDeliveries(user.customerId, [...new Set(rows.filter((r) => r.claimed !== null && r.claimed > 0).map((r) => r.deliveryId))]),
  ]);
  return { range, limits, errors, rows, trails: Object.fromEntries(trails) as Record<number, CreditTrail>, claims: Object.fromEntries(claims) as Record<number, ClaimState> };
}

export default function History() {
  const { range, limits, errors, rows, trails, claims } = useLoaderData<typeof loader>();
  const form = useRef<HTMLFormElement>(null);
  // Typed since the last page load began: kept when its answer comes (a person typing the
  // next range while the last one loads). Otherwise the fields show the range shown (after
  // Back, say).
  const typed = useRef(false);
  const navigation = useNavigation();
  // Each page load begun (a search, Back, a search sent before the last one came) starts afresh.
  const loadingKey = navigation.state === "idle" ? null : (navigation.location?.key ?? null);
  useEffect(() => {
    if (loadingKey !== null) typed.current = false;
  }, [loadingKey]);
  useEffect(() => {
    if (typed.current || !form.current) return;
    for (const [name, value] of [["fran", range.from], ["till", range.to]]) {
      const input = form.current.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = value;
    }
  }, [range.from, range.to]);
  return (
    <>
      <h1>Historik</h1>
      <Form method="get" className="range-form" noValidate ref={form} onInput={() => (typed.current = true)}>
        <fieldset className="plain">
          <legend>Datumintervall</legend>
          <div className="range-form">
            <DateField name="fran" label="Från" value={range.from} min={limits.earliest} max={limits.latest} error={errors.from} />
            <DateField name="till" label="Till" value={range.to} min={limits.earliest} max={limits.latest} error={errors.to} />
            <div className="field">
              <button type="submit" className="primary">
                Visa
              </button>
            </div>
          </div>
        </fieldset>
      </Form>
      {rows ? (
        <>
          <HistoryTable heading="Huvudtidningar" rows={rows.filter((r) => r.type === 0)} withEdition={false} trails={trails} claims={claims} />
          <HistoryTable heading="Bilagor" rows={rows.filter((r) => r.type === 1)} withEdition trails={trails} claims={claims} />
        </>
      ) : null}
    </>
  );
}

function DateField(props: { name: string; label: string; value: string; min: string; max: string; error?: string }) {
  const id = `history-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type="date"
        defaultValue={props.value}
        min={props.min}
        max={props.max}
        required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error ? (
        <div id={`${id}-error`} className="field-error" role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

function HistoryTable({
  heading,
  rows,
  withEdition,
  trails,
  claims,
}: {
  heading: string;
  rows: HistoryRow[];
  withEdition: boolean;
  trails: Record<number, CreditTrail>;
  claims: Record<number, ClaimState>;
}) {
  const id = `history-${heading}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <TableOrEmpty empty={rows.length === 0} emptyText="Inget att visa" frame={`Tabell: ${heading}`}>
        <thead>
          <tr>
            <th scope="col">Titel</th>
            {withEdition ? <th scope="col">Utgåva</th> : null}
            <th scope="col">Utgivningsdag</th>
            <th scope="col">Sista returdag</th>
            <th scope="col">Bunt</th>
            <th scope="col" className="num">Retur</th>
            <th scope="col" className="num">Mottagit</th>
            <th scope="col" className="num">Reklamerat</th>
            <th scope="col">Kreditering</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {/* A main newspaper's regional edition beside its title. */}
              <td>{withEdition ? r.title : paperName(r.title, r.edition)}</td>
              {withEdition ? <td>{r.edition}</td> : null}
              <td>{r.date}</td>
              <td>{r.deadline}</td>
              <td>{r.bundle ?? "–"}</td>
              <td className="num">
                {r.returned ?? "–"}
                {r.late ? <span className="late-note">Sen retur</span> : null}
              </td>
              <td className="num">{r.received ?? "–"}</td>
              <td className="num">
                {r.claimed ?? "–"}
                {claims[r.deliveryId] ? <span className="credit">{CLAIM_TEXTS.label(claims[r.deliveryId], claimStatusText(claims[r.deliveryId]))}</span> : null}
              </td>
              <td>{r.returnId !== null && r.returned ? <CreditTrailText trail={trails[r.returnId]} invoiceHref={(n) => `/faktura/${n}.pdf`} /> : "–"}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </section>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
