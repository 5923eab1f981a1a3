import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRetailer } from "~/auth/guards.server";
import { listCurrentProducts } from "~/features/products/index.server";
import { formatKr } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Aktuella produkter – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRetailer(request, context);
  return { groups: await listCurrentProducts() };
}

export default function CurrentProductsPage() {
  const { groups } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Aktuella produkter</h1>
      {groups.length === 0 ? (
        <p>Inga aktuella produkter just nu.</p>
      ) : (
        groups.map((g, gi) => (
          <section key={g.heading} aria-labelledby={`group-${gi}`}>
            <h2 id={`group-${gi}`}>{g.heading}</h2>
            <ul className="product-list">
              {g.products.map((p) => (
                <li key={p.id} className="card product-card">
                  {/* A product without a cover shows its text only, never an empty frame. */}
                  {p.coverImageId !== null ? (
                    <img src={`/bilder/${p.coverImageId}`} alt={`Omslag: ${p.description}`} width={120} loading="lazy" />
                  ) : null}
                  <div>
                    <h3>{p.description}</h3>
                    {p.extraDescription ? <p>{p.extraDescription}</p> : null}
                    <dl className="facts">
                      <dt>Tidning</dt>
                      <dd>{p.title}</dd>
                      <dt>Datum</dt>
                      <dd>{p.startDate === p.endDate ? p.startDate : `${p.startDate} – ${p.endDate}`}</dd>
                      <dt>Pris</dt>
                      <dd>{formatKr(p.priceOre)}</dd>
                      <dt>EAN</dt>
                      <dd>{p.eanCode || "–"}</dd>
                    </dl>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
