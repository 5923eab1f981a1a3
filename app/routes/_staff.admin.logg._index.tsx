// Logg: the audit trail — impersonations, payouts, PIN changes, messages,
// imports, logins — searched by who, which customer, what kind and when; sorted and
// paged in the URL; exported to Excel with the same filters. Admin only.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { AUDIT_GROUPS, actionGroupLabel, actorText, eventText, targetText } from "~/features/audit";
import { readAuditQuery, searchAudit } from "~/features/audit/index.server";
import { stockholmTime } from "~/lib/dates";
import { FieldErrors } from "~/ui/field";
import { Pager } from "~/ui/pager";
import { SortHeader } from "~/ui/sort";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Logg – Returportalen" }];

const EMPTY = { rows: [], total: 0, page: 1, pages: 1 };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { query, form, periodError } = readAuditQuery(request);
  if (periodError) return data({ list: EMPTY, form, periodError, sort: query.sort! }, { status: 400 });
  return { list: await searchAudit(query), form, periodError: null, sort: query.sort! };
}

const time = stockholmTime;

export default function AuditPage() {
  const { list, form, periodError, sort } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <>
      <h1>Logg</h1>
      <Form method="get" className="card" role="search" aria-label="Sök i loggen">
        <div className="form-row">
          <div className="field">
            <label htmlFor="vem">Vem (namn eller e-post, kundnummer, staff:N eller cli)</label>
            <input id="vem" name="vem" type="search" defaultValue={form.vem} maxLength={200} />
          </div>
          <div className="field">
            <label htmlFor="kund">Gäller kund (kundnummer)</label>
            <input id="kund" name="kund" type="text" inputMode="numeric" defaultValue={form.kund} maxLength={10} />
          </div>
          <div className="field">
            <label htmlFor="typ">Händelse</label>
            <select id="typ" name="typ" defaultValue={form.typ}>
              <option value="">Alla</option>
              {AUDIT_GROUPS.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="form-row">
          <div className="field">
            <label htmlFor="fran">Från</label>
            <input id="fran" name="fran" type="date" defaultValue={form.fran} />
          </div>
          <div className="field">
            <label htmlFor="till">Till</label>
            <input id="till" name="till" type="date" defaultValue={form.till} aria-invalid={periodError ? true : undefined} aria-describedby={periodError ? "till-error" : undefined} />
            <FieldErrors id="till-error" errors={periodError ? [periodError] : undefined} />
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Sök
          </button>
          <Link to="/admin/logg">Rensa</Link>
          <a href={`/admin/logg/export.xlsx${search}`} className="button" download>
            Exportera till Excel
          </a>
        </div>
      </Form>
      <p aria-live="polite">{list.total === 1 ? "1 händelse." : `${list.total} händelser.`}</p>
      <TableOrEmpty empty={list.rows.length === 0} emptyText="Inga händelser.">
        <thead>
          <tr>
            <SortHeader column="tid" sort={sort}>
              Tid
            </SortHeader>
            <SortHeader column="vem" sort={sort}>
              Vem
            </SortHeader>
            <SortHeader column="handelse" sort={sort}>
              Händelse
            </SortHeader>
            <th scope="col">Gäller</th>
            <th scope="col">IP-adress</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((r) => (
            <tr key={r.id}>
              <td className="date">{time(r.at)}</td>
              <td>{actorText(r)}</td>
              <td className="text">
                {eventText(r)}
                <details className="audit-detail">
                  <summary>
                    {actionGroupLabel(r.action)} <span className="visually-hidden">– tekniska detaljer</span>
                  </summary>
                  <code className="wrap-anywhere">{r.action}</code>
                  {r.detail ? <code className="wrap-anywhere"> {r.detail}</code> : null}
                </details>
              </td>
              <td className="text">{r.target ? targetText(r) : ""}</td>
              <td>{r.ip ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <Pager page={list.page} pages={list.pages} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
