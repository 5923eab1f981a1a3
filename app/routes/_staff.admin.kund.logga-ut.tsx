// 'Logga ut kund': an admin ends every session of a retailer on the server (a lost
// phone, a PIN that leaked). The form sits on the admin start page; this page shows it
// again with the error next to the field when the input is wrong.
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, data, useActionData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { revokeCustomerSessions } from "~/domain/sessions.server";
import { requestInfo } from "~/request-context.server";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Logga ut kund – Returportalen" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, ["admin"]);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStaff(request, ["admin"]);
  const form = await request.formData();
  const text = String(form.get("kundnummer") ?? "").trim();
  if (!/^\d{1,5}$/.test(text)) return data({ kundnummer: text, error: "Ange ett kundnummer (1–5 siffror)." }, { status: 400 });
  const ended = await revokeCustomerSessions(user.staffId, Number(text), requestInfo());
  if (ended === null) return data({ kundnummer: text, error: `Kund ${text} finns inte.` }, { status: 400 });
  return redirectWithToast(request, "/admin", `Kund ${text} är utloggad (${ended} ${ended === 1 ? "session" : "sessioner"} avslutade).`);
}

function EndCustomerSessionsForm(props: { kundnummer?: string; error?: string }) {
  return (
    <Form method="post" action="/admin/kund/logga-ut">
      <div className="field">
        <label htmlFor="logout-customer">Kundnummer</label>
        <input
          id="logout-customer"
          name="kundnummer"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={props.kundnummer}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? "logout-customer-error" : undefined}
        />
        {props.error ? (
          <div id="logout-customer-error" className="field-error" role="alert">
            {props.error}
          </div>
        ) : null}
      </div>
      <button type="submit">Logga ut kund</button>
    </Form>
  );
}

export default function EndCustomerSessions() {
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Logga ut kund</h1>
      <p>Avslutar alla kundens inloggningar direkt, även de som personal öppnat.</p>
      <EndCustomerSessionsForm kundnummer={result?.kundnummer} error={result?.error} />
    </>
  );
}
