// One request for changed deliveries (decision 037): what the shop asked, its figures'
// suggestion, and the decision — Godkänn, Justera (Nytt antal, Anledning) or Avslå
// (Anledning). Admin, sales and utb decide (utb their own distributor's customers);
// another distributor's request is answered like an unknown one.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { scopeFor } from "~/features/distribution/index.server";
import { SUPPLY_TEXTS, SupplyDecisionSchema, supplyStatusText, supplyWhen } from "~/features/supply";
import { decideSupplyChanges, staffSupplyChange } from "~/features/supply/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { stockholmTime } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import type { FormReply } from "~/ui/form-reply";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Ändring ${data?.change.id ?? ""} – Returportalen` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", parseId, "Ändringen finns inte.");
  const change = await staffSupplyChange(id, scopeFor(user));
  if (!change) throw new Response(SUPPLY_TEXTS.notFound(id), { status: 404 });
  return { change, sentAt: stockholmTime(change.createdAt).slice(0, 16), cutoff: stockholmTime(change.cutoffAt).slice(0, 16) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", parseId, "Ändringen finns inte.");
  return handleForm(request, SupplyDecisionSchema, async (v) => {
    if (v.andring !== id) throw refuse.invalid("Ogiltig förfrågan.");
    const decision =
      v.beslut === "godkann" ? ({ decision: "approve" } as const) : v.beslut === "justera" ? ({ decision: "adjust", copies: v.antal ?? 0, reason: v.anledning ?? "" } as const) : ({ decision: "reject", reason: v.anledning ?? "" } as const);
    await decideSupplyChanges([id], decision, scopeFor(user), { actor: user.actor, email: user.email });
    const said = v.beslut === "godkann" ? "godkänd" : v.beslut === "justera" ? `justerad till ${v.antal} ex` : "avslagen";
    return redirectWithToast(request, `/admin/leveransandringar/${id}`, `Ändring ${id} ${said}.`);
  });
}

export default function SupplyChangePage() {
  const { change: c, sentAt, cutoff } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const [form, fields, { valid }] = useContractForm(SupplyDecisionSchema, { id: `supply-${c.id}`, lastResult: reply ?? null });
  return (
    <>
      <p>
        <Link to="/admin/leveransandringar">Tillbaka till Leveransändringar</Link>
      </p>
      <h1>
        Ändring {c.id} – {supplyStatusText(c)}
      </h1>
      <dl className="facts">
        <dt>Kund</dt>
        <dd>
          {c.customerId} {c.customerName}
        </dd>
        <dt>Tidning</dt>
        <dd>{c.paper}</dd>
        <dt>När</dt>
        <dd>{supplyWhen(c)}</dd>
        <dt>Brukar få</dt>
        <dd>{c.oldCopies} ex</dd>
        <dt>{c.origin === "staff" ? "Föreslaget" : "Önskat"}</dt>
        <dd>{c.requested} ex</dd>
        {c.suggestion ? (
          <>
            <dt>Portalens förslag</dt>
            <dd>{c.suggestion}</dd>
          </>
        ) : null}
        <dt>{c.origin === "staff" ? "Föreslagen" : "Skickad"}</dt>
        <dd>{sentAt}</dd>
        <dt>Brytpunkt</dt>
        <dd>
          {cutoff}
          {c.late ? <span className="late-note"> Ej beslutad före brytpunkten</span> : null}
          {c.notDone ? <span className="late-note"> Ej genomförd</span> : null}
        </dd>
        {c.decidedBy ? (
          <>
            <dt>{c.origin === "staff" ? "Föreslagen av" : "Beslutad av"}</dt>
            <dd>{c.decidedBy}</dd>
          </>
        ) : null}
      </dl>
      {c.status !== "sent" && reply?.error ? (
        // Someone decided it first: what was sent is not stored, and says so.
        <p className="field-error" role="alert">
          {Object.values(reply.error).flat()[0]}
        </p>
      ) : null}
      {c.status === "sent" ? (
        <section className="card" aria-labelledby="beslut">
          <h2 id="beslut">Beslut</h2>
          <Form method="post" {...getFormProps(form)}>
            <CsrfInput />
            <input type="hidden" name="andring" value={c.id} />
            <FieldErrors id={form.errorId} errors={form.errors} />
            <fieldset className="plain" aria-describedby={fields.beslut.errors ? fields.beslut.errorId : undefined}>
              <legend>Beslut för ändring {c.id}</legend>
              {(
                [
                  ["godkann", `Godkänn (${c.requested} ex)`],
                  ["justera", "Justera"],
                  ["avsla", "Avslå"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="check">
                  <input type="radio" name={fields.beslut.name} value={value} defaultChecked={fields.beslut.initialValue === value} /> {label}
                </label>
              ))}
              <FieldErrors id={fields.beslut.errorId} errors={fields.beslut.errors} />
            </fieldset>
            <Field label="Nytt antal (vid Justera)" field={fields.antal} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
            <Field label="Anledning (krävs vid Justera och Avslå)" field={fields.anledning} />
            <SubmitButton valid={valid}>Spara beslut</SubmitButton>
          </Form>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
