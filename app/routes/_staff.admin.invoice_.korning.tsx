// Fakturakörning: an admin runs the invoicing in the browser, as the CLI's
// `invoice run` does. Choose the period, see a dry-run preview (customers, invoices and
// totals per paper type), confirm, and see the result; running the same period twice
// creates nothing new and says so. The history lists every run, from here or the CLI.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { searchedPage } from "~/features/invoices";
import { getInvoiceRun, getInvoiceRunJob, invoicePreview, InvoiceRunSchema, listInvoiceRuns, runInvoices, runStateText, startInvoiceRun, type InvoiceRunSummary, type PreviewRow } from "~/features/invoices/index.server";
import { handleForm } from "~/http/form.server";
import { addMonths, endOfMonth, isValidDate, startOfMonth, stockholmTime, today } from "~/lib/dates";
import { isRefusal } from "~/lib/refusal";
import { countOf } from "~/lib/count";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { Pager } from "~/ui/pager";
import { TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Fakturakörning – Returportalen" }];

const PAPER_TYPE = ["Huvudtidningar", "Bilagor"];

/** "1 faktura", "1 234 fakturor". */
const invoiceCount = (n: number) => countOf(n, "faktura", "fakturor");

const RUN_SEARCH = {
  fran: param.typed(10),
  till: param.typed(10),
  resultat: param.id(),
  korning: param.ref(),
  granska: param.flag(),
  sok: param.text(100),
  sida: param.page(),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const q = readSearch(request, RUN_SEARCH);
  const lastMonth = addMonths(startOfMonth(today()), -1);
  const from = q.fran ?? lastMonth;
  const to = q.till ?? endOfMonth(lastMonth);
  const resultId = q.resultat;
  // A run under way (?korning=<job>): its progress until it is done, then its result.
  const asked = q.korning;
  const jobId = asked ?? null;
  const job = jobId === null ? null : await getInvoiceRunJob(jobId);
  if (job?.state === "done") {
    const message =
      (job.created ?? 0) > 0
        ? `Körningen är klar: ${invoiceCount(job.created ?? 0)} (nr ${job.firstNumber}–${job.lastNumber}).`
        : `Inget nytt att fakturera för ${job.from}–${job.to}: ${invoiceCount(job.existing ?? 0)} fanns redan.`;
    throw await redirectWithToast(request, `/admin/invoice/korning?resultat=${job.runId}`, message);
  }
  if (job?.state === "failed") throw await redirectWithToast(request, `/admin/invoice/korning?fran=${job.from}&till=${job.to}&granska=1`, job.message ?? "Körningen misslyckades.");
  // Still running: its progress; stopped (its server went away) or never there: say so.
  const progress =
    asked === undefined ? null : job && job.state !== "stopped" ? { from: job.from, to: job.to, state: job.state, done: job.done, total: job.total } : { missing: true as const, message: job?.message ?? null, from: job?.from ?? null, to: job?.to ?? null };
  let preview: InvoiceRunSummary | null = null;
  let planned: ReturnType<typeof searchedPage<PreviewRow>> | null = null;
  let late: { customerId: number; name: string; description: string; date: string }[] = [];
  let afterRun: Awaited<ReturnType<typeof invoicePreview>>["settled"] | null = null;
  let returnable: Awaited<ReturnType<typeof invoicePreview>>["stillReturnable"] | null = null;
  const search = q.sok;
  let periodError: string | null = null;
  if (q.granska) {
    if (!isValidDate(from) || !isValidDate(to)) periodError = "Måste ha ett värde";
    else if (from > to) periodError = "Felaktig period";
    else {
      try {
        // The same code as the run, writing nothing.
        const found = await invoicePreview({ from, to, actor: user.actor });
        preview = found.summary;
        // What each invoice would hold, searchable and a page at a time.
        planned = searchedPage(found.rows, search, q.sida);
        late = found.late;
        afterRun = found.settled;
        returnable = found.stillReturnable;
      } catch (e) {
        if (!isRefusal(e)) throw e;
        periodError = e.message;
      }
    }
  }
  const [listed, result] = await Promise.all([listInvoiceRuns(), resultId !== null ? getInvoiceRun(resultId) : null]);
  const runs = listed.map((r) => ({ ...r, state: runStateText(r) }));
  // The run's files: every invoice it made, each as the customer's PDF, searched and paged.
  const made = result ? searchedPage(await runInvoices(result), search, q.sida) : null;
  return { from, to, preview, planned, late, afterRun, returnable, search, periodError, runs, result, made, progress };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(
    request,
    InvoiceRunSchema,
    async ({ fran, till }) => {
      try {
        // In the server's child process; the page follows its progress (invoice-run-jobs.server.ts).
        const { job } = await startInvoiceRun({ from: fran, to: till, actor: user.actor }, context.portal);
        return redirect(`/admin/invoice/korning?korning=${job.id}`);
      } catch (e) {
        if (!isRefusal(e)) throw e;
        return redirectWithToast(request, `/admin/invoice/korning?fran=${fran}&till=${till}&granska=1`, e.message);
      }
    },
    // The run is started from a previewed period only; the page has no field to show it on.
    { whenInvalid: () => redirectWithToast(request, "/admin/invoice/korning", "Ange perioden och förhandsgranska först.") },
  );
}

const when = stockholmTime;

export default function InvoiceRunPage() {
  const { from, to, preview, planned: invoices, late, afterRun, returnable, periodError, runs, result, made, progress } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const following = progress !== null && !("missing" in progress);
  // With JavaScript the progress is fetched every second; without it <meta refresh> does.
  useEffect(() => {
    if (!following) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1000);
    return () => clearInterval(timer);
  }, [following, revalidator]);
  const running = navigation.state === "submitting" && navigation.formMethod === "POST";
  const planned = preview ? preview.perPaperType.reduce((n, t) => n + t.invoices, 0) : 0;
  const total = preview ? preview.perPaperType.reduce((n, t) => n + t.amountOre, 0) : 0;
  return (
    <>
      <p>
        <Link to="/admin/invoice">Fakturering</Link>
      </p>
      <h1>Fakturakörning</h1>
      {progress && "missing" in progress ? (
        progress.message ? (
          <p role="alert">
            {progress.message}{" "}
            <Link to={`?fran=${progress.from}&till=${progress.to}&granska=1`}>
              Förhandsgranska {progress.from}–{progress.to} igen
            </Link>
          </p>
        ) : (
          <p role="alert">Körningen finns inte. Se historiken nedan.</p>
        )
      ) : null}
      {progress && !("missing" in progress) ? (
        <section className="card" aria-labelledby="run-progress">
          <noscript>
            <meta httpEquiv="refresh" content="2" />
          </noscript>
          <h2 id="run-progress">
            Körningen pågår: {progress.from}–{progress.to}
          </h2>
          <label htmlFor="run-progress-bar">{progress.state === "planning" ? "Räknar fram fakturorna …" : `${progress.done} av ${progress.total} fakturor skapade`}</label>
          <progress id="run-progress-bar" max={progress.total || undefined} value={progress.state === "planning" ? undefined : progress.done} />
          <p role="status">{progress.state === "planning" ? "Fakturorna räknas fram." : `${progress.done} av ${progress.total} fakturor skapade.`} Sidan uppdateras av sig själv; du kan lämna den.</p>
        </section>
      ) : null}
      {result ? (
        <section className="card" aria-labelledby="run-result">
          <h2 id="run-result">Resultat</h2>
          <p>
            {result.periodFrom}–{result.periodTo}: {result.created > 0 ? `${invoiceCount(result.created)}, nr ${result.firstNumber}–${result.lastNumber}, att betala ${formatKr(result.amountOre)}.` : `inget nytt; ${invoiceCount(result.existing)} fanns redan.`}
          </p>
          {made && made.total > 0 ? (
            <>
              <RowSearch label="Sök bland körningens fakturor (kundnummer, namn, fakturanummer)" keep={{ resultat: String(result.id) }} list={made} />
              <p>
                <a href={`/admin/invoice/korning/${result.id}/fakturor.xlsx`} className="button" download>
                  {made.total === 1 ? "Exportera fakturan till Excel" : `Exportera alla ${made.total} fakturor till Excel`}
                </a>
              </p>
              <TableOrEmpty empty={made.matching === 0} emptyText="Inga fakturor matchar sökningen." label="Fakturor i körningen">
                <thead>
                  <tr>
                    <th scope="col">Faktura</th>
                    <th scope="col">Kund</th>
                    <th scope="col">Papperstyp</th>
                    <th scope="col" className="num">
                      Att betala
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {made.rows.map((inv) => (
                    <tr key={inv.number}>
                      <td>
                        <a href={`/admin/kunder/${inv.customerId}/faktura/${inv.number}.pdf`} download>
                          {inv.number} (PDF)
                        </a>
                      </td>
                      <td>
                        <Link to={`/admin/kunder/${inv.customerId}`}>
                          {inv.customerId} {inv.name}
                        </Link>
                      </td>
                      <td>{PAPER_TYPE[inv.paperType] ?? `Typ ${inv.paperType}`}</td>
                      <td className="num">{formatKr(inv.amountOre)}</td>
                    </tr>
                  ))}
                </tbody>
              </TableOrEmpty>
              <Pager page={made.page} pages={made.pages} />
            </>
          ) : null}
        </section>
      ) : null}
      <Form method="get" className="card" aria-label="Period">
        <div className="form-row">
          <div className="field">
            <label htmlFor="fran">Från</label>
            <input id="fran" name="fran" type="date" defaultValue={from} required />
          </div>
          <div className="field">
            <label htmlFor="till">Till</label>
            <input id="till" name="till" type="date" defaultValue={to} required aria-invalid={periodError ? true : undefined} aria-describedby={periodError ? "till-error" : undefined} />
            <FieldErrors id="till-error" errors={periodError ? [periodError] : undefined} />
          </div>
        </div>
        <button type="submit" name="granska" value="1">
          Förhandsgranska
        </button>
      </Form>

      {preview ? (
        <section className="card" aria-labelledby="preview">
          <h2 id="preview">
            Förhandsgranskning {preview.from}–{preview.to}
          </h2>
          <p>
            {planned === 1 ? "1 ny faktura" : `${planned} nya fakturor`} till {preview.customers === 1 ? "1 kund" : `${preview.customers ?? 0} kunder`}, att betala {formatKr(total)}.
            {preview.existing > 0 ? ` ${invoiceCount(preview.existing)} för perioden finns redan och lämnas ${preview.existing === 1 ? "orörd" : "orörda"}.` : ""}
          </p>
          <TableOrEmpty empty={preview.perPaperType.length === 0} emptyText="Inget nytt att fakturera för perioden." label="Per papperstyp">
            <thead>
              <tr>
                <th scope="col">Papperstyp</th>
                <th scope="col" className="num">
                  Fakturor
                </th>
                <th scope="col" className="num">
                  Netto
                </th>
                <th scope="col" className="num">
                  Moms
                </th>
                <th scope="col" className="num">
                  Att betala
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.perPaperType.map((t) => (
                <tr key={t.paperType}>
                  <th scope="row">{PAPER_TYPE[t.paperType] ?? `Typ ${t.paperType}`}</th>
                  <td className="num">{t.invoices}</td>
                  <td className="num">{formatKr(t.netOre)}</td>
                  <td className="num">{formatKr(t.vatOre)}</td>
                  <td className="num">{formatKr(t.amountOre)}</td>
                </tr>
              ))}
            </tbody>
          </TableOrEmpty>
          {afterRun && afterRun.lines > 0 ? (
            <p>
              {afterRun.lines === 1 ? "1 rad krediterar" : `${afterRun.lines} rader krediterar`} returer som rapporterats eller ändrats efter tidigare körningar: {formatKr(-afterRun.netOre)} exkl. moms.
            </p>
          ) : null}
          {returnable && returnable.deliveries > 0 && returnable.lastDay ? (
            <div className="notice" role="note" aria-label="Leveranser som fortfarande kan returneras">
              <p>
                {returnable.deliveries === 1 ? "1 leverans" : `${returnable.deliveries} leveranser`} i perioden kan fortfarande returneras, till och med {returnable.lastDay}: {returnable.copies} ex för {formatKr(returnable.valueOre)} exkl. moms. Returer som rapporteras efter körningen krediteras på kundens nästa faktura.
              </p>
            </div>
          ) : null}
          {late.length > 0 ? (
            <div className="notice" role="note" aria-label="Rader från tidigare perioder">
              <p>
                {late.length} extra {late.length === 1 ? "fakturarad är daterad" : "fakturarader är daterade"} före perioden, i en period som redan är fakturerad. {late.length === 1 ? "Den kommer" : "De kommer"} med på fakturorna för {preview.from}–{preview.to}:
              </p>
              <ul>
                {late.map((l, i) => (
                  <li key={i}>
                    {l.customerId} {l.name}: {l.description} (daterad {l.date})
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {invoices && invoices.total > 0 ? (
            <>
              <h3>Fakturorna</h3>
              <RowSearch label="Sök bland fakturorna (kundnummer, namn)" keep={{ fran: preview.from, till: preview.to, granska: "1" }} list={invoices} />
              <TableOrEmpty empty={invoices.matching === 0} emptyText="Inga fakturor matchar sökningen." label="Fakturor i förhandsgranskningen">
                <thead>
                  <tr>
                    <th scope="col">Kund</th>
                    <th scope="col">Papperstyp</th>
                    <th scope="col">Rader</th>
                    <th scope="col" className="num">
                      Att betala
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {invoices.rows.map((inv) => (
                    <tr key={`${inv.customerId}-${inv.paperType}`}>
                      <td>
                        {inv.customerId} {inv.name}
                      </td>
                      <td>{PAPER_TYPE[inv.paperType] ?? `Typ ${inv.paperType}`}</td>
                      <td>
                        <ul className="plain-list">
                          {inv.lines.map((l, i) => (
                            <li key={i}>
                              {l.description}: {l.quantity} × {formatKr(l.unitPriceOre)}
                              {l.kind === "extra" ? " (extra fakturarad)" : l.kind === "order" ? " (beställning)" : ""}
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td className="num">{formatKr(inv.amountOre)}</td>
                    </tr>
                  ))}
                </tbody>
              </TableOrEmpty>
              <Pager page={invoices.page} pages={invoices.pages} />
            </>
          ) : null}
          {planned > 0 ? (
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="fran" value={preview.from} />
              <input type="hidden" name="till" value={preview.to} />
              <button type="submit" className="primary" disabled={running || following}>
                {running ? "Startar körningen …" : `Skapa ${invoiceCount(planned)}`}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <h2>Historik</h2>
      <TableOrEmpty empty={runs.length === 0} emptyText="Inga körningar ännu.">
        <thead>
          <tr>
            <th scope="col">Körd</th>
            <th scope="col">Av</th>
            <th scope="col">Period</th>
            <th scope="col" className="num">
              Fakturor
            </th>
            <th scope="col">Nummer</th>
            <th scope="col" className="num">
              Att betala
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td>
                <Link to={`?resultat=${r.id}`} aria-label={`Körning ${when(r.ranAt)}, ${r.periodFrom}–${r.periodTo}`}>
                  {when(r.ranAt)}
                </Link>
              </td>
              <td>{r.actorName ?? r.actor}</td>
              <td>
                {r.periodFrom}–{r.periodTo}
              </td>
              <td className="num">{r.created}</td>
              <td>{r.firstNumber ? `${r.firstNumber}–${r.lastNumber}` : "–"}</td>
              <td className="num">{formatKr(r.amountOre)}</td>
              <td>{r.status === "running" && r.state === "Pågår" ? <Link to={`?korning=${r.id}`}>{r.state}</Link> : r.state}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

/** A GET search over one of the page's lists, keeping the rest of the view (`keep`), with the count. */
function RowSearch({ label, keep, list }: { label: string; keep: Record<string, string>; list: { search: string; matching: number; total: number; page: number; pages: number } }) {
  const id = `sok-${Object.keys(keep).join("-")}`;
  return (
    <Form method="get" className="filters">
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="form-row">
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input id={id} name="sok" type="search" defaultValue={list.search} />
        </div>
      </div>
      <button type="submit">Sök</button>
      <p>
        {list.matching === list.total ? `${list.total} ${list.total === 1 ? "faktura" : "fakturor"}` : `${list.matching} av ${list.total} fakturor`}
        {list.pages > 1 ? `, sida ${list.page} av ${list.pages}` : ""}.
      </p>
    </Form>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
