import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { HolidayError, closeHoliday, getAdminHoliday, listAdminHolidays, saveHoliday } from "~/features/holidays/index.server";
import { Field, FieldErrors } from "~/ui/field";
import { RowAction } from "~/ui/row-action";
import { SaveActions } from "~/ui/save-actions";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Helgspärr – Returportalen" }];

const required = { error: "Obligatorisk." };
const HolidaySchema = z.object({
  id: z.coerce.number().int().positive().optional(),
  description: z.string(required).trim().min(1, "Obligatorisk.").max(100, "Högst 100 tecken."),
  day: z.string(required),
  startReportDay: z.string(required),
  startForceReportDay: z.string(required),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const editId = parseId(new URL(request.url).searchParams.get("redigera"));
  const editing = editId !== null ? await getAdminHoliday(editId) : null;
  return { holidays: await listAdminHolidays(), editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "complete" || intent === "delete") {
    const id = parseId(form.get("id"));
    const ok = id !== null && (await closeHoliday(id, intent, actor));
    if (!ok) throw new Response("Helgdagen finns inte.", { status: 404 });
    return redirectWithToast(request, "/admin/holidays", intent === "complete" ? "Helgdagen klarmarkerad." : "Helgdagen borttagen.");
  }
  const submission = parseWithZod(form, { schema: HolidaySchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await saveHoliday(submission.value, actor);
  } catch (e) {
    if (e instanceof HolidayError) {
      const fieldErrors = Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, [v]]));
      return data(submission.reply({ fieldErrors }), { status: 400 });
    }
    throw e;
  }
  return redirectWithToast(request, "/admin/holidays", "Helgdagen sparad.");
}

export default function HolidaysAdmin() {
  const { holidays, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: `holiday-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing ?? undefined,
    shouldValidate: "onSubmit",
  });
  return (
    <>
      <h1>Helgspärr</h1>
      <section className="card" aria-labelledby="holiday-form-title">
        <h2 id="holiday-form-title">{editing ? "Ändra helgdag" : "Ny helgdag"}</h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <FieldErrors id={form.errorId} errors={form.errors} />
          {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
          <Field label="Beskrivning" field={fields.description} />
          <div className="form-row">
            <Field label="Dag" field={fields.day} type="date" />
            <Field label="Start rapportering" field={fields.startReportDay} type="date" />
            <Field label="Tvingande från" field={fields.startForceReportDay} type="date" />
          </div>
          <SaveActions editing={!!editing}>{editing ? <Link to="/admin/holidays">Avbryt</Link> : null}</SaveActions>
        </Form>
      </section>
      <h2>Aktuella helgdagar</h2>
      <TableOrEmpty empty={holidays.length === 0} emptyText="Inga aktuella helgdagar.">
        <thead>
          <tr>
            <th>Dag</th>
            <th>Beskrivning</th>
            <th>Start rapportering</th>
            <th>Tvingande från</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {holidays.map((h) => (
            <tr key={h.id}>
              <td>{h.day}</td>
              <td>
                <Link to={`?redigera=${h.id}`} aria-label={`Ändra ${h.description}`}>
                  {h.description}
                </Link>
              </td>
              <td>{h.startReportDay}</td>
              <td>{h.startForceReportDay}</td>
              <td>
                <RowAction intent="delete" fields={{ id: h.id }} label="Ta bort" ariaLabel={`Ta bort ${h.description}`} className="inline-actions">
                  <button type="submit" name="intent" value="complete" aria-label={`Klarmarkera ${h.description}`}>
                    Klarmarkera
                  </button>
                </RowAction>
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
