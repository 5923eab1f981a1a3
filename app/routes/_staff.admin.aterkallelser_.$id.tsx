// One recall's follow-up (decision 036): who has acknowledged (when, how many copies),
// who has not — by distributor, with phone numbers, a call list — the copies returned so
// far, and the counts per distributor; an Excel file of the same. Admin may end it. A utb
// user sees their own distributor's shops only; a recall that reaches none of them is
// answered like an unknown one.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { scopeFor } from "~/features/distribution/index.server";
import { EndRecallSchema, RECALL_ACTION_TEXT, RECALL_TEXTS, recallHeading } from "~/features/recalls";
import { endRecall, recallFollowUp } from "~/features/recalls/index.server";
import { handleForm } from "~/http/form.server";
import { routeParam } from "~/http/params";
import { stockholmTime } from "~/lib/dates";
import { parseId } from "~/lib/ids";
import { refuse } from "~/lib/refusal";
import { CsrfInput } from "~/ui/csrf";
import { SubmitButton } from "~/ui/form";
import { RecallName } from "~/ui/recall-heading";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.heading ?? "Återkallelse"} – Returportalen` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", parseId, "Återkallelsen finns inte.");
  const follow = await recallFollowUp(id, scopeFor(user));
  if (!follow) throw new Response(RECALL_TEXTS.notFound(id), { status: 404 });
  const time = (ms: number | null) => (ms === null ? "" : stockholmTime(ms).slice(0, 16));
  return {
    ...follow,
    heading: recallHeading(follow.recall),
    deadline: time(follow.recall.deadlineAt),
    ended: follow.recall.endedAt === null ? null : time(follow.recall.endedAt),
    acknowledged: follow.acknowledged.map((c) => ({ ...c, when: time(c.acknowledgedAt) })),
    canEnd: user.roles.includes("admin"),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const id = routeParam(params, "id", parseId, "Återkallelsen finns inte.");
  return handleForm(request, EndRecallSchema, async (v) => {
    if (v.aterkallelse !== id) throw refuse.invalid("Ogiltig förfrågan.");
    const ended = await endRecall(id, user.actor);
    return redirectWithToast(request, `/admin/aterkallelser/${id}`, ended ? `Återkallelse ${id} är avslutad.` : `Återkallelse ${id} var redan avslutad.`);
  });
}

export default function RecallFollowUpPage() {
  const { recall, deadline, ended, acknowledged, waiting, perDistributor, returned, canEnd } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <Link to="/admin/aterkallelser">Tillbaka till Återkallelser</Link>
      </p>
      <h1>
        <RecallName recall={recall} />
      </h1>
      <dl className="facts">
        <dt>Orsak</dt>
        <dd>{recall.reason}</dd>
        <dt>Gör så här</dt>
        <dd>{RECALL_ACTION_TEXT[recall.action]}</dd>
        <dt>Senast</dt>
        <dd>{deadline}</dd>
        <dt>Distributörer</dt>
        <dd>{recall.distributors === null ? "Alla" : recall.distributors.map((d) => d.name).join(", ")}</dd>
        <dt>Bekräftat</dt>
        <dd>
          {recall.acknowledged} av {recall.affected} kunder, {recall.removed} av {recall.delivered} ex borttagna, {returned} ex returnerade
        </dd>
        {ended ? (
          <>
            <dt>Status</dt>
            <dd>Avslutad {ended}</dd>
          </>
        ) : null}
      </dl>
      <p>
        <a href={`/admin/aterkallelser/${recall.id}/export.xlsx`} download>
          Exportera till Excel
        </a>
      </p>
      <section aria-labelledby="per-distributor">
        <h2 id="per-distributor">Per distributör</h2>
        <TableOrEmpty empty={perDistributor.length === 0} emptyText="Inga kunder.">
          <thead>
            <tr>
              <th scope="col">Distributör</th>
              <th scope="col" className="num">Kunder</th>
              <th scope="col" className="num">Bekräftat</th>
              <th scope="col" className="num">Borttagna ex</th>
              <th scope="col" className="num">Returnerade ex</th>
            </tr>
          </thead>
          <tbody>
            {perDistributor.map((d) => (
              <tr key={String(d.distributorId)}>
                <td>{d.name}</td>
                <td className="num">{d.affected}</td>
                <td className="num">{d.acknowledged}</td>
                <td className="num">{d.removed}</td>
                <td className="num">{d.returned}</td>
              </tr>
            ))}
          </tbody>
        </TableOrEmpty>
      </section>
      <section aria-labelledby="waiting">
        <h2 id="waiting">Inte bekräftat ({waiting.length})</h2>
        <TableOrEmpty empty={waiting.length === 0} emptyText="Alla kunder har bekräftat.">
          <caption className="visually-hidden">Att ringa, per distributör</caption>
          <thead>
            <tr>
              <th scope="col">Distributör</th>
              <th scope="col">Kund</th>
              <th scope="col">Telefon</th>
              <th scope="col" className="num">Levererat ex</th>
            </tr>
          </thead>
          <tbody>
            {waiting.map((c) => (
              <tr key={c.customerId}>
                <td>{c.distributorName ?? "Utan distributör"}</td>
                <td>
                  {c.customerId} {c.name}
                </td>
                <td className="nowrap">{c.phone ? <a href={`tel:${c.phone.replace(/[^\d+]/g, "")}`}>{c.phone}</a> : "–"}</td>
                <td className="num">{c.delivered}</td>
              </tr>
            ))}
          </tbody>
        </TableOrEmpty>
      </section>
      <section aria-labelledby="acknowledged">
        <h2 id="acknowledged">Bekräftat ({acknowledged.length})</h2>
        <TableOrEmpty empty={acknowledged.length === 0} emptyText="Ingen har bekräftat ännu.">
          <thead>
            <tr>
              <th scope="col">Kund</th>
              <th scope="col">Distributör</th>
              <th scope="col">Bekräftad</th>
              <th scope="col" className="num">Levererat ex</th>
              <th scope="col" className="num">Borttagna ex</th>
              <th scope="col" className="num">Returnerade ex</th>
            </tr>
          </thead>
          <tbody>
            {acknowledged.map((c) => (
              <tr key={c.customerId}>
                <td>
                  {c.customerId} {c.name}
                </td>
                <td>{c.distributorName ?? "Utan distributör"}</td>
                <td className="nowrap">{c.when}</td>
                <td className="num">{c.delivered}</td>
                <td className="num">{c.removed}</td>
                <td className="num">{c.returned}</td>
              </tr>
            ))}
          </tbody>
        </TableOrEmpty>
      </section>
      {canEnd && recall.endedAt === null ? (
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="avsluta" />
          <input type="hidden" name="aterkallelse" value={recall.id} />
          <SubmitButton primary={false}>Avsluta återkallelse</SubmitButton>
        </Form>
      ) : null}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
