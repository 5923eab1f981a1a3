import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { HolidayActionSchema, HolidaySaveSchema } from "~/features/holidays";
import { closeHoliday, getAdminHoliday, listAdminHolidays, saveHoliday } from "~/features/holidays/index.server";
import { handleForm, refusalResponse } from "~/http/form.server";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { RowAction } from "~/ui/row-action";
import { SaveActions } from "~/ui/save-actions";
import { StoredNow, VersionInput } from "~/ui/stored-now";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Helgspärr – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const editId = parseId(new URL(request.url).searchParams.get("redigera"));
  const editing = editId !== null ? await getAdminHoliday(editId) : null;
  return { holidays: await listAdminHolidays(), editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, HolidayActionSchema, async (v) => {
    switch (v.intent) {
      case "complete":
      case "delete": {
        const id = parseId(v.id);
        const ok = id !== null && (await closeHoliday(id, v.intent, user.actor));
        if (!ok) throw refusalResponse(refuse.notFound("Helgdagen finns inte."));
        return redirectWithToast(request, "/admin/holidays", v.intent === "complete" ? "Helgdagen klarmarkerad." : "Helgdagen borttagen.");
      }
      default:
        await saveHoliday(v, user.actor);
        return redirectWithToast(request, "/admin/holidays", "Helgdagen sparad.");
    }
  });
}

// A refused save because someone else changed the holiday (409) shows what is stored now.
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) => actionStatus === 409 || defaultShouldRevalidate;

export default function HolidaysAdmin() {
  const { holidays, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields, { valid }] = useContractForm(HolidaySaveSchema, {
    id: `holiday-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing
      ? { id: String(editing.id), description: editing.description, day: editing.day, startReportDay: editing.startReportDay, startForceReportDay: editing.startForceReportDay }
      : null,
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
          {editing ? <VersionInput version={editing.updatedAt} /> : null}
          {editing ? (
            <StoredNow
              conflict={fields.version.errors}
              rows={[
                ["Beskrivning", editing.description],
                ["Dag", editing.day],
                ["Start rapportering", editing.startReportDay],
                ["Tvingande från", editing.startForceReportDay],
              ]}
            />
          ) : null}
          <Field label="Beskrivning" field={fields.description} />
          <div className="form-row">
            <Field label="Dag" field={fields.day} type="date" />
            <Field label="Start rapportering" field={fields.startReportDay} type="date" />
            <Field label="Tvingande från" field={fields.startForceReportDay} type="date" />
          </div>
          <SaveActions editing={!!editing} valid={valid}>{editing ? <Link to="/admin/holidays">Avbryt</Link> : null}</SaveActions>
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
