import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, data, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { DailyProductError, getDailyProduct, listPendingImages, listProductsOn, saveExtraDescription, uploadCover, listEditions, listTitles } from "~/features/products/index.server";
import { isValidDate, today } from "~/lib/dates";
import { formatKr } from "~/lib/money";
import { MAX_IMAGE_BYTES, readUpload, uploadedFile } from "~/http/uploads.server";
import { isRefusal } from "~/lib/refusal";
import { FieldErrors } from "~/ui/field";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";

export const meta: MetaFunction = () => [{ title: "Dagens produkter – Returportalen" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const params = new URL(request.url).searchParams;
  const day = params.get("datum") && isValidDate(params.get("datum")!) ? params.get("datum")! : today();
  const selectedId = parseId(params.get("valj"));
  const [titles, editions, pending, products, selected] = await Promise.all([
    listTitles(),
    listEditions(),
    listPendingImages(),
    listProductsOn(day),
    selectedId !== null ? getDailyProduct(selectedId) : null,
  ]);
  return { day, titles, editions, pending, products, selected };
}

type Values = { titleId: string; edition: string; date: string; extraDescription: string };
type Failure = { errors: Record<string, string>; values: Values };

function fail(errors: Record<string, string>, values: Values) {
  return data({ errors, values } satisfies Failure, { status: 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  const actor = user.actor;
  const empty: Values = { titleId: "", edition: "", date: "", extraDescription: "" };
  let form: FormData;
  try {
    form = await readUpload(request, MAX_IMAGE_BYTES);
  } catch (e) {
    if (isRefusal(e, "too-large")) return fail({ file: "Filen är större än 2 MB." }, empty);
    throw e;
  }
  const values: Values = {
    titleId: String(form.get("titleId") ?? ""),
    edition: String(form.get("edition") ?? ""),
    date: String(form.get("date") ?? "").trim(),
    extraDescription: String(form.get("extraDescription") ?? ""),
  };
  const errors: Record<string, string> = {};
  const titleId = Number(values.titleId);
  if (!values.titleId) errors.titleId = "Välj titel.";
  const m = /^(\d+):(\d+)$/.exec(values.edition);
  if (!m) errors.edition = "Välj utgåva.";
  else if (Number(m[1]) !== titleId && !errors.titleId) errors.edition = "Utgåvan hör inte till titeln.";
  if (!values.date) errors.date = "Obligatorisk.";
  const intent = form.get("intent");
  const file = uploadedFile(form, "file");
  if (intent === "upload" && !file) errors.file = "Välj en bild.";
  if (Object.keys(errors).length > 0) return fail(errors, values);
  const key = { titleId, editionId: Number(m![2]), date: values.date };
  try {
    if (intent === "upload") {
      const bytes = new Uint8Array(await file!.arrayBuffer());
      const { published } = await uploadCover({ ...key, filename: file!.name || "omslag", bytes }, actor);
      return redirectWithToast(request, "/admin/dailyproducts", published ? "Omslaget är publicerat." : "Omslaget väntar på produkten.");
    }
    const id = await saveExtraDescription({ ...key, extraDescription: values.extraDescription }, actor);
    return redirectWithToast(request, `/admin/dailyproducts?datum=${key.date}&valj=${id}`, "Beskrivningen sparad.");
  } catch (e) {
    if (e instanceof DailyProductError) return fail(e.errors, values);
    throw e;
  }
}

export default function DailyProductsAdmin() {
  const { day, titles, editions, pending, products, selected } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const titleName = new Map(titles.map((t) => [t.id, t.name]));
  const initial: Values = failed?.values ?? {
    titleId: selected ? String(selected.titleId) : "",
    edition: selected ? `${selected.titleId}:${selected.editionId}` : "",
    date: selected?.startDate ?? day,
    extraDescription: selected?.extraDescription ?? "",
  };
  const err = (name: string) => failed?.errors[name];
  const describedBy = (name: string) => (err(name) ? `${name}-error` : undefined);
  return (
    <>
      <h1>Dagens produkter</h1>
      <section className="card" aria-labelledby="dp-form-title">
        <h2 id="dp-form-title">{selected ? "Vald produkt" : "Produkt"}</h2>
        {/* The key remounts the inputs when another card is chosen. */}
        <Form method="post" encType="multipart/form-data" key={`${selected?.id ?? "new"}-${failed ? "f" : ""}`}>
          <CsrfInput />
          <div className="form-row">
            <div className="field">
              <label htmlFor="titleId">Titel</label>
              <select id="titleId" name="titleId" defaultValue={initial.titleId} aria-invalid={err("titleId") ? true : undefined} aria-describedby={describedBy("titleId")}>
                <option value="">Välj titel</option>
                {titles.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
              <FieldErrors id="titleId-error" errors={err("titleId") ? [err("titleId")!] : undefined} />
            </div>
            <div className="field">
              <label htmlFor="edition">Utgåva</label>
              <select id="edition" name="edition" defaultValue={initial.edition} aria-invalid={err("edition") ? true : undefined} aria-describedby={describedBy("edition")}>
                <option value="">Välj utgåva</option>
                {editions.map((e) => (
                  <option key={`${e.titleId}:${e.editionId}`} value={`${e.titleId}:${e.editionId}`}>
                    {titleName.get(e.titleId)}: {e.description}
                  </option>
                ))}
              </select>
              <FieldErrors id="edition-error" errors={err("edition") ? [err("edition")!] : undefined} />
            </div>
            <div className="field">
              <label htmlFor="date">Datum</label>
              <input id="date" name="date" type="date" defaultValue={initial.date} aria-invalid={err("date") ? true : undefined} aria-describedby={describedBy("date")} />
              <FieldErrors id="date-error" errors={err("date") ? [err("date")!] : undefined} />
            </div>
          </div>
          <div className="field">
            <label htmlFor="extraDescription">Extra beskrivning</label>
            <textarea id="extraDescription" name="extraDescription" rows={3} maxLength={500} defaultValue={initial.extraDescription} aria-describedby={describedBy("extraDescription")} />
            <FieldErrors id="extraDescription-error" errors={err("extraDescription") ? [err("extraDescription")!] : undefined} />
          </div>
          <div className="field">
            <label htmlFor="file">Omslag (JPEG, PNG eller WebP, högst 2 MB)</label>
            <input id="file" name="file" type="file" accept="image/jpeg,image/png,image/webp" aria-invalid={err("file") ? true : undefined} aria-describedby={describedBy("file")} />
            <FieldErrors id="file-error" errors={err("file") ? [err("file")!] : undefined} />
          </div>
          <div className="actions">
            <button type="submit" name="intent" value="describe" className="primary">
              Spara beskrivning
            </button>
            <button type="submit" name="intent" value="upload">
              Ladda upp omslag
            </button>
            {selected ? <Link to={`?datum=${day}`}>Avbryt</Link> : null}
          </div>
        </Form>
      </section>

      <h2>Väntande uppladdningar</h2>
      {pending.length === 0 ? (
        <p>Inga väntande bilder.</p>
      ) : (
        <ul className="pending-list">
          {pending.map((p) => (
            <li key={p.id}>
              {p.filename} – {titleName.get(p.titleId ?? 0) ?? ""} utgåva {p.editionId}, {p.date} (uppladdad {new Date(p.createdAt).toLocaleString("sv-SE", { timeZone: "Europe/Stockholm" })})
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
      {titles.map((t) => {
        const cards = products.filter((p) => p.titleId === t.id);
        return (
          <section key={t.id} aria-labelledby={`dp-title-${t.id}`}>
            <h3 id={`dp-title-${t.id}`}>{t.name}</h3>
            {cards.length === 0 ? <p>Inga produkter.</p> : null}
            <ul className="product-cards">
              {cards.map((p) => (
                <li key={p.id} className={`card${selected?.id === p.id ? " selected" : ""}`}>
                  {p.coverImageId ? <img src={`/bilder/${p.coverImageId}`} alt={`Omslag: ${p.description}`} width={100} /> : null}
                  <div>
                    <strong>{p.description}</strong>
                    {p.extraDescription ? <p>{p.extraDescription}</p> : null}
                    <p className="hint">
                      {p.startDate === p.endDate ? p.startDate : `${p.startDate} – ${p.endDate}`}
                      {p.priceOre ? `, ${formatKr(p.priceOre)}` : ""}
                    </p>
                    <Link to={`?datum=${day}&valj=${p.id}`} aria-label={`Välj ${p.description}`}>
                      Välj
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
