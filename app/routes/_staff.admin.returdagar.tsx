// Sista returdag (decision 018): an admin sets the return window per paper
// type and, where a publisher wants another, per edition; and per distributor whether
// returns after the last return day are refused or stored marked late, and whether the
// portal locks the day before. Beside Produkt information in the menu. New windows and a
// distributor's new rule move or lock retailers' papers: the page says how many and asks
// before it saves them (decision 029).
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { DeadlineActionSchema, ReturnWindowsSchema } from "~/features/returns";
import {
  distributorPolicyReach,
  editionDescription,
  editionQuestion,
  getReturnRules,
  policyQuestion,
  previewEditionReturnDays,
  previewReturnWindows,
  saveDistributorPolicy,
  saveEditionReturnDays,
  saveReturnWindows,
  windowsQuestion,
} from "~/features/returns/index.server";
import { askFirst, handleForm } from "~/http/form.server";
import { refuse } from "~/lib/refusal";
import { AskFirst, AskFirstForm, questionOf } from "~/ui/ask-first";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Sista returdag – Returportalen" }];

const HERE = "/admin/returdagar";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  return getReturnRules();
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, DeadlineActionSchema, async (v, submission) => {
    // A change that moves or locks retailers' papers says what it does and asks first.
    switch (v.intent) {
      case "windows": {
        const question = v.confirmed ? null : windowsQuestion(await previewReturnWindows({ main: v.main, inserts: v.inserts }), v);
        if (question) return askFirst(submission, question);
        await saveReturnWindows({ main: v.main, inserts: v.inserts }, user.actor);
        return redirectWithToast(request, HERE, `Returfönstret sparat: huvudtidningar ${v.main} dagar, bilagor ${v.inserts} dagar.`);
      }
      case "edition": {
        const [titleId, editionId] = v.edition.split(":").map(Number);
        const gone = refuse.invalid("Utgåvan finns inte.", { fields: { edition: "Utgåvan finns inte." } });
        if (!v.confirmed) {
          const description = await editionDescription(titleId, editionId);
          if (description === null) throw gone;
          const question = editionQuestion(await previewEditionReturnDays(titleId, editionId, v.days), description, v.days);
          if (question) return askFirst(submission, question);
        }
        if (!(await saveEditionReturnDays(titleId, editionId, v.days, user.actor))) throw gone;
        return redirectWithToast(request, HERE, v.days === null ? "Utgåvan följer papperstypens returfönster." : `Utgåvans returfönster sparat: ${v.days} dagar.`);
      }
      case "policy": {
        const gone = refuse.invalid("Distributören finns inte.", { fields: { distributor: "Distributören finns inte." } });
        const input = { lateReturns: v.lateReturns, deadlineLock: v.deadlineLock };
        if (!v.confirmed) {
          const reach = await distributorPolicyReach(v.distributor);
          if (!reach) throw gone;
          const question = policyQuestion(reach, input);
          if (question) return askFirst(submission, question);
        }
        if (!(await saveDistributorPolicy(v.distributor, input, user.actor))) throw gone;
        return redirectWithToast(request, HERE, "Distributörens regler för sena returer sparade.");
      }
    }
  });
}

const LATE_LABEL = { reject: "Neka sena returer", accept: "Ta emot och märk som sena" } as const;

export default function ReturnDeadlinesAdmin() {
  const { windows, editions, distributors } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const question = questionOf(lastResult);
  const intent = (lastResult?.initialValue as Record<string, unknown> | undefined)?.intent;
  const typed = lastResult?.initialValue as Record<string, string | undefined> | undefined;
  const rowError = (key: string) => (lastResult?.error as Record<string, string[] | null> | undefined)?.[key]?.[0];
  const asked = question ? intent : null;
  const [form, fields, { valid }] = useContractForm(ReturnWindowsSchema, {
    // Asked, the form shows the typed windows; Avbryt brings a fresh one with the stored.
    id: asked === "windows" ? "return-windows-asked" : "return-windows",
    lastResult: intent === "windows" ? lastResult : null,
    // A new form id starts from its defaults, so the asked form's defaults are what was typed.
    defaultValue: asked === "windows" ? { intent: "windows", main: typed?.main, inserts: typed?.inserts } : { intent: "windows", main: String(windows[0]), inserts: String(windows[1]) },
  });
  return (
    <>
      <h1>Sista returdag</h1>
      <p>Sista returdag är leveransdagen plus returfönstret. Returformuläret visar den på varje rad, och efter den gäller distributörens regel nedan.</p>
      <section className="card" aria-labelledby="windows-title">
        <h2 id="windows-title">Returfönster per papperstyp</h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <input type="hidden" name="intent" value="windows" />
          <FieldErrors id={form.errorId} errors={form.errors} />
          <div className="form-row">
            <Field label="Huvudtidningar, dagar" field={fields.main} inputProps={{ inputMode: "numeric", size: 3 }} hint="1–14" />
            <Field label="Bilagor, dagar" field={fields.inserts} inputProps={{ inputMode: "numeric", size: 3 }} hint="1–14" />
          </div>
          <SubmitButton valid={valid}>Spara returfönster</SubmitButton>
          {question && asked === "windows" ? <AskFirst question={question} cancelTo={HERE} /> : null}
        </Form>
      </section>

      <section aria-labelledby="editions-title">
        <h2 id="editions-title">Returfönster per utgåva</h2>
        <p>Tomt: utgåvan följer sin papperstyp.</p>
        <TableOrEmpty empty={editions.length === 0} emptyText="Inga utgåvor.">
          <thead>
            <tr>
              <th scope="col">Titel</th>
              <th scope="col">Utgåva</th>
              <th scope="col">Typ</th>
              <th scope="col">Returfönster</th>
            </tr>
          </thead>
          <tbody>
            {editions.map((e) => {
              const key = `${e.titleId}:${e.editionId}`;
              const mine = intent === "edition" && typed?.edition === key;
              const error = mine ? rowError("days") ?? rowError("edition") : undefined;
              const id = `days-${e.titleId}-${e.editionId}`;
              return (
                <tr key={key}>
                  <td data-label="Titel">{e.title}</td>
                  <td data-label="Utgåva">{e.description}</td>
                  <td data-label="Typ">{e.type === 1 ? "Bilaga" : "Huvudtidning"}</td>
                  <td>
                    {/* Keyed: after Avbryt the stored window shows again, not the typed one. */}
                    <Form method="post" className="inline-field" key={mine ? "typed" : "stored"}>
                      <CsrfInput />
                      <input type="hidden" name="intent" value="edition" />
                      <input type="hidden" name="edition" value={key} />
                      <div className="field compact">
                        <label htmlFor={id}>Dagar för {e.description}</label>
                        <input
                          id={id}
                          name="days"
                          inputMode="numeric"
                          size={3}
                          defaultValue={mine ? (typed?.days ?? "") : (e.returnDays?.toString() ?? "")}
                          placeholder={String(windows[e.type === 1 ? 1 : 0])}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${id}-error` : undefined}
                        />
                        {error ? (
                          <div id={`${id}-error`} className="field-error" role="alert">
                            {error}
                          </div>
                        ) : null}
                      </div>
                      <button type="submit">
                        Spara<span className="visually-hidden"> returfönster för {e.description}</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </TableOrEmpty>
        {question && asked === "edition" && typed?.edition ? (
          <AskFirstForm question={question} cancelTo={HERE} fields={{ intent: "edition", edition: typed.edition, days: typed.days ?? "" }} />
        ) : null}
      </section>

      <section aria-labelledby="policy-title">
        <h2 id="policy-title">Sena returer per distributör</h2>
        <TableOrEmpty empty={distributors.length === 0} emptyText="Inga distributörer.">
          <thead>
            <tr>
              <th scope="col">Distributör</th>
              <th scope="col">Regel</th>
            </tr>
          </thead>
          <tbody>
            {distributors.map((d) => {
              const mine = intent === "policy" && typed?.distributor === String(d.id);
              const error = mine ? rowError("lateReturns") ?? rowError("distributor") : undefined;
              const policy = mine && (typed?.lateReturns === "accept" || typed?.lateReturns === "reject") ? typed.lateReturns : d.lateReturns;
              return (
                <tr key={d.id}>
                  <td data-label="Distributör">
                    {d.id} {d.name}
                  </td>
                  <td>
                    <Form method="post" className="inline-field" key={mine ? "typed" : "stored"}>
                      <CsrfInput />
                      <input type="hidden" name="intent" value="policy" />
                      <input type="hidden" name="distributor" value={d.id} />
                      <fieldset className="plain">
                        <legend>Efter sista returdag för {d.name}</legend>
                        {(["reject", "accept"] as const).map((p) => (
                          <label key={p} className="check">
                            <input type="radio" name="lateReturns" value={p} defaultChecked={policy === p} /> {LATE_LABEL[p]}
                          </label>
                        ))}
                      </fieldset>
                      <label className="check">
                        <input type="checkbox" name="deadlineLock" defaultChecked={mine ? typed?.deadlineLock === "on" : d.deadlineLock} /> Lås portalen dagen före sista returdag
                        <span className="visually-hidden"> för {d.name}</span>
                      </label>
                      {error ? (
                        <div className="field-error" role="alert">
                          {error}
                        </div>
                      ) : null}
                      <button type="submit">
                        Spara<span className="visually-hidden"> regler för {d.name}</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </TableOrEmpty>
        {question && asked === "policy" && typed?.distributor ? (
          <AskFirstForm
            question={question}
            cancelTo={HERE}
            fields={{ intent: "policy", distributor: typed.distributor, lateReturns: typed.lateReturns ?? "", ...(typed.deadlineLock === "on" ? { deadlineLock: "on" } : {}) }}
          />
        ) : null}
      </section>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
