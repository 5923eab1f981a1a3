import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { ProductActionSchema, ProductSaveSchema, splitEdition } from "~/features/products";
import { deleteProduct, getProduct, listEditions, listProducts, listTitles, saveProduct } from "~/features/products/index.server";
import { handleForm } from "~/http/form.server";
import { parseId } from "~/lib/ids";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { ConfirmDialog, ConfirmLink, useConfirming } from "~/ui/confirm";
import { SaveActions } from "~/ui/save-actions";
import { StoredNow, VersionInput } from "~/ui/stored-now";
import { TitleEditionFields } from "~/ui/select-field";
import { ActionsHeader, TableOrEmpty } from "~/ui/table";
import { param, readSearch } from "~/lib/search-params";

export const meta: MetaFunction = () => [{ title: "Produkt information – Returportalen" }];

const PRODUCTS_SEARCH = { redigera: param.id() };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, ["admin"]);
  const editId = readSearch(request, PRODUCTS_SEARCH).redigera;
  const [titles, editions, products, editing] = await Promise.all([
    listTitles(),
    listEditions(),
    listProducts(),
    editId !== null ? getProduct(editId) : null,
  ]);
  return { titles, editions, products, editing };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStaff(request, context, ["admin"]);
  return handleForm(request, ProductActionSchema, async (v) => {
    switch (v.intent) {
      case "delete": {
        const id = parseId(v.id);
        // Twice (two tabs, a double press): not an error, what was asked for holds.
        if (id === null || !(await deleteProduct(id, user.actor))) return redirectWithToast(request, "/admin/products", "Raden var redan borttagen.");
        return redirectWithToast(request, "/admin/products", "Produktinformationen borttagen.");
      }
      default:
        await saveProduct({ ...v, editionId: splitEdition(v.edition).editionId }, user.actor);
        return redirectWithToast(request, "/admin/products", "Produktinformationen sparad.");
    }
  });
}

// A refused save because someone else changed the row (409) shows what is stored now.
export { revalidateOnConflict as shouldRevalidate } from "~/ui/stored-now";

export default function ProductsAdmin() {
  const { titles, editions, products, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const confirming = useConfirming();
  const [form, fields, { valid }] = useContractForm(ProductSaveSchema, {
    id: `product-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing
      ? { productCode: editing.productCode, accountCode: editing.accountCode, articleId: editing.articleId, id: String(editing.id), titleId: String(editing.titleId), edition: `${editing.titleId}:${editing.editionId}`, deliveryDate: editing.deliveryDate ?? "" }
      : null,
  });
  return (
    <>
      <h1>Produkt information</h1>
      <section className="card" aria-labelledby="product-form-title">
        <h2 id="product-form-title">{editing ? "Ändra produktinformation" : "Ny produktinformation"}</h2>
        <Form method="post" {...getFormProps(form)}>
          <CsrfInput />
          <FieldErrors id={form.errorId} errors={form.errors} />
          {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
          {editing ? <VersionInput version={editing.updatedAt} /> : null}
          {editing ? (
            <StoredNow
              conflict={fields.version.errors}
              rows={[
                ["Titel", titles.find((t) => t.id === editing.titleId)?.name ?? String(editing.titleId)],
                ["Utgåva", editions.find((e) => e.titleId === editing.titleId && e.editionId === editing.editionId)?.description ?? String(editing.editionId)],
                ["Leveransdatum", editing.deliveryDate ?? "Alla"],
                ["Produktkod", editing.productCode],
                ["Kontokod", editing.accountCode],
                ["Artikel-id", editing.articleId],
              ]}
            />
          ) : null}
          <div className="form-row">
            <TitleEditionFields titles={titles} editions={editions} titleField={fields.titleId} editionField={fields.edition} withCode />
            <Field label="Leveransdatum (valfritt)" field={fields.deliveryDate} type="date" />
          </div>
          <div className="form-row">
            <Field label="Produktkod" field={fields.productCode} />
            <Field label="Kontokod" field={fields.accountCode} />
            <Field label="Artikel-id" field={fields.articleId} hint="Tomt ger utgåvans kod." />
          </div>
          <SaveActions editing={!!editing} valid={valid}>{editing ? <Link to="/admin/products">Avbryt</Link> : null}</SaveActions>
        </Form>
      </section>
      {titles.map((t) => {
        const rows = products.filter((p) => p.titleId === t.id);
        return (
          <section key={t.id} aria-labelledby={`title-${t.id}`}>
            <h2 id={`title-${t.id}`}>{t.name}</h2>
            <TableOrEmpty empty={rows.length === 0} emptyText="Ingen produktinformation.">
              <thead>
                <tr>
                  <th>Utgåva</th>
                  <th>Leveransdatum</th>
                  <th>Produktkod</th>
                  <th>Kontokod</th>
                  <th>Artikel-id</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id}>
                    <td>{p.edition ?? p.editionId}</td>
                    <td>{p.deliveryDate ?? "Alla"}</td>
                    <td>{p.productCode}</td>
                    <td>{p.accountCode}</td>
                    <td>{p.articleId}</td>
                    <td>
                      <span className="inline-actions">
                        <Link to={`?redigera=${p.id}`} aria-label={`Ändra ${p.productCode}`}>
                          Ändra
                        </Link>
                        <ConfirmLink confirm={`ta-bort-${p.id}`} label="Ta bort" ariaLabel={`Ta bort ${p.productCode}`} />
                      </span>
                      {confirming === `ta-bort-${p.id}` ? (
                        <ConfirmDialog title="Ta bort produktinformationen?" intent="delete" fields={{ id: p.id }} confirmLabel="Ta bort">
                          <p>
                            {p.edition ?? p.editionId}, {p.deliveryDate ?? "alla leveransdagar"}: produktkod {p.productCode}, kontokod {p.accountCode}.
                          </p>
                        </ConfirmDialog>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableOrEmpty>
          </section>
        );
      })}
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/ui/route-error";
