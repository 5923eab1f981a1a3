// Ny produkt eller nytt pris (Dagens produkter): an admin creates a product for a title,
// edition and first day, or prices the one there is, in the browser; the products file
// (`portal import products`) does the same for many. Its cover and extra description are
// added on Dagens produkter.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { DailyProductCreateSchema, splitEdition } from "~/features/products";
import { listEditions, listTitles, saveDailyProduct } from "~/features/products/index.server";
import { handleForm } from "~/http/form.server";
import { today } from "~/lib/dates";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { TitleEditionFields } from "~/ui/select-field";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Ny produkt – Returportalen" }];

const NEW_PRODUCT_SEARCH = { datum: param.date() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const { datum: asked } = readSearch(request, NEW_PRODUCT_SEARCH);
  const [titles, editions] = await Promise.all([listTitles(), listEditions()]);
  return { day: asked ?? today(), titles, editions };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, DailyProductCreateSchema, async (v) => {
    const { editionId } = splitEdition(v.edition);
    const { id, created } = await saveDailyProduct(
      { titleId: v.titleId, editionId, date: v.date, endDate: v.endDate, heading: v.heading, description: v.description, priceOre: v.price, eanCode: v.eanCode },
      user.actor,
    );
    const what = `${v.description} ${v.date}, ${formatKr(v.price)}`;
    return redirectWithToast(request, `/admin/dailyproducts?datum=${v.date}&valj=${id}`, created ? `Produkten är tillagd: ${what}.` : `Produkten är uppdaterad: ${what}.`);
  });
}

export default function NewDailyProduct() {
  const { day, titles, editions } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields, { valid }] = useContractForm(DailyProductCreateSchema, { id: "new-daily-product", lastResult, defaultValue: { date: day, endDate: day } });
  return (
    <>
      <p>
        <Link to={`/admin/dailyproducts?datum=${day}`}>Dagens produkter</Link>
      </p>
      <h1>Ny produkt eller nytt pris</h1>
      <p>En produkt finns per titel, utgåva och första dag. Finns den redan får den de nya uppgifterna och priset; omslag och extra beskrivning står kvar.</p>
      <Form method="post" className="card" {...getFormProps(form)}>
        <CsrfInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        <div className="form-row">
          <TitleEditionFields titles={titles} editions={editions} titleField={fields.titleId} editionField={fields.edition} />
        </div>
        <div className="form-row">
          <Field label="Första dag" field={fields.date} type="date" />
          <Field label="Sista dag" field={fields.endDate} type="date" />
        </div>
        <div className="form-row">
          <Field label="Beskrivning" field={fields.description} />
          <Field label="Rubrik" field={fields.heading} />
        </div>
        <div className="form-row">
          <Field label="Pris (kr)" field={fields.price} inputProps={{ inputMode: "decimal", autoComplete: "off" }} />
          <Field label="EAN-kod" field={fields.eanCode} inputProps={{ inputMode: "numeric", autoComplete: "off" }} />
        </div>
        <div className="actions">
          <SubmitButton valid={valid}>Spara produkten</SubmitButton>
          <Link to={`/admin/dailyproducts?datum=${day}`}>Avbryt</Link>
        </div>
      </Form>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
