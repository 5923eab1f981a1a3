// 'Exponeringsutrustning': upload an order file (CSV), transfer the uploaded lines to
// the invoice run, delete lines or whole files.
import { getFormProps } from "@conform-to/react";
import { Form, useActionData } from "@remix-run/react";
import { UploadOrdersSchema } from "~/features/invoices";
import type { listOrderFiles } from "~/features/invoices/index.server";
import type { FormReply } from "~/http/form.server";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { SubmitButton, useContractForm } from "~/ui/form";
import { ConfirmAction } from "~/ui/confirm";
import { ActionsHeader } from "~/ui/table";

type Files = Awaited<ReturnType<typeof listOrderFiles>>;

function UploadForm() {
  const reply = useActionData<FormReply>();
  // The upload's answer carries its messages on the file field: the reason first, then
  // the refused lines.
  const lastResult = reply?.error?.file ? reply : null;
  const [form, fields] = useContractForm(UploadOrdersSchema, { id: "upload-orders", lastResult });
  const [message, ...problems] = fields.file.errors ?? [];
  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Ladda upp beställningar (CSV)</h2>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <CsrfInput />
        <div className="field">
          <label htmlFor={fields.file.id}>Fil</label>
          <input id={fields.file.id} name={fields.file.name} type="file" accept=".csv,text/csv" aria-describedby={`${fields.file.id}-hint`} aria-invalid={message ? true : undefined} />
          <small id={`${fields.file.id}-hint`} className="hint">
            Kolumner: customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger (pris i öre, högst 5 MB).
          </small>
        </div>
        {message ? (
          <div id={fields.file.errorId} className="field-error" role="alert">
            <p>{message}</p>
            {problems.length > 0 ? (
              <ul>
                {problems.slice(0, 100).map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <SubmitButton intent="upload">Ladda upp</SubmitButton>
      </Form>
    </section>
  );
}

export function OrdersTab({ files }: { files: Files }) {
  const reply = useActionData<FormReply>();
  const rowRefused = reply?.error?.file ? undefined : reply?.error?.[""] ?? undefined;
  return (
    <>
      <FieldErrors errors={rowRefused} />
      <UploadForm />
      <Form method="post" className="actions">
        <CsrfInput />
        <button type="submit" name="intent" value="transfer" className="primary" disabled={!files.some((f) => f.lines.some((l) => !l.transferredAt))}>
          Överför till fakturering
        </button>
      </Form>
      {files.length === 0 ? <p>Inga uppladdade rader.</p> : null}
      {files.map((f) => (
        <section key={f.fileId} aria-label={`Fil ${f.filename}`}>
          <h3>
            {f.filename} ({f.lines.length} rader)
          </h3>
          <p className="actions">
            <ConfirmAction
              confirm={`fil-${f.fileId}`}
              label="Ta bort filen"
              ariaLabel={`Ta bort filen ${f.filename}`}
              title="Ta bort filen?"
              intent="delete-order-file"
              fields={{ id: f.fileId }}
              confirmLabel="Ta bort filen"
            >
              <p>
                {f.filename} och dess {f.lines.length} rader tas bort.
              </p>
            </ConfirmAction>
          </p>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Kund</th>
                  <th>Datum</th>
                  <th>Artikel</th>
                  <th>Beskrivning</th>
                  <th className="num">Antal</th>
                  <th className="num">Pris</th>
                  <th>Reskontra</th>
                  <th>Status</th>
                  <ActionsHeader />
                </tr>
              </thead>
              <tbody>
                {f.lines.map((l) => (
                  <tr key={l.id}>
                    <td>{l.customerId}</td>
                    <td>{l.orderDate}</td>
                    <td>{l.articleNumber}</td>
                    <td>{l.articleDescription}</td>
                    <td className="num">{l.amount}</td>
                    <td className="num">{formatKr(l.priceOre)}</td>
                    <td>{l.ledger}</td>
                    <td>{l.transferredAt ? "Överförd" : "Ej överförd"}</td>
                    <td>
                      <ConfirmAction
                        confirm={`orderrad-${l.id}`}
                        label="Ta bort"
                        ariaLabel={`Ta bort rad ${l.articleNumber} för ${l.customerId}`}
                        className="link-button"
                        title="Ta bort raden?"
                        intent="delete-order"
                        fields={{ id: l.id }}
                        confirmLabel="Ta bort raden"
                      >
                        <p>
                          {l.articleDescription} ({l.articleNumber}) för kund {l.customerId}, {l.amount} st à {formatKr(l.priceOre)}.
                        </p>
                      </ConfirmAction>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>
  );
}
