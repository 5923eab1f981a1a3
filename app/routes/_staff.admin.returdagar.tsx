// Sista returdag (decision 018): an admin sets the return window per paper
// type and, where a publisher wants another, per edition; and per distributor whether
// returns after the last return day are refused or stored marked late, and whether the
// portal locks the day before. Beside Produkt information in the menu. New windows per
// paper type move every retailer's last return days: the page says how many papers and
// asks before it saves them.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { DeadlineActionSchema, ReturnWindowsSchema } from "~/features/returns";
import { getReturnRules, previewReturnWindows, saveDistributorPolicy, saveEditionReturnDays, saveReturnWindows, type WindowsEffect } from "~/features/returns/index.server";
import { handleForm } from "~/http/form.server";
import { refuse } from "~/lib/refusal";
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
  return handleForm(request, DeadlineActionSchema, async (v) => {
    switch (v.intent) {
      case "windows": {
        // A change that moves retailers' last return days says what it does and asks first.
        if (!v.confirmed) {
          const effect = await previewReturnWindows({ main: v.main, inserts: v.inserts });
          if (effect.changed > 0) return { ask: { ...effect, main: v.main, inserts: v.inserts } };
        }
        await saveReturnWindows({ main: v.main, inserts: v.inserts }, user.actor);
        return redirectWithToast(request, HERE, `Returfönstret sparat: huvudtidningar ${v.main} dagar, bilagor ${v.inserts} dagar.`);
      }
      case "edition": {
        const [titleId, editionId] = v.edition.split(":").map(Number);
        if (!(await saveEditionReturnDays(titleId, editionId, v.days, user.actor))) throw refuse.invalid("Utgåvan finns inte.", { fields: { edition: "Utgåvan finns inte." } });
        return redirectWithToast(request, HERE, v.days === null ? "Utgåvan följer papperstypens returfönster." : `Utgåvans returfönster sparat: ${v.days} dagar.`);
      }
      case "policy": {
        if (!(await saveDistributorPolicy(v.distributor, { lateReturns: v.lateReturns, deadlineLock: v.deadlineLock }, user.actor)))
          throw refuse.invalid("Distributören finns inte.", { fields: { distributor: "Distributören finns inte." } });
        return redirectWithToast(request, HERE, "Distributörens regler för sena returer sparade.");
      }
    }
  });
}

const count = new Intl.NumberFormat("sv-SE");

/** What new windows do to the retailers' papers, said before they are saved: Spara or Avbryt. */
function AskWindows({ ask }: { ask: WindowsEffect & { main: number; inserts: number } }) {
  const parts = [`${count.format(ask.changed)} ${ask.changed === 1 ? "tidning" : "tidningar"} får en ny sista returdag`, `${count.format(ask.nowPassed)} blir passerade i dag`];
  if (ask.reopened > 0) parts.push(`${count.format(ask.reopened)} går att returnera igen`);
  return (
    <section className="card ask" role="alert" aria-labelledby="ask-windows-title">
      <h3 id="ask-windows-title">Spara returfönstret?</h3>
      <p>
        Huvudtidningar {ask.main} dagar, bilagor {ask.inserts} dagar: {parts.join("; ")}. Utgåvor med eget returfönster ändras inte.
      </p>
      <Form method="post" className="actions">
        <CsrfInput />
        <input type="hidden" name="intent" value="windows" />
        <input type="hidden" name="main" value={ask.main} />
        <input type="hidden" name="inserts" value={ask.inserts} />
        <input type="hidden" name="confirmed" value="1" />
        <button type="submit" className="primary">
          Spara ändå
        </button>
        <Link to={HERE}>Avbryt</Link>
      </Form>
    </section>
  );
}

const LATE_LABEL = { reject: "Neka sena returer", accept: "Ta emot och märk som sena" } as const;

export default function ReturnDeadlinesAdmin() {
  const { windows, editions, distributors } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const ask = answer && "ask" in answer ? answer.ask : null;
  const lastResult = answer && !("ask" in answer) ? answer : undefined;
  const intent = (lastResult?.initialValue as Record<string, unknown> | undefined)?.intent;
  const typed = lastResult?.initialValue as Record<string, string | undefined> | undefined;
  const rowError = (key: string) => (lastResult?.error as Record<string, string[] | null> | undefined)?.[key]?.[0];
  const [form, fields, { valid }] = useContractForm(ReturnWindowsSchema, {
    // Asked, the form shows the typed windows; Avbryt brings a fresh one with the stored.
    id: ask ? "return-windows-asked" : "return-windows",
    lastResult: intent === "windows" ? lastResult : null,
    defaultValue: { intent: "windows", main: String(ask?.main ?? windows[0]), inserts: String(ask?.inserts ?? windows[1]) },
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
        </Form>
        {ask ? <AskWindows ask={ask} /> : null}
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
                    <Form method="post" className="inline-field">
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
                    <Form method="post" className="inline-field">
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
      </section>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
