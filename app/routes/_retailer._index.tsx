import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { config } from "~/config.server";
import { listOpenBundles } from "~/domain/bundles.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRetailer(request);
  const bundles = await listOpenBundles(user.customerId);
  return {
    customer: { id: user.customerId, name: user.name, address: user.address, zip: user.zip, city: user.city },
    bundles,
    version: config.clientVersion,
  };
}

export default function StartPage() {
  const { customer, bundles, version } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Sammanfattning</h1>
      <section aria-labelledby="open-bundles">
        <h2 id="open-bundles">Öppna buntar</h2>
        {bundles.length === 0 ? (
          <p>Inga öppna buntar</p>
        ) : (
          <ul className="bundle-list">
            {bundles.map((b) => (
              <li key={b.number}>
                Bunt #{b.number} ({b.type === 0 ? "Huvudtidningar" : "Bilagor"}): {b.total} returer
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="customer-info" className="card">
        <h2 id="customer-info">Kunduppgifter</h2>
        <dl className="facts">
          <dt>Namn</dt>
          <dd>{customer.name}</dd>
          <dt>Adress</dt>
          <dd>
            {customer.address}
            {customer.zip || customer.city ? `, ${customer.zip} ${customer.city}` : ""}
          </dd>
          <dt>Kundnummer</dt>
          <dd>{customer.id}</dd>
          <dt>Version</dt>
          <dd>{version}</dd>
        </dl>
      </section>
    </>
  );
}
