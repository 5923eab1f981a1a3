import { CUSTOMER_NUMBER } from "~/catalog";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff, safeRedirect } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { LEDGERS, LEDGER_TITLE } from "~/catalog";
import { config } from "~/config.server";
import { GuaranteeActionSchema, PAYOUT_BATCHES_PER_PAGE, REFUND_ORDERS, REFUND_SEARCH, refundView, weekWords } from "~/features/guarantees";
import {
  addToRefund,
  completeRefunds,
  customerGuarantees,
  guaranteeTotals,
  listPayoutBatches,
  listPendingRefunds,
  missingDetails,
  missingOf,
  incompletePayouts,
  payoutWeeks,
  refundProblems,
  setRefundDate,
  undoRefund,
  updateBankDetail,
} from "~/features/guarantees/index.server";
import { handleForm, type FormReply } from "~/http/form.server";
import { listUrl } from "~/http/params";
import { stockholmTime, today } from "~/lib/dates";
import { formatKr } from "~/lib/money";
import { pageCount } from "~/lib/paging";
import { isRefusal, refuse } from "~/lib/refusal";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { Pager } from "~/ui/pager";
import { OrderSelect } from "~/ui/sort";
import { RowAction } from "~/ui/row-action";
import { ActionsHeader } from "~/ui/table";
import { BANK_FIELD_TEXT } from "./bank-detail-form";
import { DownloadButton } from "./download-button";
import { PendingRefund } from "./pending-refund";
import { param, readSearch } from "~/lib/search-params";

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

/** The customer searched (`kund`) and the page of Utbetalningshistorik (`historik`); the list's own are REFUND_SEARCH. */
const GUARANTEES_SEARCH = { kund: param.text(10), historik: param.page() };
const LIST_KEYS = ["kund", "historik", ...Object.keys(REFUND_SEARCH), "ordning"];

/** The screen as the form left it: its search, list order and pages (not a confirmation step), and the customer the form was for. */
function backToList(request: Request, searched: string | undefined) {
  const back = listUrl(request, "/admin/guarantees", LIST_KEYS);
  if (!searched || readSearch(request, GUARANTEES_SEARCH).kund) return back;
  return `${back}${back.includes("?") ? "&" : "?"}${new URLSearchParams({ kund: searched })}`;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { kund: raw, historik: historyPage } = readSearch(request, GUARANTEES_SEARCH);
  const customerId = CUSTOMER_NUMBER.test(raw) ? Number(raw) : null;
  const [totals, refunds, history, found] = await Promise.all([
    attempt(guaranteeTotals, "Misslyckades med att hämta totalsummor för garantibelopp."),
    attempt(listPendingRefunds, "Misslyckades med att ladda sparade utbetalningar."),
    attempt(() => listPayoutBatches(historyPage), "Misslyckades med att hämta utbetalningshistoriken."),
    customerId === null ? null : attempt(() => customerGuarantees(customerId), "Kunde inte hämta garantibelopp för kund."),
  ]);
  let searchMessage: string | null = null;
  if (raw && customerId === null) searchMessage = "Kundnummer är 1–5 siffror.";
  else if (found?.error) searchMessage = found.error;
  else if (found && (!found.value || found.value.amounts.length === 0)) searchMessage = "Inga garantier hittades.";
  const pending = refunds.value ?? [];
  return {
    search: raw,
    // Every gap at once, before anyone presses a file button or Klarmarkera.
    missing: missingDetails(pending),
    customer: found?.value && found.value.amounts.length > 0 ? found.value : null,
    searchMessage,
    totals: totals.value ?? [],
    totalsError: totals.error,
    // One page of the added pay-outs, searched and sorted (the checks above cover all).
    list: refundView(
      pending.map((r) => ({ ...r, problems: refundProblems(r) })),
      request,
    ),
    pendingCount: pending.length,
    // The file buttons cover every added pay-out, not only the page shown: one per title and week.
    weeksPending: payoutWeeks(pending),
    // The bank's file names a payer: none without the seller's details (a lenient production start).
    bankFiles: config.seller !== null,
    today: today(),
    refundsError: refunds.error,
    history: history.value ?? { total: 0, batches: [] },
    historyPage,
    historyPages: pageCount(history.value?.total ?? 0, PAYOUT_BATCHES_PER_PAGE),
    historyError: history.error,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, GuaranteeActionSchema, async (v, submission) => {
    // Back to the view the form was on (the search, the list's order and page, all in the
    // query string the form posted to), through the same check as every redirect target.
    const back = safeRedirect(backToList(request, v.search), "/admin/guarantees");
    switch (v.intent) {
      case "refund": {
        await addToRefund(v.kund, v.guaranteeId, user.actor);
        return redirectWithToast(request, back, "Utbetalning sparad!");
      }
      case "undo-refund": {
        const undone = await undoRefund(v.kund, v.guaranteeId, user.actor);
        return redirectWithToast(request, back, undone ? "Utbetalningen är borttagen ur listan." : "Utbetalningen fanns inte längre i listan.");
      }
      case "refund-date": {
        await setRefundDate(v.kund, v.refundDate, user.actor);
        return redirectWithToast(request, back, `Utbetalningsdatum ändrat till ${v.refundDate}.`);
      }
      case "complete": {
        try {
          const n = await completeRefunds(user.actor);
          // Those lacking a detail wait, listed apart on the page (they block only themselves).
          const waiting = (await incompletePayouts()).length;
          const rest = waiting === 0 ? "" : ` ${waiting === 1 ? "1 kund saknar" : `${waiting} kunder saknar`} uppgifter och väntar kvar.`;
          return redirectWithToast(request, back, n > 0 ? `Utbetalningarna är klarmarkerade.${rest}` : "Det fanns inga utbetalningar att klarmarkera.");
        } catch (e) {
          // Every missing detail, listed under the spec's message.
          if (isRefusal(e) && missingOf(e).length > 0) return data(submission.reply({ formErrors: [e.message, ...missingOf(e)] }), { status: 400 });
          if (isRefusal(e)) throw e;
          console.error(e);
          return data(submission.reply({ formErrors: ["Misslyckades med att klarmarkera garantibelopp."] }), { status: 500 });
        }
      }
      default: {
        const text = BANK_FIELD_TEXT[v.intent];
        try {
          await updateBankDetail(v.kund, v.intent, v.value ?? "", user.actor, v.was);
        } catch (e) {
          // Someone else changed it since the page was opened: say so, with what is stored now (409).
          if (isRefusal(e, "conflict")) throw e;
          if (!isRefusal(e)) console.error(e);
          throw refuse.invalid(isRefusal(e) ? `${text.fail} ${e.message}` : text.fail, { field: "value" });
        }
        return redirectWithToast(request, back, text.ok);
      }
    }
  });
}

/** The action's answer when it came from `intent` (and that customer's form). */
function answerOf(reply: FormReply | undefined, intent: string, customerId?: number): FormReply | null {
  const sent = reply?.initialValue as Record<string, unknown> | undefined;
  if (!reply || sent?.intent !== intent) return null;
  if (customerId !== undefined && sent?.kund !== String(customerId)) return null;
  return reply;
}

function errorsOf(reply: FormReply | null): string[] {
  return Object.values(reply?.error ?? {}).flatMap((m) => m ?? []);
}

// A save refused because someone else changed the row (409) shows what is stored now.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

export default function GuaranteesAdmin() {
  const { search, customer, searchMessage, totals, totalsError, list, pendingCount, weeksPending, bankFiles, today: now, refundsError, missing, history, historyPage, historyPages, historyError } = useLoaderData<typeof loader>();
  const weeks = [...new Set(weeksPending.map((w) => w.week))];
  const { search: query } = useLocation();
  const refunds = list.rows;
  const confirming = useConfirming();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const refundErrors = errorsOf(answerOf(reply, "refund"));
  const completeErrors = errorsOf(answerOf(reply, "complete"));
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
      {refundErrors.length > 0 ? (
        <p className="field-error" role="alert">
          {refundErrors.join(" ")}
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
                      ) : !a.completedAt ? (
                        <RowAction
                          intent="undo-refund"
                          fields={{ kund: customer.customer.id, guaranteeId: a.id, search }}
                          label="Ångra"
                          ariaLabel={`Ångra utbetalning ${a.paper} ${formatKr(a.amountOre)}`}
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
      {completeErrors.length > 0 ? (
        <div className="field-error" role="alert">
          <p>{completeErrors[0]}</p>
          {completeErrors.length > 1 ? (
            <ul>
              {completeErrors.slice(1).map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {pendingCount === 0 ? (
        <p>Inga tillagda utbetalningar.</p>
      ) : (
        <Form method="get" className="card filters" key={query} autoComplete="off" aria-label="Sök bland tillagda utbetalningar">
          {search ? <input type="hidden" name="kund" value={search} /> : null}
          <div className="form-row">
            <div className="field">
              <label htmlFor="refund-search">Sök bland tillagda (kundnummer, namn)</label>
              <input id="refund-search" name="sok" type="search" defaultValue={list.search} />
            </div>
            <div className="field">
              <label htmlFor="refund-ledger">Tidning</label>
              <select id="refund-ledger" name="tidning" defaultValue={list.ledger ?? ""}>
                <option value="">Alla</option>
                {LEDGERS.map((l) => (
                  <option key={l} value={l}>
                    {LEDGER_TITLE[l]}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="refund-week">Utbetalningsvecka</label>
              <select id="refund-week" name="vecka" defaultValue={list.week ?? ""}>
                <option value="">Alla</option>
                {weeks.map((w) => (
                  <option key={w} value={w}>
                    {weekWords(w, now)}
                  </option>
                ))}
              </select>
            </div>
            <OrderSelect id="refund-order" orders={REFUND_ORDERS} value={list.order} />
          </div>
          <button type="submit">Visa</button>
          <p>
            {list.matching === pendingCount ? `${pendingCount} ${pendingCount === 1 ? "kund" : "kunder"}` : `${list.matching} av ${pendingCount} kunder`}, {formatKr(list.totalOre)} att betala ut
            {list.pages > 1 ? `, sida ${list.page} av ${list.pages}` : ""}.
          </p>
        </Form>
      )}
      {pendingCount > 0 && list.matching === 0 ? <p>Inga tillagda utbetalningar matchar sökningen.</p> : null}
      {missing.length > 0 && completeErrors.length === 0 ? (
        <div className="notice" role="note" aria-label="Saknade uppgifter">
          <p>Innan utbetalningsfiler, underlag eller klarmarkering behövs:</p>
          <ul>
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {refunds.map((r) => (
        <PendingRefund key={r.customerId} refund={r} search={search} answerFor={(field) => answerOf(reply, field, r.customerId)} />
      ))}
      <Pager page={list.page} pages={list.pages} />
      {pendingCount > 0 ? (
        <div className="actions">
          {/* One file per title and ISO week of payment (decision 022). */}
          {weeksPending.map((w) => (
            <DownloadButton key={`csv-${w.ledger}-${w.week}`} fields={{ ledger: String(w.ledger), week: w.week, intent: "csv" }} label={`Utbetalningsfil ${LEDGER_TITLE[w.ledger]} ${weekWords(w.week, now)}`} />
          ))}
          {bankFiles
            ? weeksPending.map((w) => (
                <DownloadButton
                  key={`xml-${w.ledger}-${w.week}`}
                  fields={{ ledger: String(w.ledger), week: w.week, intent: "pain001" }}
                  label={`Bankfil (ISO 20022) ${LEDGER_TITLE[w.ledger]} ${weekWords(w.week, now)}`}
                />
              ))
            : null}
          {weeksPending.map((w) => (
            <DownloadButton key={`pdf-${w.ledger}-${w.week}`} fields={{ ledger: String(w.ledger), week: w.week, intent: "underlag" }} label={`Allt underlag ${LEDGER_TITLE[w.ledger]} ${weekWords(w.week, now)}`} />
          ))}
          {/* Irreversible: asks first (a dialog with JavaScript, a confirm section without). */}
          <ConfirmLink confirm="klarmarkera" label="Klarmarkera" className="button primary" />
        </div>
      ) : null}
      {pendingCount > 0 && confirming === "klarmarkera" ? (
        <ConfirmDialog title="Klarmarkera utbetalningarna?" intent="complete" fields={{ search }} confirmLabel="Klarmarkera">
          <p>
            {pendingCount} {pendingCount === 1 ? "kunds" : "kunders"} utbetalningar markeras som utbetalda och lämnar listan. Det går inte att ångra.
          </p>
        </ConfirmDialog>
      ) : null}
      <PayoutHistory history={history} page={historyPage} pages={historyPages} error={historyError} />
    </>
  );
}

/** Every Klarmarkera with its files, to fetch again (decision 022). */
function PayoutHistory({ history, page, pages, error }: { history: { total: number; batches: Batch[] }; page: number; pages: number; error: string | null }) {
  return (
    <section aria-labelledby="payout-history">
      <h2 id="payout-history">Utbetalningshistorik</h2>
      {error ? <p role="alert">{error}</p> : null}
      {history.batches.length === 0 ? (
        <p>Inga klarmarkerade utbetalningar ännu.</p>
      ) : (
        // One card per batch, not a table: file names and e-mail addresses are long words
        // that a phone's table would break letter by letter.
        <ul className="plain-list" aria-label="Utbetalningshistorik">
          {history.batches.map((b) => (
            <li key={b.id} className="card">
              <p>
                <strong>Klarmarkerad {stockholmTime(b.madeAt)}</strong> av {b.actorName ?? b.actor}
              </p>
              <p>
                {b.customers} {b.customers === 1 ? "kund" : "kunder"}, {formatKr(b.amountOre)}
              </p>
              <div className="inline-actions">
                {b.files.map((f) => (
                  <DownloadButton key={f.id} fields={{ intent: "kept", fil: String(f.id) }} label={f.filename} ariaLabel={`Hämta ${f.filename} igen`} />
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} pages={pages} param="historik" />
    </section>
  );
}

type Batch = Awaited<ReturnType<typeof listPayoutBatches>>["batches"][number];

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
