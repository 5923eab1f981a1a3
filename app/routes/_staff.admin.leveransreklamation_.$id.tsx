// One delivery claim (decision 031): what the retailer claimed, and the decision form —
// Godkänn, Godkänn delvis (how many), Avslå, with a reason for the last two. Admin decides
// every claim, a utb user their distributor's; sales see it. Another distributor's claim is
// answered like an unknown one.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { CLAIM_TEXTS, ClaimDecisionSchema, DECIDE_CLAIM, claimStatusText } from "~/features/deliveries";
import { decideClaims, staffClaim } from "~/features/deliveries/index.server";
import { scopeFor } from "~/features/distribution/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { stockholmTime, today } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import type { FormReply } from "~/ui/form-reply";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Reklamation ${data?.claim.id ?? ""} – Returportalen` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", parseId, "Reklamationen finns inte.");
  const claim = await staffClaim(id, scopeFor(user));
  if (!claim) throw new Response(CLAIM_TEXTS.notFound(id), { status: 404 });
  return { claim, today: today(), canDecide: user.roles.includes("admin") || user.roles.includes("utb"), receivedAt: stockholmTime(claim.createdAt) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "utb"]);
  const id = routeParam(params, "id", parseId, "Reklamationen finns inte.");
  return handleForm(request, ClaimDecisionSchema, async (v) => {
    if (v.arende !== id) throw refuse.invalid("Ogiltig förfrågan.");
    const decision =
      v.beslut === "godkann" ? ({ decision: "approve" } as const) : v.beslut === "avsla" ? ({ decision: "reject", reason: v.motivering ?? "" } as const) : ({ decision: "partly", copies: v.antal ?? 0, reason: v.motivering ?? "" } as const);
    await decideClaims([id], decision, scopeFor(user), user.actor);
    const said = v.beslut === "godkann" ? "godkänd" : v.beslut === "avsla" ? "avslagen" : `delvis godkänd (${v.antal} ex)`;
    return redirectWithToast(request, `/admin/leveransreklamation/${id}`, `Reklamation ${id} ${said}.`);
  });
}

export default function ClaimPage() {
  const { claim, today: t, canDecide, receivedAt } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormReply | undefined;
  const [form, fields, { valid }] = useContractForm(ClaimDecisionSchema, { id: `claim-${claim.id}`, lastResult: reply ?? null });
  const overdue = claim.overdueFrom !== null && claim.overdueFrom <= t;
  return (
    <>
      <p>
        <Link to="/admin/leveransreklamation?visa=ej-beslutade">Tillbaka till Leveransreklamation</Link>
      </p>
      <h1>{CLAIM_TEXTS.label(claim, claimStatusText(claim))}</h1>
      <dl className="facts">
        <dt>Kund</dt>
        <dd>
          {claim.customerId} {claim.customerName}
        </dd>
        <dt>Tidning</dt>
        <dd>
          {claim.paper} {claim.deliveryDate}
        </dd>
        <dt>Följesedel</dt>
        <dd>{claim.delivered} ex</dd>
        <dt>Mottagit</dt>
        <dd>{claim.received ?? "–"} ex</dd>
        <dt>Reklamerat</dt>
        <dd>{claim.copies} ex</dd>
        <dt>Inkommen</dt>
        <dd>
          {receivedAt}
          {overdue ? <span className="late-note">{CLAIM_TEXTS.overdue}</span> : null}
        </dd>
        {claim.reason ? (
          <>
            <dt>Motivering</dt>
            <dd>{claim.reason}</dd>
          </>
        ) : null}
      </dl>
      {claim.status === "open" && canDecide ? (
        <section className="card" aria-labelledby="beslut">
          <h2 id="beslut">Beslut</h2>
          <Form method="post" {...getFormProps(form)}>
            <CsrfInput />
            <input type="hidden" name="intent" value={DECIDE_CLAIM} />
            <input type="hidden" name="arende" value={claim.id} />
            <FieldErrors id={form.errorId} errors={form.errors} />
            <fieldset className="plain" aria-describedby={fields.beslut.errors ? fields.beslut.errorId : undefined}>
              <legend>Beslut för reklamation {claim.id}</legend>
              {(
                [
                  ["godkann", `Godkänn (${claim.copies} ex)`],
                  ["delvis", "Godkänn delvis"],
                  ["avsla", "Avslå"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="check">
                  <input type="radio" name={fields.beslut.name} value={value} defaultChecked={fields.beslut.initialValue === value} /> {label}
                </label>
              ))}
              <FieldErrors id={fields.beslut.errorId} errors={fields.beslut.errors} />
            </fieldset>
            <Field label={`Antal godkända ex (vid delvis, 1–${Math.max(1, claim.copies - 1)})`} field={fields.antal} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
            <Field label="Motivering (krävs vid delvis och avslag)" field={fields.motivering} />
            <SubmitButton valid={valid}>Spara beslut</SubmitButton>
          </Form>
        </section>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
