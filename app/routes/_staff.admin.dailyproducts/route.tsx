import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { DailyProductActionSchema, splitEdition } from "~/features/products";
import { getDailyProduct, listEditions, listPendingImages, listProductsOn, listTitles, saveExtraDescription, uploadCover } from "~/features/products/index.server";
import { handleForm } from "~/http/form.server";
import { MAX_IMAGE_BYTES } from "~/http/uploads.server";
import { stockholmTime, today } from "~/lib/dates";
import { DailyProductForm } from "./daily-product-form";
import { ProductCards } from "./product-cards";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Dagens produkter – Returportalen" }];

const DAILY_SEARCH = { datum: param.date(), valj: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { datum, valj: selectedId } = readSearch(request, DAILY_SEARCH);
  const day = datum ?? today();
  const [titles, editions, pending, products, selected] = await Promise.all([
    listTitles(),
    listEditions(),
    listPendingImages(),
    listProductsOn(day),
    selectedId !== null ? getDailyProduct(selectedId) : null,
  ]);
  return { day, titles, editions, pending, products, selected };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  // A cover over the limit: said beside the file (413), everything else typed kept.
  const upload = { uploadBytes: MAX_IMAGE_BYTES };
  return handleForm(
    request,
    DailyProductActionSchema,
    async (v) => {
      const key = { titleId: v.titleId, editionId: splitEdition(v.edition).editionId, date: v.date };
      switch (v.intent) {
        case "upload": {
          const bytes = new Uint8Array(await v.file.arrayBuffer());
          const { published, described } = await uploadCover({ ...key, filename: v.file.name || "omslag", bytes, extraDescription: v.extraDescription }, user.actor);
          const message = !published ? "Omslaget väntar på produkten." : described ? "Omslaget är publicerat och beskrivningen sparad." : "Omslaget är publicerat.";
          return redirectWithToast(request, "/admin/dailyproducts", message);
        }
        case "describe": {
          const id = await saveExtraDescription({ ...key, extraDescription: v.extraDescription ?? "" }, user.actor);
          return redirectWithToast(request, `/admin/dailyproducts?datum=${key.date}&valj=${id}`, "Beskrivningen sparad.");
        }
      }
    },
    upload,
  );
}

export default function DailyProductsAdmin() {
  const { day, titles, editions, pending, products, selected } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const titleName = new Map(titles.map((t) => [t.id, t.name]));
  return (
    <>
      <h1>Dagens produkter</h1>
      <p>
        <Link to={`/admin/dailyproducts/ny?datum=${day}`} className="button">
          Ny produkt eller nytt pris
        </Link>
      </p>
      <section className="card" aria-labelledby="dp-form-title">
        <h2 id="dp-form-title">{selected ? "Vald produkt" : "Produkt"}</h2>
        <DailyProductForm day={day} titles={titles} editions={editions} selected={selected} lastResult={lastResult} />
      </section>

      <h2>Väntande uppladdningar</h2>
      {pending.length === 0 ? (
        <p>Inga väntande bilder.</p>
      ) : (
        <ul className="pending-list">
          {pending.map((p) => (
            <li key={p.id}>
              {p.filename} – {titleName.get(p.titleId ?? 0) ?? ""} utgåva {p.editionId}, {p.date} (uppladdad {stockholmTime(p.createdAt)})
            </li>
          ))}
        </ul>
      )}

      <h2>Produkter {day}</h2>
      <Form method="get" className="actions">
        <label htmlFor="datum">Visa dag</label>
        <input id="datum" name="datum" type="date" defaultValue={day} />
        <button type="submit">Visa</button>
      </Form>
      <ProductCards day={day} titles={titles} products={products} selectedId={selected?.id ?? null} />
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
