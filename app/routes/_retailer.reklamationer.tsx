// Mina reklamationer (decision 031): every claim of the retailer's, newest delivery first,
// with its case number, what was claimed and where it stands — Inkommen, Godkänd, Delvis
// godkänd (N ex), Avslagen (reason), Krediterad på faktura N with the invoice's PDF.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { claimStatusText } from "~/features/deliveries";
import { listMyClaims } from "~/features/deliveries/index.server";
import { TableOrEmpty } from "~/ui/table";

export const meta: MetaFunction = () => [{ title: "Mina reklamationer – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  return { claims: await listMyClaims(user.customerId) };
}

export default function MyClaims() {
  const { claims } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Mina reklamationer</h1>
      <p className="intro">
        Här ser du dina leveransreklamationer och hur de har beslutats. Godkända exemplar krediteras på din nästa faktura. Du reklamerar under{" "}
        <Link to="/foljesedel">Följesedel/Leveransreklamation</Link>.
      </p>
      <TableOrEmpty empty={claims.length === 0} emptyText="Du har inga reklamationer.">
        <thead>
          <tr>
            <th scope="col">Reklamation</th>
            <th scope="col">Tidning</th>
            <th scope="col">Utgivningsdag</th>
            <th scope="col" className="num">
              Levererat
            </th>
            <th scope="col" className="num">
              Mottagit
            </th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {claims.map((c) => (
            <tr key={c.id}>
              <td>{c.id}</td>
              <td>{c.paper}</td>
              <td className="nowrap">{c.deliveryDate}</td>
              <td className="num">{c.delivered}</td>
              <td className="num">{c.received ?? "–"}</td>
              <td>{c.invoice !== null ? <a href={`/faktura/${c.invoice}.pdf`}>{claimStatusText(c)}</a> : claimStatusText(c)}</td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
