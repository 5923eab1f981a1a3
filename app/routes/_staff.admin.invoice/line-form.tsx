// The form of one extra invoice line (new or changed). With JavaScript the line schema
// checks each field as it is left, and 'Lägg till'/'Uppdatera' is disabled while the
// form is invalid; the server checks again (and whether the customer exists).
import { getFormProps } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { MAGAZINES, NEWSPAPER_VAT, PRODUCT_GROUPS, VAT_OPTIONS } from "~/catalog";
import { SaveLineSchema } from "~/features/invoices";
import type { FormReply } from "~/http/form.server";
import { formatOre } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { Field, FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { SaveActions } from "~/ui/save-actions";
import { SelectField } from "~/ui/select-field";
import type { listDrafts } from "~/features/invoices/index.server";

export type Line = Awaited<ReturnType<typeof listDrafts>>[number];

function valuesOf(line: Line) {
  return {
    magazineTitle: line.magazineTitle,
    customerNumber: String(line.customerId),
    productGroup: line.productGroup,
    articleId: line.articleId,
    articleName: line.articleName,
    editionId: line.editionId === null ? "" : String(line.editionId),
    productCode: line.productCode,
    deliveryDate: line.deliveryDate,
    deliveredAmount: String(line.deliveredAmount),
    reclaimAmount: String(line.reclaimAmount),
    grossPrice: formatOre(line.grossPriceOre).replace(/\s/g, ""),
    nettoPrice: formatOre(line.nettoPriceOre).replace(/\s/g, ""),
    vat: String(line.vatPermille / 10),
    profitPercentage: String(line.profitPercentage),
    ediReferenceText: line.ediReferenceText,
  };
}

export function LineForm({ editing }: { editing: Line | null }) {
  const reply = useActionData<FormReply>();
  const lastResult = reply?.initialValue?.intent === "save-line" ? reply : null;
  const [form, fields, { valid }] = useContractForm(SaveLineSchema, {
    id: `line-${editing?.id ?? "new"}`,
    lastResult,
    defaultValue: editing ? valuesOf(editing) : { vat: String(NEWSPAPER_VAT), reclaimAmount: "0" },
  });
  return (
    <section className="card dialog-panel" aria-labelledby="line-form-title">
      <h2 id="line-form-title">{editing ? "Ändra fakturarad" : "Lägg till fakturarad"}</h2>
      <Form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <FieldErrors id={form.errorId} errors={form.errors} />
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <div className="form-row">
          <SelectField label="Tidning" field={fields.magazineTitle} placeholder="Välj tidning" options={MAGAZINES.map((m) => ({ value: m, label: m }))} />
          <Field label="Kundnummer" field={fields.customerNumber} inputProps={{ inputMode: "numeric" }} />
          <SelectField label="Produktgrupp" field={fields.productGroup} placeholder="Välj produktgrupp" options={PRODUCT_GROUPS.map((m) => ({ value: m, label: m }))} />
        </div>
        <div className="form-row">
          <Field label="Artikel-id" field={fields.articleId} />
          <Field label="Artikelnamn" field={fields.articleName} />
          <Field label="Utgåva (id)" field={fields.editionId} inputProps={{ inputMode: "numeric" }} />
          <Field label="Produktkod" field={fields.productCode} />
        </div>
        <div className="form-row">
          <Field label="Leveransdatum" field={fields.deliveryDate} type="date" />
          <Field label="Levererat antal" field={fields.deliveredAmount} inputProps={{ inputMode: "numeric" }} />
          <Field label="Reklamerat antal" field={fields.reclaimAmount} inputProps={{ inputMode: "numeric" }} />
        </div>
        <div className="form-row">
          <Field label="Nettopris (kr)" field={fields.nettoPrice} inputProps={{ inputMode: "decimal" }} />
          <SelectField label="Moms (%)" field={fields.vat} options={VAT_OPTIONS.map((v) => ({ value: String(v), label: `${v},0` }))} />
          <Field label="Bruttopris (kr)" field={fields.grossPrice} inputProps={{ inputMode: "decimal" }} hint="Räknas ut för Exponeringsutrustning." />
          <Field label="Marginal (%)" field={fields.profitPercentage} inputProps={{ inputMode: "numeric" }} />
        </div>
        <Field label="EDI-referens" field={fields.ediReferenceText} />
        <SaveActions editing={!!editing} intent="save-line" newLabel="Lägg till" valid={valid}>
          <Link to="?flik=poster">Avbryt</Link>
        </SaveActions>
      </Form>
    </section>
  );
}
