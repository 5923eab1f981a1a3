// Fakturakörning (issue 16): an admin runs the invoicing in the browser, as the CLI's
// `invoice run` does. Choose the period, see a dry-run preview (customers, invoices and
// totals per paper type), confirm, and see the result; running the same period twice
// creates nothing new and says so. The history lists every run, from here or the CLI.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { getInvoiceRun, InvoiceRunSchema, listInvoiceRuns, runInvoicing, type InvoiceRunSummary } from "~/features/invoices/index.server";
import { parseForm } from "~/http/form.server";
import { addMonths, endOfMonth, isValidDate, startOfMonth, today } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { isRefusal } from "~/lib/refusal";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Fakturakörning – Returportalen" }];

const PAPER_TYPE = ["Huvudtidningar", "Bilagor"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const url = new URL(request.url);
  const lastMonth = addMonths(startOfMonth(today()), -1);
  const from = url.searchParams.get("fran") ?? lastMonth;
  const to = url.searchParams.get("till") ?? endOfMonth(lastMonth);
  const resultId = parseId(url.searchParams.get("resultat"));
  let preview: InvoiceRunSummary | null = null;
  let periodError: string | null = null;
  if (url.searchParams.has("granska")) {
    if (!isValidDate(from) || !isValidDate(to)) periodError = "Måste ha ett värde";
    else if (from > to) periodError = "Felaktig period";
    else {
      try {
        // The same code as the run, writing nothing.
        preview = await runInvoicing({ from, to, dryRun: true, actor: user.actor });
      } catch (e) {
        if (!isRefusal(e)) throw e;
        periodError = e.message;
      }
    }
  }
  const [runs, result] = await Promise.all([listInvoiceRuns(), resultId !== null ? getInvoiceRun(resultId) : null]);
  return { from, to, preview, periodError, runs, result };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const submission = await parseForm(request, InvoiceRunSchema);
  if (submission.status !== "success") return redirectWithToast(request, "/admin/invoice/korning", "Ange perioden och förhandsgranska först.");
  const { fran, till } = submission.value;
  try {
    const summary = await runInvoicing({ from: fran, to: till, actor: user.actor });
    const message =
      summary.created > 0
        ? `Körningen är klar: ${summary.created} fakturor (nr ${summary.firstNumber}–${summary.lastNumber}).`
        : `Inget nytt att fakturera för ${fran}–${till}: ${summary.existing} fakturor fanns redan.`;
    return redirectWithToast(request, `/admin/invoice/korning?resultat=${summary.runId}`, message);
  } catch (e) {
    if (!isRefusal(e)) throw e;
    return redirectWithToast(request, `/admin/invoice/korning?fran=${fran}&till=${till}&granska=1`, e.message);
  }
}

const when = (ms: number) => new Date(ms).toLocaleString("sv-SE", { timeZone: "Europe/Stockholm" });

export default function InvoiceRunPage() {
  const { from, to, preview, periodError, runs, result } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const running = navigation.state === "submitting" && navigation.formMethod === "POST";
  const planned = preview ? preview.perPaperType.reduce((n, t) => n + t.invoices, 0) : 0;
  const total = preview ? preview.perPaperType.reduce((n, t) => n + t.amountOre, 0) : 0;
  return (
    <>
      <p>
        <Link to="/admin/invoice">Fakturering</Link>
      </p>
      <h1>Fakturakörning</h1>
      {result ? (
        <section className="card" aria-labelledby="run-result">
          <h2 id="run-result">Resultat</h2>
          <p>
            {result.periodFrom}–{result.periodTo}: {result.created > 0 ? `${result.created} fakturor, nr ${result.firstNumber}–${result.lastNumber}, att betala ${formatKr(result.amountOre)}.` : `inget nytt; ${result.existing} fakturor fanns redan.`}
          </p>
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
            {planned} nya fakturor till {preview.customers ?? 0} kunder, att betala {formatKr(total)}.{preview.existing > 0 ? ` ${preview.existing} fakturor för perioden finns redan och lämnas orörda.` : ""}
          </p>
          <TableOrEmpty empty={preview.perPaperType.length === 0} emptyText="Inget nytt att fakturera för perioden.">
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
          {planned > 0 ? (
            <Form method="post">
              <CsrfInput />
              <input type="hidden" name="fran" value={preview.from} />
              <input type="hidden" name="till" value={preview.to} />
              <button type="submit" className="primary" disabled={running}>
                {running ? "Körningen pågår …" : `Skapa ${planned} fakturor`}
              </button>
              <p role="status" aria-live="polite">
                {running ? "Fakturorna skapas. Det kan ta en stund; stäng inte sidan." : ""}
              </p>
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
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td>{when(r.ranAt)}</td>
              <td>{r.actorName ?? r.actor}</td>
              <td>
                {r.periodFrom}–{r.periodTo}
              </td>
              <td className="num">{r.created}</td>
              <td>{r.firstNumber ? `${r.firstNumber}–${r.lastNumber}` : "–"}</td>
              <td className="num">{formatKr(r.amountOre)}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
