// Svar per helgdag: who answered Öppet, who Stängt, who has not answered, with
// counts per distributor; filtered by answer and distributor in the URL; Excel export.
// Admin and sales see every customer, a utb user their distributor's.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { customerScope, listDistributors } from "~/features/customers/index.server";
import { getHolidayForReport, holidayAnswerRows, holidayCounts, type HolidayAnswerFilter } from "~/features/holidays/index.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { DistributorSelect } from "~/ui/distributor-select";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Svar: ${data?.holiday.description ?? "helgdag"} – Returportalen` }];

const ANSWERS: { value: HolidayAnswerFilter; label: string }[] = [
  { value: "alla", label: "Alla" },
  { value: "oppet", label: "Öppet" },
  { value: "stangt", label: "Stängt" },
  { value: "ej-svarat", label: "Ej svarat" },
];

function readAnswerFilter(url: URL) {
  const svar = url.searchParams.get("svar");
  const answer = (ANSWERS.some((a) => a.value === svar) ? svar : "alla") as HolidayAnswerFilter;
  const distributorId = parseId(url.searchParams.get("utb"));
  return { answer, distributorId };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", (raw) => parseId(raw ?? null), "Helgdagen finns inte.");
  const holiday = await getHolidayForReport(id);
  if (!holiday) throw new Response("Helgdagen finns inte.", { status: 404 });
  const scope = customerScope(user);
  const filter = readAnswerFilter(new URL(request.url));
  const [counts, rows, distributors] = await Promise.all([holidayCounts(id, scope), holidayAnswerRows(id, scope, filter), listDistributors()]);
  return {
    holiday,
    counts,
    rows,
    filter,
    distributors: scope.distributorIds ? distributors.filter((d) => scope.distributorIds!.includes(d.id)) : distributors,
    isAdmin: user.roles.includes("admin"),
  };
}

export default function HolidayAnswers() {
  const { holiday, counts, rows, filter, distributors, isAdmin } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const total = counts.reduce((t, c) => ({ open: t.open + c.open, closed: t.closed + c.closed, unanswered: t.unanswered + c.unanswered }), { open: 0, closed: 0, unanswered: 0 });
  return (
    <>
      {isAdmin ? (
        <p>
          <Link to="/admin/holidays">Helgspärr</Link>
        </p>
      ) : null}
      <h1>
        Svar: {holiday.description} {holiday.day}
      </h1>
      <h2>Per distributör</h2>
      <TableOrEmpty empty={counts.length === 0} emptyText="Inga kunder.">
        <thead>
          <tr>
            <th scope="col">Distributör</th>
            <th scope="col" className="num">
              Öppet
            </th>
            <th scope="col" className="num">
              Stängt
            </th>
            <th scope="col" className="num">
              Ej svarat
            </th>
          </tr>
        </thead>
        <tbody>
          {counts.map((c) => (
            <tr key={c.distributorId}>
              <th scope="row">{c.distributor}</th>
              <td className="num">{c.open}</td>
              <td className="num">{c.closed}</td>
              <td className="num">{c.unanswered}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Totalt</th>
            <td className="num">{total.open}</td>
            <td className="num">{total.closed}</td>
            <td className="num">{total.unanswered}</td>
          </tr>
        </tbody>
      </TableOrEmpty>

      <h2>Kunder</h2>
      <Form method="get" className="actions" role="search" aria-label="Filtrera svaren">
        <div className="field">
          <label htmlFor="svar">Svar</label>
          <select id="svar" name="svar" defaultValue={filter.answer}>
            {ANSWERS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <DistributorSelect id="utb" label="Distributör" distributors={distributors} defaultValue={filter.distributorId} />
        </div>
        <button type="submit">Visa</button>
        <a href={`/admin/holidays/${holiday.id}/svar.xlsx${search}`} className="button" download>
          Exportera till Excel
        </a>
      </Form>
      <p aria-live="polite">{rows.length === 500 ? "De första 500 kunderna visas; exporten har alla." : `${rows.length} kunder.`}</p>
      <TableOrEmpty empty={rows.length === 0} emptyText="Inga kunder med det svaret.">
        <thead>
          <tr>
            <th scope="col">Kundnummer</th>
            <th scope="col">Namn</th>
            <th scope="col">Ort</th>
            <th scope="col">Distributör</th>
            <th scope="col">Svar</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.customerId}>
              <td>
                <Link to={`/admin/kunder/${r.customerId}`}>{r.customerId}</Link>
              </td>
              <td>{r.name}</td>
              <td>{r.city}</td>
              <td>{r.distributor}</td>
              <td>{r.answer}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
