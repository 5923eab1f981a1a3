// Svar per helgdag: who answered Öppet, who Stängt, who has not answered, with
// counts per distributor; filtered by answer and distributor, searched, sorted and paged
// in the URL; the Excel export holds every row of the same view.
// Admin and sales see every customer, a utb user their distributor's.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { customerScope, listDistributors } from "~/features/customers/index.server";
import { getHolidayForReport, holidayAnswerPage, holidayCounts, readHolidayAnswerView, type AnswerColumn, type HolidayAnswerFilter } from "~/features/holidays/index.server";
import { routeParam } from "~/http/params";
import { parseId } from "~/lib/ids";
import { DistributorSelect } from "~/ui/distributor-select";
import { PlainField } from "~/ui/field";
import { Pager } from "~/ui/pager";
import { SortHeader } from "~/ui/sort";
import { TableOrEmpty } from "~/ui/table";
import { stockholmTime } from "~/lib/dates";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Svar: ${data?.holiday.description ?? "helgdag"} – Returportalen` }];

const ANSWERS: { value: HolidayAnswerFilter; label: string }[] = [
  { value: "alla", label: "Alla" },
  { value: "oppet", label: "Öppet" },
  { value: "stangt", label: "Stängt" },
  { value: "ej-svarat", label: "Ej svarat" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const id = routeParam(params, "id", (raw) => parseId(raw ?? null), "Helgdagen finns inte.");
  const holiday = await getHolidayForReport(id);
  if (!holiday) throw new Response("Helgdagen finns inte.", { status: 404 });
  const scope = customerScope(user);
  const { page, ...view } = readHolidayAnswerView(request);
  const [counts, list, distributors] = await Promise.all([holidayCounts(id, scope), holidayAnswerPage(id, scope, view, page), listDistributors()]);
  return {
    holiday,
    counts,
    list,
    view,
    distributors: scope.distributorIds ? distributors.filter((d) => scope.distributorIds!.includes(d.id)) : distributors,
    isAdmin: user.roles.includes("admin"),
  };
}

export default function HolidayAnswers() {
  const { holiday, counts, list, view, distributors, isAdmin } = useLoaderData<typeof loader>();
  const { rows } = list;
  const { search } = useLocation();
  const sortChosen = new URLSearchParams(search).has("sortera");
  const header = (column: AnswerColumn, label: string) => (
    <SortHeader column={column} sort={view.sort}>
      {label}
    </SortHeader>
  );
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
      {holiday.deleted || holiday.completed ? (
        <p>{holiday.deleted ? "Helgdagen är borttagen: återförsäljarna frågas inte längre, men svaren finns kvar." : "Helgdagen är klarmarkerad."}</p>
      ) : null}
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
          <select id="svar" name="svar" defaultValue={view.answer}>
            {ANSWERS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <DistributorSelect id="utb" label="Distributör" distributors={distributors} defaultValue={view.distributorId} />
        </div>
        <PlainField key={`sok-${view.search}`} id="sok" name="sok" label="Sök kund (nummer, namn, ort)" type="search" defaultValue={view.search} />
        {sortChosen ? (
          <>
            <input type="hidden" name="sortera" value={view.sort.column} />
            <input type="hidden" name="ordning" value={view.sort.descending ? "fallande" : "stigande"} />
          </>
        ) : null}
        <button type="submit">Visa</button>
        <a href={`/admin/holidays/${holiday.id}/svar.xlsx${search}`} className="button" download>
          Exportera till Excel
        </a>
      </Form>
      <p aria-live="polite">{list.matching === 1 ? "1 kund." : `${list.matching} kunder.`}</p>
      <TableOrEmpty empty={rows.length === 0} emptyText="Inga kunder med det svaret.">
        <thead>
          <tr>
            {header("kundnr", "Kundnummer")}
            {header("namn", "Namn")}
            {header("ort", "Ort")}
            {header("utb", "Distributör")}
            {header("svar", "Svar")}
            {header("svarat", "Svarat")}
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
              <td className="date-cell">{r.answeredAt === null ? "" : stockholmTime(r.answeredAt).slice(0, 16)}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <Pager page={list.page} pages={list.pages} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
