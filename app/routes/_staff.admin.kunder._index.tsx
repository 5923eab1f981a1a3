// Kunder: search customers by number, name, city or distributor; sorted and
// paged in the URL. Admin and sales see every customer, a utb user their distributor's.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { CUSTOMER_SORT_COLUMNS, customerScope, listDistributors, searchCustomers } from "~/features/customers/index.server";
import { DistributorSelect } from "~/ui/distributor-select";
import { Pager } from "~/ui/pager";
import { SortHeader } from "~/ui/sort";
import { TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Kunder – Returportalen" }];

const CUSTOMERS_SEARCH = {
  sok: param.text(100),
  utb: param.id(),
  status: param.oneOf(["aktiva", "avstangda", "alla"], "aktiva"),
  sort: param.sort(CUSTOMER_SORT_COLUMNS, { column: "kundnummer", descending: false }),
  sida: param.page(),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireStaff(request, context, ["admin", "sales", "utb"]);
  const scope = customerScope(user);
  const { sok: q, utb, status: state, sort, sida: page } = readSearch(request, CUSTOMERS_SEARCH);
  const [list, distributors] = await Promise.all([searchCustomers({ q, distributorId: utb, state, sort, page }, scope), listDistributors()]);
  return {
    list,
    q,
    utb,
    state,
    sort,
    distributors: scope.distributorIds ? distributors.filter((d) => scope.distributorIds!.includes(d.id)) : distributors,
    canAdd: user.roles.includes("admin"),
  };
}

export default function CustomersPage() {
  const { list, q, utb, state, sort, distributors, canAdd } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Kunder</h1>
      <Form method="get" className="card" role="search" aria-label="Sök kunder">
        <div className="form-row">
          <div className="field">
            <label htmlFor="sok">Sök (kundnummer, namn, ort eller distributör)</label>
            <input id="sok" name="sok" type="search" defaultValue={q} maxLength={100} />
          </div>
          <div className="field">
            <DistributorSelect id="utb" label="Distributör" distributors={distributors} defaultValue={utb} />
          </div>
          <div className="field">
            <label htmlFor="status">Visa</label>
            <select id="status" name="status" defaultValue={state}>
              <option value="aktiva">Aktiva kunder</option>
              <option value="avstangda">Avstängda kunder</option>
              <option value="alla">Alla kunder</option>
            </select>
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="primary">
            Sök
          </button>
          {canAdd ? (
            <Link to="/admin/kunder/ny" className="button">
              Ny kund
            </Link>
          ) : null}
        </div>
      </Form>
      <p aria-live="polite">{list.total === 1 ? "1 kund." : `${list.total} kunder.`}</p>
      <TableOrEmpty empty={list.rows.length === 0} emptyText="Inga kunder hittades.">
        <thead>
          <tr>
            <SortHeader column="kundnummer" sort={sort}>
              Kundnummer
            </SortHeader>
            <SortHeader column="namn" sort={sort}>
              Namn
            </SortHeader>
            <SortHeader column="ort" sort={sort}>
              Ort
            </SortHeader>
            <SortHeader column="utb" sort={sort}>
              Distributör
            </SortHeader>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((c) => (
            <tr key={c.id}>
              <td>
                <Link to={`/admin/kunder/${c.id}`}>{c.id}</Link>
              </td>
              <td>{c.name}</td>
              <td>
                {c.zip} {c.city}
              </td>
              <td>{c.distributor}</td>
              <td>{c.deactivatedAt ? "Avstängd" : "Aktiv"}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <Pager page={list.page} pages={list.pages} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
