// 'Ändra Buntnummer': one small form per bundle. With JavaScript the schema checks the
// new number in the browser and Spara is disabled until it is one.
import { PAPER_TYPE_HEADING } from "~/catalog";
import { getFormProps, getInputProps } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import { BUNDLE_PAGE_SIZE } from "~/catalog";
import { RenumberBundleSchema } from "~/features/bundles";
import type { listChangeableBundles } from "~/features/bundles/index.server";
import type { FormReply } from "~/http/form.server";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { Pager, pageCount } from "~/ui/pager";
import { TableOrEmpty } from "~/ui/table";

type Changeable = Awaited<ReturnType<typeof listChangeableBundles>>;
type Bundle = Changeable["bundles"][number];

export function RenumberSection({ changeable, customerId, page }: { changeable: Changeable; customerId: number; page: number }) {
  const reply = useActionData<FormReply>();
  // The answer belongs to the row whose form was sent.
  const replyFor = (b: Bundle) => (reply?.initialValue?.intent === "change" && reply.initialValue.bundleId === String(b.id) ? reply : null);
  return (
    <section aria-label="Ändra Buntnummer">
      <TableOrEmpty empty={changeable.bundles.length === 0} emptyText="Kunden har inga buntar.">
        <thead>
          <tr>
            <th className="num">Bunt</th>
            <th>Typ</th>
            <th>Status</th>
            <th>Nytt buntnummer</th>
          </tr>
        </thead>
        <tbody>
          {changeable.bundles.map((b) => (
            <tr key={b.id}>
              <td className="num">{b.number}</td>
              <td>{PAPER_TYPE_HEADING[b.type]}</td>
              <td>
                {b.open ? "Öppen" : "Stängd"}
                {b.invoices.length > 0 ? ` · på faktura ${b.invoices.join(", ")}` : null}
              </td>
              <td>
                <RenumberForm bundle={b} customerId={customerId} page={page} lastResult={replyFor(b)} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableOrEmpty>
      <Pager page={page} pages={pageCount(changeable.total, BUNDLE_PAGE_SIZE)} />
    </section>
  );
}

function RenumberForm({ bundle: b, customerId, page, lastResult }: { bundle: Bundle; customerId: number; page: number; lastResult: FormReply | null }) {
  const [form, fields, { valid }] = useContractForm(RenumberBundleSchema, { id: `nytt-${b.id}`, lastResult });
  const { key, ...input } = getInputProps(fields.newNumber, { type: "text" });
  return (
    <Form method="post" className="inline-actions" {...getFormProps(form)}>
      <CsrfInput />
      <input type="hidden" name="kund" value={customerId} />
      <input type="hidden" name="bundleId" value={b.id} />
      <input type="hidden" name="was" value={b.number} key={b.number} />
      <input type="hidden" name="sida" value={page} />
      <label htmlFor={fields.newNumber.id} className="visually-hidden">
        Nytt buntnummer för bunt {b.number}
      </label>
      <input key={key} {...input} inputMode="numeric" size={6} />
      <button type="submit" name="intent" value="change" aria-label={`Spara nytt nummer för bunt ${b.number}`} disabled={!valid}>
        Spara
      </button>
      {/* Asked once (decision 021): the next Spara confirms the invoices named. */}
      {fields.invoiced.errors ? <input type="hidden" name="invoiced" value={b.invoices.join(",")} /> : null}
      <FieldErrors id={fields.newNumber.errorId} errors={fields.newNumber.errors ?? fields.invoiced.errors ?? form.errors} />
    </Form>
  );
}
