import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { SHORTCUT_INTENT as INTENT, ShortcutActionSchema, ShortcutAddSchema } from "~/features/staff";
import { addShortcut, deleteShortcut, listShortcuts } from "~/features/staff/index.server";
import { replicationState, replicationWarning } from "~/features/operations/index.server";
import { config } from "~/config.server";
import { databaseUrl } from "~/db.server";
import { handleForm, refusalResponse } from "~/http/form.server";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { CustomerNumberForm } from "~/ui/customer-number-form";
import { Field } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { menuFor, staffMenu } from "~/ui/menu";
import { ConfirmAction } from "~/ui/confirm";
import staffStyles from "~/ui/staff-monitoring.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Admin – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const service = menuFor(staffMenu, user.roles).find((m) => m.label === "Kundtjänst");
  // Whether what is saved now would survive the server's disk (decision 039); not for the demo.
  const replication = replicationWarning(config.production && !config.demo, replicationState(config.replica, databaseUrl()));
  return { name: user.name, entries: service?.children ?? [], shortcuts: await listShortcuts(user.staffId), replication };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, ShortcutActionSchema, async (v) => {
    if (v.intent === INTENT.remove) {
      const id = parseId(v.id);
      // Another user's shortcut (or a made-up id) is simply not found.
      if (id === null || !(await deleteShortcut(user.staffId, id, user.actor))) throw refusalResponse(refuse.notFound("Länken finns inte."));
      return redirectWithToast(request, "/admin", "Länken är borttagen.");
    }
    await addShortcut(user.staffId, v, user.actor);
    return redirectWithToast(request, "/admin", "Länken är sparad.");
  });
}

export default function AdminStart() {
  const { name, entries, shortcuts, replication } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields, { valid }] = useContractForm(ShortcutAddSchema, { id: "shortcut", lastResult });
  return (
    <>
      <h1>Admin</h1>
      {replication ? (
        <p className="notice notice-warning">
          <strong>Replikering:</strong> {replication}
        </p>
      ) : null}
      <p>Inloggad som {name}.</p>
      {entries.length > 0 ? (
        <nav aria-label="Kundtjänst">
          <ul className="entry-grid">
            {entries.map((e) => (
              <li key={e.to}>
                <Link to={e.to}>{e.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}

      <section className="card" aria-labelledby="links-title">
        <h2 id="links-title">Länkar</h2>
        {shortcuts.length ? (
          <ul className="shortcut-list">
            {shortcuts.map((s) => (
              <li key={s.id}>
                <a href={s.url} target="_blank" rel="noopener noreferrer">
                  {s.name}
                </a>
                <ConfirmAction
                  confirm={`lank-${s.id}`}
                  label="Ta bort"
                  ariaLabel={`Ta bort ${s.name}`}
                  className="link-button"
                  title="Ta bort länken?"
                  intent={INTENT.remove}
                  fields={{ id: s.id }}
                  confirmLabel="Ta bort länken"
                >
                  <p>
                    {s.name} ({s.url})
                  </p>
                </ConfirmAction>
              </li>
            ))}
          </ul>
        ) : (
          <p>Inga sparade länkar.</p>
        )}
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <Field label="Titel" field={fields.name} />
          <Field label="Länk" field={fields.url} inputProps={{ inputMode: "url", placeholder: "https://" }} />
          <SubmitButton intent={INTENT.add} valid={valid}>
            Lägg till
          </SubmitButton>
        </Form>
      </section>

      <section className="card" aria-labelledby="open-title">
        <h2 id="open-title">Öppna en kunds portal</h2>
        <p>Se och använd portalen som kunden gör. Allt du gör där loggas med ditt personalkonto.</p>
        <CustomerNumberForm action="/admin/kund/oppna" inputId="open-customer" submitLabel="Öppna kundens portal" />
      </section>

      <section className="card" aria-labelledby="logout-title">
        <h2 id="logout-title">Logga ut kund</h2>
        <p>Avslutar alla kundens inloggningar direkt, även de som personal öppnat.</p>
        <CustomerNumberForm action="/admin/kund/logga-ut" inputId="logout-customer" submitLabel="Logga ut kund" />
      </section>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
