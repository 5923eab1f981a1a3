// Kreditera (decision 032): an admin credits one of the customer's issued invoices, whole or
// chosen lines, with a reason; the credit note is made at once and listed here with its PDF.
// Lines already credited show the credit note that took them.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { parseShortNumber } from "~/catalog";
import { customerInScope, customerScope } from "~/features/customers/index.server";
import { CreditInvoiceSchema } from "~/features/invoices";
import { creditInvoice, invoiceForCredit } from "~/features/invoices/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { formatKr, formatOre } from "~/lib/money";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { replyError, replyValue, type FormReply } from "~/ui/form-reply";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Kreditera faktura ${data?.invoice.number ?? ""} – Returportalen` }];

async function load(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const user = await requireStaff(request, context, ["admin"]);
  const customerId = routeParam(params, "kund", parseShortNumber, "Kunden finns inte.");
  const number = routeParam(params, "nummer", parseId, "Fakturan finns inte.");
  if (!(await customerInScope(customerId, customerScope(user)))) throw new Response("Kunden finns inte.", { status: 404 });
  const found = await invoiceForCredit(number, customerId);
  if (!found) throw new Response("Fakturan finns inte.", { status: 404 });
  return { user, customerId, number, found };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { customerId, found } = await load(request, context, params);
  return { customerId, invoice: found.invoice, lines: found.lines, notes: found.notes };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user, customerId, number } = await load(request, context, params);
  return handleForm(request, CreditInvoiceSchema, async (v) => {
    if (v.faktura !== number) throw refuse.invalid("Ogiltig förfrågan.");
    const made = await creditInvoice({ invoiceNumber: number, reason: v.motivering, lineIds: v.rad, actor: user.actor });
    return redirectWithToast(request, `/admin/kunder/${customerId}/kreditera/${number}`, `Kreditfaktura ${made.number} skapad: ${formatKr(made.amountOre)} för faktura ${number}.`);
  });
}

export default function CreditPage() {
  const { customerId, invoice, lines, notes } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const open = lines.filter((l) => l.creditNote === null);
  const error = replyError(reply, "motivering") ?? replyError(reply, "rad") ?? replyError(reply);
  // The boxes as they were sent, when a refusal sends the form back.
  const sent = reply?.initialValue?.rad;
  const chosen = new Set((Array.isArray(sent) ? sent : sent === undefined ? [] : [sent]).map(String));
  return (
    <>
      <p>
        <Link to={`/admin/kunder/${customerId}`}>Tillbaka till kund {customerId}</Link>
      </p>
      <h1>Kreditera faktura {invoice.number}</h1>
      <p>
        Faktura {invoice.number} daterad {invoice.date}, period {invoice.periodFrom}–{invoice.periodTo}, {formatKr(invoice.amountOre)} inkl. moms. Status: {invoice.status}.{" "}
        <a href={`/admin/kunder/${customerId}/faktura/${invoice.number}.pdf`}>Fakturan (PDF)</a>
      </p>
      {notes.length > 0 ? (
        <section aria-labelledby="kreditfakturor">
          <h2 id="kreditfakturor">Kreditfakturor</h2>
          <ul>
            {notes.map((n) => (
              <li key={n.number}>
                <a href={`/admin/kunder/${customerId}/kreditfaktura/${n.number}.pdf`}>Kreditfaktura {n.number}</a> ({n.date}): {formatKr(n.amountOre)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Form method="post" className="card">
        <CsrfInput />
        <input type="hidden" name="faktura" value={invoice.number} />
        <TableOrEmpty empty={lines.length === 0} emptyText="Fakturan har inga rader." label="Fakturans rader">
          <thead>
            <tr>
              <th scope="col">Kreditera</th>
              <th scope="col">Beskrivning</th>
              <th scope="col" className="num">
                Antal
              </th>
              <th scope="col" className="num">
                À-pris
              </th>
              <th scope="col" className="num">
                Moms
              </th>
              <th scope="col" className="num">
                Belopp
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.id}>
                <td>
                  {l.creditNote === null ? (
                    <label className="check">
                      <input type="checkbox" name="rad" value={l.id} defaultChecked={chosen.has(String(l.id))} />
                      <span className="visually-hidden">Kreditera {l.description}</span>
                    </label>
                  ) : (
                    `Kreditfaktura ${l.creditNote}`
                  )}
                </td>
                <td>{l.description}</td>
                <td className="num">{l.quantity}</td>
                <td className="num">{formatOre(l.unitPriceOre)}</td>
                <td className="num">{l.vatPermille / 10} %</td>
                <td className="num">{formatOre(l.netOre)}</td>
              </tr>
            ))}
          </tbody>
        </TableOrEmpty>
        {open.length > 0 ? (
          <>
            <p className="muted">Markera de rader som ska krediteras; utan markering krediteras alla rader som inte redan är krediterade.</p>
            <div className="field">
              <label htmlFor="kreditera-motivering">Orsak</label>
              <input id="kreditera-motivering" name="motivering" type="text" maxLength={500} defaultValue={replyValue(reply, "motivering") ?? ""} aria-invalid={error ? true : undefined} aria-describedby={error ? "kreditera-fel" : undefined} />
              {error ? (
                <div id="kreditera-fel" className="field-error" role="alert">
                  {error}
                </div>
              ) : null}
            </div>
            <div className="actions">
              <button type="submit" className="primary" name="intent" value="kreditera">
                Kreditera
              </button>
            </div>
          </>
        ) : (
          <p>Fakturan är krediterad i sin helhet.</p>
        )}
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
