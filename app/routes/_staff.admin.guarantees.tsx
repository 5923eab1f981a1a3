import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff, safeRedirect } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { BankDetailError, INCOMPLETE, PayoutIncompleteError, addToRefund, completeRefunds, customerGuarantees, guaranteeTotals, listPendingRefunds, refundProblems, updateBankDetail, type BankField } from "~/features/guarantees/index.server";
import { LEDGERS, LEDGER_TITLE } from "~/catalog/index";
import { formatKr } from "~/lib/money";
import { FieldErrors } from "~/ui/field";
import { RowAction } from "~/ui/row-action";
import { ActionsHeader } from "~/ui/table";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Garantibelopp – Returportalen" }];

// Load failures show the spec's texts (back-office 8) instead of failing the page.
async function attempt<T>(fn: () => Promise<T>, message: string): Promise<{ value: T | null; error: string | null }> {
  try {
    return { value: await fn(), error: null };
  } catch (e) {
    console.error(e);
    return { value: null, error: message };
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const raw = new URL(request.url).searchParams.get("kund")?.trim() ?? "";
  const customerId = /^\d{1,5}$/.test(raw) ? Number(raw) : null;
  const [totals, refunds, found] = await Promise.all([
    attempt(guaranteeTotals, "Misslyckades med att hämta totalsummor för garantibelopp."),
    attempt(listPendingRefunds, "Misslyckades med att ladda sparade utbetalningar."),
    customerId === null ? null : attempt(() => customerGuarantees(customerId), "Kunde inte hämta garantibelopp för kund."),
  ]);
  let searchMessage: string | null = null;
  if (raw && customerId === null) searchMessage = "Kundnummer är 1–5 siffror.";
  else if (found?.error) searchMessage = found.error;
  else if (found && (!found.value || found.value.amounts.length === 0)) searchMessage = "Inga garantier hittades.";
  return {
    search: raw,
    customer: found?.value && found.value.amounts.length > 0 ? found.value : null,
    searchMessage,
    totals: totals.value ?? [],
    totalsError: totals.error,
    refunds: (refunds.value ?? []).map((r) => ({ ...r, problems: refundProblems(r) })),
    refundsError: refunds.error,
  };
}

const FIELD_NAMES: Record<BankField, { label: string; ok: string; fail: string }> = {
  bankgiro: { label: "Bankgiro", ok: "Bankgiro uppdaterat!", fail: "Misslyckades med att uppdatera bankgiro." },
  bankAccount: { label: "Bankkonto", ok: "Bankaccount uppdaterat!", fail: "Misslyckades med att uppdatera bankaccount." },
  orgNumber: { label: "Orgnummer", ok: "Orgnummer uppdaterat!", fail: "Misslyckades med att uppdatera orgnummer." },
};

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const customerId = parseId(form.get("kund"));
  // Built from a form field, so it goes through the same check as every redirect target.
  const back = safeRedirect(`/admin/guarantees${form.get("search") ? `?kund=${encodeURIComponent(String(form.get("search")))}` : ""}`, "/admin/guarantees");
  if (intent === "refund") {
    const guaranteeId = parseId(form.get("guaranteeId"));
    const ok = customerId !== null && guaranteeId !== null && (await addToRefund(customerId, guaranteeId, actor).catch(() => false));
    if (!ok) return data({ intent, customerId, field: null, value: null, error: "Misslyckades med att spara utbetalning." }, { status: 400 });
    return redirectWithToast(request, back, "Utbetalning sparad!");
  }
  if (intent === "bankgiro" || intent === "bankAccount" || intent === "orgNumber") {
    const value = String(form.get("value") ?? "");
    try {
      await updateBankDetail(customerId ?? 0, intent, value, actor);
    } catch (e) {
      if (!(e instanceof BankDetailError)) console.error(e);
      const reason = e instanceof BankDetailError ? ` ${e.message}` : "";
      return data({ intent, customerId, field: intent, value, error: `${FIELD_NAMES[intent].fail}${reason}` }, { status: 400 });
    }
    return redirectWithToast(request, back, FIELD_NAMES[intent].ok);
  }
  if (intent === "complete") {
    try {
      const n = await completeRefunds(actor);
      return redirectWithToast(request, back, n > 0 ? "Utbetalningarna är klarmarkerade." : "Det fanns inga utbetalningar att klarmarkera.");
    } catch (e) {
      if (e instanceof PayoutIncompleteError) return data({ intent, customerId: null, field: null, value: null, error: INCOMPLETE }, { status: 400 });
      console.error(e);
      return data({ intent, customerId: null, field: null, value: null, error: "Misslyckades med att klarmarkera garantibelopp." }, { status: 500 });
    }
  }
  throw new Response("Okänd åtgärd.", { status: 400 });
}

function DownloadButton({ name, value, label, extra }: { name: string; value: string; label: string; extra?: Record<string, string> }) {
  // A document POST: the answer is the file (or a redirect back with a message).
  return (
    <Form method="post" action="/admin/guarantees/fil" reloadDocument>
      <CsrfInput />
      <input type="hidden" name={name} value={value} />
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit">{label}</button>
    </Form>
  );
}

export default function GuaranteesAdmin() {
  const { search, customer, searchMessage, totals, totalsError, refunds, refundsError } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const ledgersPending = LEDGERS.filter((l) => refunds.some((r) => r.amounts.some((a) => a.ledger === l)));
  return (
    <>
      <h1>Garantibelopp</h1>
      <Form method="get" className="card">
        <div className="form-row">
          <div className="field">
            <label htmlFor="kund">Kundnummer</label>
            <input id="kund" name="kund" type="text" inputMode="numeric" defaultValue={search} />
          </div>
        </div>
        <button type="submit" className="primary">
          Sök
        </button>
      </Form>
      {searchMessage ? <p role="status">{searchMessage}</p> : null}
      {failed?.intent === "refund" ? (
        <p className="field-error" role="alert">
          {failed.error}
        </p>
      ) : null}
      {customer ? (
        <section aria-labelledby="customer-title">
          <h2 id="customer-title">
            {customer.customer.id} {customer.customer.name}
          </h2>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Tidning</th>
                  <th className="num">Belopp</th>
                  <th>Status</th>
                  <ActionsHeader label="Åtgärd" />
                </tr>
              </thead>
              <tbody>
                {customer.amounts.map((a) => (
                  <tr key={a.id}>
                    <td>{a.paper}</td>
                    <td className="num">{formatKr(a.amountOre)}</td>
                    <td>{a.completedAt ? `Utbetald ${a.refundDate ?? ""}` : a.refunded ? `Tillagd, utbetalas ${a.refundDate}` : "Ej utbetald"}</td>
                    <td>
                      {!a.refunded ? (
                        <RowAction
                          intent="refund"
                          fields={{ kund: customer.customer.id, guaranteeId: a.id, search }}
                          label="Betala ut"
                          ariaLabel={`Betala ut ${a.paper} ${formatKr(a.amountOre)}`}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <h2>Totalt</h2>
      {totalsError ? <p role="alert">{totalsError}</p> : null}
      <div className="table-wrap">
        <table aria-label="Totalsummor">
          <thead>
            <tr>
              <th>Tidning</th>
              <th>Status</th>
              <th className="num">Summa</th>
            </tr>
          </thead>
          <tbody>
            {totals.map((t) => (
              <tr key={`${t.paper}-${t.status}`}>
                <td>{t.paper}</td>
                <td>{t.status}</td>
                <td className="num">{formatKr(t.totalOre)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Tillagda utbetalningar</h2>
      {refundsError ? <p role="alert">{refundsError}</p> : null}
      {failed?.intent === "complete" ? (
        <p className="field-error" role="alert">
          {failed.error}
        </p>
      ) : null}
      {refunds.length === 0 ? <p>Inga tillagda utbetalningar.</p> : null}
      {refunds.map((r) => (
        <article key={r.customerId} className="card" aria-labelledby={`refund-${r.customerId}`}>
          <h3 id={`refund-${r.customerId}`}>
            {r.customerId} {r.name}
          </h3>
          <p>
            {r.amounts.map((a) => `${a.paper} ${formatKr(a.amountOre)}`).join(", ")} – utbetalas {r.refundDate}
          </p>
          {(["bankgiro", "bankAccount", "orgNumber"] as const).map((field) => {
            const id = `${field}-${r.customerId}`;
            const mine = failed && failed.customerId === r.customerId && failed.field === field ? failed : null;
            const rule = field === "orgNumber" ? r.problems.orgNumber : field === "bankgiro" ? r.problems.bank : undefined;
            const errors = [mine?.error, rule].filter((x): x is string => !!x);
            return (
              <Form method="post" key={field} className="inline-field">
                <CsrfInput />
                <input type="hidden" name="kund" value={r.customerId} />
                <input type="hidden" name="search" value={search} />
                <label htmlFor={id}>{FIELD_NAMES[field].label}</label>
                <input
                  id={id}
                  name="value"
                  type="text"
                  inputMode="numeric"
                  defaultValue={mine?.value ?? r[field]}
                  aria-invalid={errors.length > 0 ? true : undefined}
                  aria-describedby={errors.length > 0 ? `${id}-error` : undefined}
                />
                <button type="submit" name="intent" value={field} aria-label={`Spara ${FIELD_NAMES[field].label.toLowerCase()} för ${r.customerId}`}>
                  Spara
                </button>
                <FieldErrors id={`${id}-error`} errors={errors.length > 0 ? errors : undefined} />
              </Form>
            );
          })}
          <DownloadButton name="kund" value={String(r.customerId)} label={`Underlag ${r.customerId}`} extra={{ intent: "underlag-customer" }} />
        </article>
      ))}
      {refunds.length > 0 ? (
        <div className="actions">
          {ledgersPending.map((l) => (
            <DownloadButton key={`csv-${l}`} name="ledger" value={String(l)} label={`Utbetalningsfil ${LEDGER_TITLE[l]}`} extra={{ intent: "csv" }} />
          ))}
          {ledgersPending.map((l) => (
            <DownloadButton key={`pdf-${l}`} name="ledger" value={String(l)} label={`Allt underlag ${LEDGER_TITLE[l]}`} extra={{ intent: "underlag" }} />
          ))}
          <Form method="post">
            <CsrfInput />
            <input type="hidden" name="search" value={search} />
            <button type="submit" name="intent" value="complete" className="primary">
              Klarmarkera
            </button>
          </Form>
        </div>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
