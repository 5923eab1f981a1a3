import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { labelTypeName, listUsableBlocks } from "~/features/labels/index.server";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Mina returetiketter/block – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const blocks = await listUsableBlocks(user.customerId);
  return { blocks: blocks.map((b) => ({ ...b, typeName: labelTypeName(b.type) })) };
}

export default function LabelBlocks() {
  const { blocks } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Mina returetiketter/block</h1>
      <p className="intro">Här ser du dina block med returetiketter som har oanvända buntnummer.</p>
      <TableOrEmpty empty={blocks.length === 0} emptyText="Inget att rapportera">
        <thead>
          <tr>
            <th scope="col">Typ/status</th>
            <th scope="col">Beställd</th>
            <th scope="col">Giltig till</th>
            <th scope="col">Nummerserie</th>
            <th scope="col" className="num">
              Oanvända
            </th>
          </tr>
        </thead>
        <tbody>
          {blocks.map((b) => (
            <tr key={b.id}>
              <td>
                {b.typeName}
                <br />
                <span className="muted">{b.status}</span>
              </td>
              <td>{b.fromDate}</td>
              <td>{b.toDate}</td>
              <td>
                {b.fromNumber} - {b.toNumber}
              </td>
              <td className="num">{b.numberUnused}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <p className="actions">
        <Link to="/order" className="button">
          Beställ returetiketter
        </Link>
        <Link to="/nodetiketter" className="button">
          Skriv ut nödetiketter
        </Link>
      </p>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
