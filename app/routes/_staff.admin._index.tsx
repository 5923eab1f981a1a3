import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { SHORTCUT_URL } from "~/features/staff";
import { addShortcut, deleteShortcut, listShortcuts } from "~/features/staff/index.server";
import { CustomerNumberForm } from "~/ui/customer-number-form";
import { Field } from "~/ui/field";
import { menuFor, staffMenu } from "~/ui/menu";
import { RowAction } from "~/ui/row-action";
import staffStyles from "~/ui/staff-monitoring.css?url";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: staffStyles }];

export const meta: MetaFunction = () => [{ title: "Admin – Returportalen" }];

const ShortcutSchema = z.object({
  name: z.string({ error: "Required." }).trim().min(1, "Required.").max(100),
  url: z.string({ error: "Invalid Url Format!!" }).trim().max(2000).regex(SHORTCUT_URL, "Invalid Url Format!!"),
});

const INTENT = { add: "add-shortcut", remove: "delete-shortcut" } as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const service = menuFor(staffMenu, user.roles).find((m) => m.label === "Kundtjänst");
  return { name: user.name, entries: service?.children ?? [], shortcuts: await listShortcuts(user.staffId) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const form = await request.formData();
  const meta = user.actor;
  if (form.get("intent") === INTENT.remove) {
    const id = parseId(form.get("id"));
    // Another user's shortcut (or a made-up id) is simply not found.
    if (id === null || !(await deleteShortcut(user.staffId, id, meta))) throw new Response("Länken finns inte.", { status: 404 });
    return redirectWithToast(request, "/admin", "Länken är borttagen.");
  }
  const submission = parseWithZod(form, { schema: ShortcutSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await addShortcut(user.staffId, submission.value, meta);
  return redirectWithToast(request, "/admin", "Länken är sparad.");
}

export default function AdminStart() {
  const { name, entries, shortcuts } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "shortcut",
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ShortcutSchema }),
  });
  return (
    <>
      <h1>Admin</h1>
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
                <RowAction intent={INTENT.remove} fields={{ id: s.id }} label="Ta bort" ariaLabel={`Ta bort ${s.name}`} className="inline-form" buttonClassName="link-button" />
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
          <button type="submit" name="intent" value={INTENT.add} className="primary">
            Lägg till
          </button>
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
