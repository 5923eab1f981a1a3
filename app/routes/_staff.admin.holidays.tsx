import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { z } from "~/lib/zod";
import { HolidayCloseSchema, HolidaySaveSchema } from "~/features/holidays";
import { listDistributors } from "~/features/customers/index.server";
import { OpeningHoursCloseSchema, OpeningHoursRequestSchema } from "~/features/opening-hours";
import {
  checkOpeningHoursRequest,
  closeOpeningHoursRequest,
  listOpeningHoursRequests,
  openingHoursRequestQuestion,
  requestOpeningHours,
} from "~/features/opening-hours/index.server";
import { refuse } from "~/lib/refusal";
import { DistributorSelect } from "~/ui/distributor-select";
import type { FormReply } from "~/ui/form-reply";
import { closeHoliday, countHolidayAnswers, getAdminHoliday, listAdminHolidays, listEndedHolidays, saveHoliday } from "~/features/holidays/index.server";
import { askFirst, handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { AskFirst, questionOf } from "~/ui/ask-first";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { SaveActions } from "~/ui/save-actions";
import { StoredNow, VersionInput } from "~/ui/stored-now";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Helgspärr – Returportalen" }];

const HOLIDAYS_SEARCH = { redigera: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const editId = readSearch(request, HOLIDAYS_SEARCH).redigera;
  const editing = editId !== null ? await getAdminHoliday(editId) : null;
  const [holidays, ended, hoursRequests, distributors] = await Promise.all([listAdminHolidays(), listEndedHolidays(), listOpeningHoursRequests(), listDistributors()]);
  return { holidays, ended, editing, hoursRequests, distributors, today: today() };
}

const ActionSchema = z.discriminatedUnion("intent", [HolidaySaveSchema, HolidayCloseSchema, OpeningHoursRequestSchema, OpeningHoursCloseSchema]);

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, ActionSchema, async (v, submission) => {
    switch (v.intent) {
      case "request-hours": {
        checkOpeningHoursRequest(v);
        // Every request reaches many retailers: it says how many and asks first.
        if (!v.confirmed) {
          const question = await openingHoursRequestQuestion(v);
          if (!question) throw refuse.invalid("Välj en distributör i listan.", { fields: { distributorId: "Välj en distributör i listan." } });
          return askFirst(submission, question);
        }
        await requestOpeningHours(v, user.actor);
        return redirectWithToast(request, "/admin/holidays", "Öppettider begärda.");
      }
      case "close-hours": {
        const id = parseId(v.id);
        const ok = id !== null && (await closeOpeningHoursRequest(id, user.actor));
        if (!ok) return redirectWithToast(request, "/admin/holidays", "Begäran om öppettider är redan avslutad.");
        return redirectWithToast(request, "/admin/holidays", "Begäran om öppettider avslutad.");
      }
      case "complete":
      case "delete": {
        const id = parseId(v.id);
        const ok = id !== null && (await closeHoliday(id, v.intent, user.actor));
        // Twice (two tabs, a double press): not an error, what was asked for holds.
        if (!ok) return redirectWithToast(request, "/admin/holidays", "Helgdagen finns inte längre i listan (redan klarmarkerad eller borttagen).");
        if (v.intent === "complete") return redirectWithToast(request, "/admin/holidays", "Helgdagen klarmarkerad.");
        const answered = await countHolidayAnswers(id);
        return redirectWithToast(request, "/admin/holidays", answered > 0 ? `Helgdagen borttagen. Svaren från ${answered} återförsäljare sparas.` : "Helgdagen borttagen.");
      }
      default:
        await saveHoliday(v, user.actor);
        return redirectWithToast(request, "/admin/holidays", "Helgdagen sparad.");
    }
  });
}

// A refused save because someone else changed the holiday (409) shows what is stored now.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

export default function HolidaysAdmin() {
  const { holidays, ended, editing, hoursRequests, distributors, today: day } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const confirming = useConfirming() ?? "";
  const confirmedId = Number(/^(?:klarmarkera|ta-bort)-(\d+)$/.exec(confirming)?.[1]);
  const confirmedHoliday = holidays.find((h) => h.id === confirmedId);
  const coming = holidays.filter((h) => h.day >= day);
  const passed = holidays.filter((h) => h.day < day);
  const confirmed = confirmedHoliday ? { holiday: confirmedHoliday, how: confirming.startsWith("klarmarkera") ? ("complete" as const) : ("delete" as const) } : null;
  const hoursReply = lastResult && "initialValue" in lastResult && (lastResult.initialValue as Record<string, unknown> | undefined)?.intent === "request-hours";
  const [form, fields, { valid }] = useContractForm(HolidaySaveSchema, {
    id: `holiday-${editing?.id ?? "new"}`,
    lastResult: hoursReply ? undefined : lastResult,
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
      {confirmed ? (
        <ConfirmDialog
          title={confirmed.how === "complete" ? "Klarmarkera helgdagen?" : "Ta bort helgdagen?"}
          intent={confirmed.how}
          fields={{ id: confirmed.holiday.id }}
          confirmLabel={confirmed.how === "complete" ? "Klarmarkera" : "Ta bort"}
        >
          <p>
            {confirmed.holiday.description} ({confirmed.holiday.day}){" "}
            {confirmed.how === "complete" ? "markeras som klar och lämnar listan." : "tas bort; återförsäljarna frågas inte längre om den."}
          </p>
          {confirmed.how === "delete" && confirmed.holiday.answered > 0 ? (
            <p>
              {confirmed.holiday.answered} återförsäljare har redan svarat. Svaren sparas och går att läsa under Avslutade helgdagar.
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
      <HolidayTable holidays={coming} empty="Inga aktuella helgdagar." />
      {passed.length > 0 ? (
        <section aria-labelledby="past-holidays">
          <h2 id="past-holidays">Passerade helgdagar</h2>
          <p>Dagen har varit men helgdagen är inte klarmarkerad. Läs svaren och klarmarkera den, så lämnar den listan.</p>
          <HolidayTable holidays={passed} empty="" />
        </section>
      ) : null}
      {ended.length > 0 ? (
        <section aria-labelledby="ended-holidays">
          <h2 id="ended-holidays">Avslutade helgdagar</h2>
          <p>Klarmarkerade och borttagna helgdagar, de senaste {ended.length} med nyaste först. Svaren finns kvar.</p>
          <TableOrEmpty empty={false} emptyText="">
            <thead>
              <tr>
                <th scope="col">Dag</th>
                <th scope="col">Beskrivning</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Har svarat
                </th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {ended.map((h) => (
                <tr key={h.id}>
                  <td className="nowrap">{h.day}</td>
                  <td>{h.description}</td>
                  <td>{h.deleted ? "Borttagen" : "Klarmarkerad"}</td>
                  <td className="num">{h.answered}</td>
                  <td>
                    <Link to={`/admin/holidays/${h.id}/svar`} aria-label={`Svar för ${h.description} ${h.day}`}>
                      Svar
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </TableOrEmpty>
        </section>
      ) : null}
      <OpeningHoursRequests requests={hoursRequests} distributors={distributors} lastResult={hoursReply ? lastResult : undefined} />
    </>
  );
}

type ListedHoliday = { id: number; day: string; description: string; startReportDay: string; startForceReportDay: string; answered: number };

/** The listed holidays of one kind (coming, or passed but not completed), each with its answers and the two ways off the list. */
function HolidayTable({ holidays, empty }: { holidays: ListedHoliday[]; empty: string }) {
  return (
    <TableOrEmpty empty={holidays.length === 0} emptyText={empty}>
      <thead>
        <tr>
          <th>Dag</th>
          <th>Beskrivning</th>
          <th>Start rapportering</th>
          <th>Tvingande från</th>
          <th className="num">Har svarat</th>
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
            <td className="num">{h.answered}</td>
            <td>
              {/* Both take the holiday off the list for good: each asks first. */}
              <span className="inline-actions">
                <Link to={`/admin/holidays/${h.id}/svar`} aria-label={`Svar för ${h.description}`}>
                  Svar
                </Link>
                <ConfirmLink confirm={`klarmarkera-${h.id}`} label="Klarmarkera" ariaLabel={`Klarmarkera ${h.description}`} />
                <ConfirmLink confirm={`ta-bort-${h.id}`} label="Ta bort" ariaLabel={`Ta bort ${h.description}`} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </TableOrEmpty>
  );
}

/**
 * Öppettider: ask the retailers (all, or one distributor's) to report their opening hours.
 * The OPPETTIDER alert reminds them from Start rapportering and locks from Tvingande
 * från until they have saved their hours (docs/decisions/015-opening-hours-and-placard-alerts.md).
 */
function OpeningHoursRequests({
  requests,
  distributors,
  lastResult,
}: {
  requests: { id: number; distributorName: string | null; startReportDay: string; startForceReportDay: string; answered: number; customers: number }[];
  distributors: { id: number; name: string }[];
  lastResult: FormReply | undefined;
}) {
  const question = questionOf(lastResult);
  const [form, fields, { valid }] = useContractForm(OpeningHoursRequestSchema, {
    // Asked, the form shows what was typed; Avbryt brings an empty one.
    id: question ? "opening-hours-request-asked" : "opening-hours-request",
    lastResult,
    // A new form id starts from its defaults, so the asked form's defaults are what was typed.
    defaultValue: question ? (lastResult?.initialValue as Record<string, string> | undefined) : undefined,
  });
  const confirming = useConfirming() ?? "";
  const ending = requests.find((r) => confirming === `avsluta-oppettider-${r.id}`);
  const reach = (name: string | null) => name ?? "Alla distributörer";
  return (
    <section aria-labelledby="opening-hours-title">
      <h2 id="opening-hours-title">Öppettider</h2>
      <p>Be återförsäljarna rapportera sina öppettider. En ny begäran för samma distributör ersätter den som gäller.</p>
      <Form method="post" {...getFormProps(form)} className="card">
        <CsrfInput />
        <input type="hidden" name="intent" value="request-hours" />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <div className="form-row">
          <div className="field">
            {/* Keyed by what was sent: a refused request keeps its distributor. */}
            <DistributorSelect
              key={String(fields.distributorId.initialValue ?? "")}
              id="hours-distributor"
              name="distributorId"
              label="Distributör"
              emptyLabel="Alla distributörer"
              distributors={distributors}
              defaultValue={typeof fields.distributorId.initialValue === "string" ? fields.distributorId.initialValue : null}
            />
            <FieldErrors id={fields.distributorId.errorId} errors={fields.distributorId.errors} />
          </div>
          <Field label="Påminn från" field={fields.startReportDay} type="date" />
          <Field label="Lås från" field={fields.startForceReportDay} type="date" />
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={!valid}>
            Begär öppettider
          </button>
        </div>
        {question ? <AskFirst question={question} cancelTo="/admin/holidays" /> : null}
      </Form>
      {ending ? (
        <ConfirmDialog title="Avsluta begäran om öppettider?" intent="close-hours" fields={{ id: ending.id }} confirmLabel="Avsluta begäran">
          <p>{reach(ending.distributorName)}: återförsäljarna påminns inte längre och låses inte.</p>
        </ConfirmDialog>
      ) : null}
      <TableOrEmpty empty={requests.length === 0} emptyText="Ingen begäran om öppettider gäller.">
        <thead>
          <tr>
            <th>Distributör</th>
            <th>Påminn från</th>
            <th>Lås från</th>
            <th>Svar</th>
            <ActionsHeader />
          </tr>
        </thead>
        <tbody>
          {requests.map((r) => (
            <tr key={r.id}>
              <td>{reach(r.distributorName)}</td>
              <td>{r.startReportDay}</td>
              <td>{r.startForceReportDay}</td>
              <td>
                {r.answered} av {r.customers}
              </td>
              <td>
                <ConfirmLink confirm={`avsluta-oppettider-${r.id}`} label="Avsluta" ariaLabel={`Avsluta begäran om öppettider för ${reach(r.distributorName)}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </section>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
