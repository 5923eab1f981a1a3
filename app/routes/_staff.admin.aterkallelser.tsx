// Återkallelser (decision 036): every recall with how many of its shops have acknowledged,
// and, for admin, the form that makes one — the editions of one title and the delivery
// dates it covers, the reason retailers read, what they do, which distributors, and the
// deadline (Stockholm time). A utb user sees the recalls that reach their distributor,
// counted among its shops only.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { titleName } from "~/catalog";
import { listDistributors, listEditions, scopeFor } from "~/features/distribution/index.server";
import { NewRecallSchema, RECALL_ACTION_TEXT, RECALL_ACTIONS, recallHeading } from "~/features/recalls";
import { createRecall, kickRecallMails, listRecalls } from "~/features/recalls/index.server";
import { handleForm } from "~/http/form.server";
import { stockholmTime, today } from "~/lib/dates";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import type { FormReply } from "~/ui/form-reply";
import { RecallName } from "~/ui/recall-heading";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Återkallelser – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const canCreate = user.roles.includes("admin");
  const [recalls, editions, distributors] = await Promise.all([listRecalls(scopeFor(user)), canCreate ? listEditions() : [], canCreate ? listDistributors({ distributorIds: null }) : []]);
  return {
    canCreate,
    today: today(),
    editions: editions.map((e) => ({ value: `${e.titleId}:${e.editionId}`, label: recallHeading({ id: 0, titleId: e.titleId, editions: [e], dateFrom: "", dateTo: "" }).replace(/^Återkallelse 0: /, "").replace(/, $/, ""), title: titleName(e.titleId) ?? `Titel ${e.titleId}` })),
    distributors,
    recalls: recalls.map((r) => ({ ...r, heading: recallHeading(r), deadline: stockholmTime(r.deadlineAt).slice(0, 16) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, NewRecallSchema, async (v) => {
    const [titleId] = v.utgavor[0].split(":").map(Number);
    const { id, customers } = await createRecall(
      {
        titleId,
        editionIds: v.utgavor.map((u) => Number(u.split(":")[1])),
        from: v.fran,
        to: v.till,
        reason: v.orsak,
        action: v.atgard,
        distributorIds: v.omfattning === "alla" ? null : v.distributorer,
        deadlineDate: v.senastDatum,
        deadlineTime: v.senastTid,
      },
      user.actor,
    );
    // The mails go out now, while the admin reads the follow-up (the server's job retries).
    kickRecallMails();
    return redirectWithToast(request, `/admin/aterkallelser/${id}`, `Återkallelse ${id} är skapad och når ${customers} ${customers === 1 ? "kund" : "kunder"}.`);
  });
}

export default function RecallsPage() {
  const { canCreate, recalls } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Återkallelser</h1>
      <TableOrEmpty empty={recalls.length === 0} emptyText="Inga återkallelser.">
        <caption className="visually-hidden">Återkallelser, senaste först</caption>
        <thead>
          <tr>
            <th scope="col">Återkallelse</th>
            <th scope="col">Senast</th>
            <th scope="col" className="num">
              Kunder
            </th>
            <th scope="col" className="num">
              Bekräftat
            </th>
            <th scope="col" className="num">
              Borttagna ex
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {recalls.map((r) => (
            <tr key={r.id}>
              <td>
                <Link to={`/admin/aterkallelser/${r.id}`}>
                  <RecallName recall={r} />
                </Link>
              </td>
              <td className="nowrap">{r.deadline}</td>
              <td className="num">{r.affected}</td>
              <td className="num">{r.acknowledged}</td>
              <td className="num">{r.removed}</td>
              <td>{r.endedAt !== null ? "Avslutad" : r.acknowledged === r.affected ? "Alla har bekräftat" : `${r.affected - r.acknowledged} väntar`}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      {canCreate ? <NewRecall /> : null}
    </>
  );
}

function NewRecall() {
  const { editions, distributors, today: t } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const [form, fields] = useContractForm(NewRecallSchema, { id: "new-recall", lastResult: reply ?? null, defaultValue: { intent: "skapa", fran: t, till: t, senastDatum: t, omfattning: "alla" } });
  const chosen = new Set([fields.utgavor.initialValue ?? []].flat());
  const chosenDistributors = new Set([fields.distributorer.initialValue ?? []].flat());
  const titles = [...new Set(editions.map((e) => e.title))];
  return (
    <section aria-labelledby="new-recall-heading">
      <h2 id="new-recall-heading">Ny återkallelse</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="skapa" />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <fieldset aria-describedby={fields.utgavor.errors ? fields.utgavor.errorId : undefined}>
          <legend>Utgåvor (en titel)</legend>
          {titles.map((title) => (
            <div key={title} className="checkbox-group">
              {editions
                .filter((e) => e.title === title)
                .map((e) => (
                  <div key={e.value} className="field checkbox">
                    <input type="checkbox" id={`utgava-${e.value}`} name="utgavor" value={e.value} defaultChecked={chosen.has(e.value)} />
                    <label htmlFor={`utgava-${e.value}`}>{e.label}</label>
                  </div>
                ))}
            </div>
          ))}
          <FieldErrors id={fields.utgavor.errorId} errors={fields.utgavor.errors} />
        </fieldset>
        <div className="field-row">
          <Field label="Utgivningsdag från" field={fields.fran} type="date" />
          <Field label="Utgivningsdag till" field={fields.till} type="date" />
        </div>
        <div className="field">
          <label htmlFor={fields.orsak.id}>Orsak (visas för återförsäljarna)</label>
          <textarea id={fields.orsak.id} name={fields.orsak.name} defaultValue={fields.orsak.initialValue} rows={3} maxLength={1000} aria-invalid={fields.orsak.errors ? true : undefined} aria-describedby={fields.orsak.errors ? fields.orsak.errorId : undefined} />
          <FieldErrors id={fields.orsak.errorId} errors={fields.orsak.errors} />
        </div>
        <fieldset aria-describedby={fields.atgard.errors ? fields.atgard.errorId : undefined}>
          <legend>Vad återförsäljarna ska göra</legend>
          {RECALL_ACTIONS.map((a) => (
            <div key={a} className="field checkbox">
              <input type="radio" id={`atgard-${a}`} name="atgard" value={a} defaultChecked={fields.atgard.initialValue === a} />
              <label htmlFor={`atgard-${a}`}>{RECALL_ACTION_TEXT[a]}</label>
            </div>
          ))}
          <FieldErrors id={fields.atgard.errorId} errors={fields.atgard.errors} />
        </fieldset>
        <fieldset aria-describedby={fields.distributorer.errors ? fields.distributorer.errorId : undefined}>
          <legend>Distributörer</legend>
          <div className="field checkbox">
            <input type="radio" id="omfattning-alla" name="omfattning" value="alla" defaultChecked={fields.omfattning.initialValue !== "valda"} />
            <label htmlFor="omfattning-alla">Alla distributörer</label>
          </div>
          <div className="field checkbox">
            <input type="radio" id="omfattning-valda" name="omfattning" value="valda" defaultChecked={fields.omfattning.initialValue === "valda"} />
            <label htmlFor="omfattning-valda">Bara de valda nedan</label>
          </div>
          {distributors.map((d) => (
            <div key={d.id} className="field checkbox">
              <input type="checkbox" id={`distributor-${d.id}`} name="distributorer" value={d.id} defaultChecked={chosenDistributors.has(String(d.id))} />
              <label htmlFor={`distributor-${d.id}`}>{d.name}</label>
            </div>
          ))}
          <FieldErrors id={fields.distributorer.errorId} errors={fields.distributorer.errors} />
        </fieldset>
        <div className="field-row">
          <Field label="Sista dag" field={fields.senastDatum} type="date" />
          <Field label="Klockan (svensk tid)" field={fields.senastTid} hint="TT:MM, t.ex. 12:00" inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
        </div>
        <SubmitButton>Skapa återkallelse</SubmitButton>
      </Form>
    </section>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
