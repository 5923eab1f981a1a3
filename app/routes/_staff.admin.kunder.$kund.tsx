// One customer: address, distributor, open bundles, latest reports and
// invoices. An admin can edit the details (Ändra uppgifter), issue a new PIN (shown once here, printable as a PIN letter;
// the customer's sessions end), and deactivate or reactivate the customer. A utb user
// sees only their distributor's customers; another's is "not found".
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { listSales } from "~/features/sales/index.server";
import { SalesTitles } from "~/ui/sales-chart";
import { getUserAndSession, requireStaff } from "~/auth/guards.server";
import { commitSession, redirectWithToast } from "~/auth/session.server";
import { paperName, TITLES } from "~/catalog";
import { CustomerActionSchema } from "~/features/customers";
import { customerOverview, customerScope, issueNewPin, sealPinLetterTicket, setCustomerActive } from "~/features/customers/index.server";
import { REMINDER_TEXTS } from "~/features/reminders";
import { getReminderSettings } from "~/features/reminders/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { parseShortNumber } from "~/catalog";
import { stockholmDate } from "~/lib/dates";
import { formatKr } from "~/lib/money";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { CsrfInput } from "~/ui/csrf";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `${data.customer.id} ${data.customer.name}` : "Kund"} – Returportalen` }];

const NOT_FOUND = "Kunden finns inte.";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "kund", parseShortNumber, NOT_FOUND);
  const overview = await customerOverview(id, customerScope(user));
  if (!overview) throw new Response(NOT_FOUND, { status: 404 });
  // The customer's sell-through as the retailer sees it (after the scope check above).
  // Whether the retailer gets e-mail reminders, and the last one sent.
  const [sales, reminders] = await Promise.all([listSales(id), getReminderSettings(id)]);
  return { ...overview, sales, reminders, canChange: user.roles.includes("admin") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "kund", parseShortNumber, NOT_FOUND);
  return handleForm(request, CustomerActionSchema, async (v) => {
    const back = `/admin/kunder/${id}`;
    switch (v.intent) {
      case "ny-pinkod": {
        // Shown once, in this answer only: never stored in the clear, never in a URL or a log.
        // The letter is printed from a sealed ticket in this admin's session, not from the page.
        const pin = await issueNewPin(id, user.actor);
        const { session } = await getUserAndSession(request);
        session.set("pinLetter", sealPinLetterTicket(user.staffId, id, pin));
        return data({ pin }, { headers: { "Set-Cookie": await commitSession(request, session) } });
      }
      case "stang-av": {
        const changed = await setCustomerActive(id, false, user.actor);
        return redirectWithToast(request, back, changed ? "Kunden är avstängd. Den kan inte logga in, och dess inloggningar är avslutade." : "Kunden var redan avstängd.");
      }
      case "aktivera": {
        const changed = await setCustomerActive(id, true, user.actor);
        return redirectWithToast(request, back, changed ? "Kunden är aktiv igen och kan logga in." : "Kunden var redan aktiv.");
      }
    }
  });
}

const titleName = (id: number) => TITLES.find((t) => t.id === id)?.name ?? String(id);

export default function CustomerPage() {
  const { customer: c, openBundles, latestReturns, invoices, sales, reminders, canChange } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { pin?: string } | undefined;
  const confirming = useConfirming();
  return (
    <>
      <p>
        <Link to="/admin/kunder">Kunder</Link>
      </p>
      <h1>
        {c.id} {c.name}
      </h1>
      {c.deactivatedAt ? (
        <p className="notice" role="note">
          Avstängd sedan {stockholmDate(c.deactivatedAt)}: kunden kan inte logga in. Uppgifterna finns kvar.
        </p>
      ) : null}
      {answer?.pin ? (
        <section className="card" aria-labelledby="new-pin" role="status">
          <h2 id="new-pin">Ny pinkod</h2>
          <p>
            Pinkoden visas bara nu: <strong className="pin">{answer.pin}</strong>
          </p>
          <p>Den gamla pinkoden fungerar inte längre, och kundens inloggningar är avslutade.</p>
          <Form method="post" action={`/admin/kunder/${c.id}/pinbrev`} reloadDocument>
            <CsrfInput />
            <button type="submit" className="primary">
              Skriv ut pinkodsbrev (PDF)
            </button>
          </Form>
        </section>
      ) : null}
      <section className="card" aria-labelledby="customer-details">
        <h2 id="customer-details">Uppgifter</h2>
        <dl className="details">
          <dt>Adress</dt>
          <dd>{[c.address, c.coAddress ? `c/o ${c.coAddress}` : "", `${c.zip} ${c.city}`.trim()].filter(Boolean).join(", ") || "–"}</dd>
          <dt>Distributör</dt>
          <dd>{c.distributor}</dd>
          <dt>Kontaktperson</dt>
          <dd>{c.contact || "–"}</dd>
          <dt>Telefon</dt>
          <dd>{c.phone || "–"}</dd>
          <dt>E-post</dt>
          <dd>{c.email || "–"}</dd>
          <dt>Påminnelser</dt>
          <dd>
            {reminders.enabled ? REMINDER_TEXTS.statusOn(reminders.email) : REMINDER_TEXTS.statusOff}
            {reminders.lastSent ? ` ${REMINDER_TEXTS.lastSent(reminders.lastSent.day, reminders.lastSent.email)}` : null}
          </dd>
          <dt>Pinkod</dt>
          <dd>{c.hasPin ? "Satt" : "Ingen pinkod ännu"}</dd>
          <dt>Status</dt>
          <dd>{c.deactivatedAt ? "Avstängd" : "Aktiv"}</dd>
        </dl>
        {canChange ? (
          <div className="actions">
            <Link to={`/admin/kunder/${c.id}/andra`} className="button">
              Ändra uppgifter
            </Link>
            <ConfirmLink confirm="ny-pinkod" label="Ny pinkod" />
            {c.deactivatedAt ? (
              <Form method="post">
                <CsrfInput />
                <button type="submit" name="intent" value="aktivera">
                  Aktivera kunden
                </button>
              </Form>
            ) : (
              <ConfirmLink confirm="stang-av" label="Stäng av kunden" />
            )}
          </div>
        ) : null}
      </section>
      {canChange && confirming === "ny-pinkod" ? (
        <ConfirmDialog title="Ge kunden en ny pinkod?" intent="ny-pinkod" fields={{}} confirmLabel="Ge ny pinkod">
          <p>
            {c.name} får en ny pinkod som visas en gång. Den gamla slutar fungera och kundens inloggningar avslutas.
          </p>
        </ConfirmDialog>
      ) : null}
      {canChange && confirming === "stang-av" && !c.deactivatedAt ? (
        <ConfirmDialog title="Stäng av kunden?" intent="stang-av" fields={{}} confirmLabel="Stäng av">
          <p>{c.name} kan inte logga in förrän kunden aktiveras igen. Inloggningarna avslutas; uppgifterna finns kvar.</p>
        </ConfirmDialog>
      ) : null}

      <h2>Öppna buntar</h2>
      <TableOrEmpty empty={openBundles.length === 0} emptyText="Inga öppna buntar.">
        <thead>
          <tr>
            <th scope="col">Bunt</th>
            <th scope="col">Typ</th>
            <th scope="col" className="num">
              Exemplar
            </th>
          </tr>
        </thead>
        <tbody>
          {openBundles.map((b) => (
            <tr key={b.number}>
              <td>{b.number}</td>
              <td>{b.type === 0 ? "Huvudtidning" : "Bilaga"}</td>
              <td className="num">{b.copies}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>

      <h2>Senaste rapporterna</h2>
      <TableOrEmpty empty={latestReturns.length === 0} emptyText="Inga rapporterade returer.">
        <thead>
          <tr>
            <th scope="col">Leveransdag</th>
            <th scope="col">Tidning</th>
            <th scope="col">Bunt</th>
            <th scope="col" className="num">
              Returer
            </th>
          </tr>
        </thead>
        <tbody>
          {latestReturns.map((r, i) => (
            <tr key={i}>
              <td>{r.deliveryDate}</td>
              <td>{paperName(titleName(r.titleId), r.edition)}</td>
              <td>{r.bundle}</td>
              <td className="num">{r.amount}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>

      <h2>Försäljning</h2>
      {sales.length === 0 ? <p>Inga leveranser de senaste 13 veckorna.</p> : <SalesTitles titles={sales} level={3} />}

      <h2>Fakturor</h2>
      <TableOrEmpty empty={invoices.length === 0} emptyText="Inga fakturor.">
        <thead>
          <tr>
            <th scope="col">Nummer</th>
            <th scope="col">Datum</th>
            <th scope="col">Förfaller</th>
            <th scope="col" className="num">
              Belopp inkl. moms
            </th>
            {canChange ? <th scope="col">Kreditera</th> : null}
          </tr>
        </thead>
        <tbody>
          {invoices.map((inv) => (
            <tr key={inv.number}>
              <td>
                <a href={`/admin/kunder/${c.id}/faktura/${inv.number}.pdf`} download aria-label={`Faktura ${inv.number} (PDF)`}>
                  {inv.number}
                </a>
              </td>
              <td>{inv.date}</td>
              <td>{inv.dueDate}</td>
              <td className="num">{formatKr(inv.netOre + inv.vatOre)}</td>
              {canChange ? (
                <td>
                  <Link to={`/admin/kunder/${c.id}/kreditera/${inv.number}`} aria-label={`Kreditera faktura ${inv.number}`}>
                    Kreditera
                  </Link>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
