// Återkallelser (decision 036): the recalls that reach this shop. One not yet acknowledged
// locks the portal (the alert ATERKALLELSE) until the retailer says how many copies were
// taken off the shelf ("Antal borttagna ex", or "Jag har inga kvar") and presses Bekräfta.
// Acknowledged ones stay listed with their deadline.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { AcknowledgeRecallSchema, RECALL_ACTION_TEXT, recallHeading } from "~/features/recalls";
import { acknowledgeRecall, customerRecalls, type CustomerRecall } from "~/features/recalls/index.server";
import { handleForm } from "~/http/form.server";
import { stockholmTime } from "~/lib/dates";
import { CsrfInput } from "~/ui/csrf";
import { replyError, replyValue } from "~/ui/form-reply";
import { RecallName } from "~/ui/recall-heading";

export const meta: MetaFunction = () => [{ title: "Återkallelser – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const recalls = await customerRecalls(user.customerId);
  return {
    recalls: recalls.map((r) => ({ ...r, heading: recallHeading(r), deadline: stockholmTime(r.deadlineAt).slice(0, 16), acknowledged: r.acknowledgedAt === null ? null : stockholmTime(r.acknowledgedAt).slice(0, 16) })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRetailer(request, context);
  return handleForm(request, AcknowledgeRecallSchema, async (v) => {
    const removed = v.ingaKvar ? 0 : (v.antal ?? 0);
    await acknowledgeRecall(user.customerId, v.aterkallelse, removed, user.actor);
    return redirectWithToast(request, "/aterkallelser", `Återkallelse ${v.aterkallelse} är bekräftad: ${removed} ex borttagna.`);
  });
}

type Shown = ReturnType<typeof useLoaderData<typeof loader>>["recalls"][number];

export default function RecallsPage() {
  const { recalls } = useLoaderData<typeof loader>();
  const open = recalls.filter((r) => r.acknowledgedAt === null && r.endedAt === null);
  const done = recalls.filter((r) => r.acknowledgedAt !== null || r.endedAt !== null);
  return (
    <>
      <h1>Återkallelser</h1>
      <p className="intro">
        När en tidning återkallas ska den bort från hyllan direkt. Bekräfta här hur många exemplar du tog bort. Portalen är låst tills varje återkallelse är bekräftad.
      </p>
      {recalls.length === 0 ? <p>Du har inga återkallelser.</p> : null}
      {open.map((r) => (
        <OpenRecall key={r.id} recall={r} />
      ))}
      {done.length > 0 ? (
        <section aria-labelledby="recalls-done">
          <h2 id="recalls-done">Bekräftade och avslutade</h2>
          <ul className="plain-list">
            {done.map((r) => (
              <li key={r.id} className="card">
                <h3>
                  <RecallName recall={r} />
                </h3>
                <p>{r.reason}</p>
                <p>
                  {RECALL_ACTION_TEXT[r.action]}, senast {r.deadline}.
                </p>
                <p>{r.acknowledged !== null ? `Bekräftad ${r.acknowledged}: ${r.removedCopies ?? 0} ex borttagna.` : "Avslutad av distributören."}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function OpenRecall({ recall: r }: { recall: Shown }) {
  // The server's schema checks the answer and says why in Swedish, with or without
  // JavaScript; no form library in the page keeps it in the retailer pages' budget.
  const answer = useActionData<typeof action>();
  const reply = replyValue(answer, "aterkallelse") === String(r.id) ? answer : undefined;
  const error = replyError(reply, "antal") ?? replyError(reply);
  const id = `recall-${r.id}`;
  return (
    <section className="card recall" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        <RecallName recall={r} />
      </h2>
      <p>
        <strong>{r.reason}</strong>
      </p>
      <dl className="facts">
        <dt>Gör så här</dt>
        <dd>{RECALL_ACTION_TEXT[r.action as CustomerRecall["action"]]}</dd>
        <dt>Senast</dt>
        <dd>{r.deadline}</dd>
        <dt>Levererat till dig</dt>
        <dd>{r.delivered} ex</dd>
      </dl>
      <Form method="post" noValidate>
        <CsrfInput />
        <input type="hidden" name="aterkallelse" value={r.id} />
        <div className="field">
          <label htmlFor={`${id}-antal`}>Antal borttagna ex</label>
          <input
            id={`${id}-antal`}
            name="antal"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={replyValue(reply, "antal") ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error ? (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="field checkbox">
          <input type="checkbox" id={`${id}-inga`} name="ingaKvar" value="on" defaultChecked={replyValue(reply, "ingaKvar") === "on"} />
          <label htmlFor={`${id}-inga`}>Jag har inga kvar</label>
        </div>
        <button type="submit" className="primary">
          Bekräfta
        </button>
      </Form>
    </section>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
