import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { BANK_FIELDS, RefundDateFormSchema, type BankField, type Refund } from "~/features/guarantees";
import { formatKr } from "~/lib/money";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";
import { RowAction } from "~/ui/row-action";
import { BankDetailForm } from "./bank-detail-form";
import { DownloadButton } from "./download-button";

type Props = {
  refund: Refund & { problems: { orgNumber?: string; bank?: string; bankgiro?: string; bankAccount?: string } };
  search: string;
  /** The action's answer when it came from this customer's form for `field`. */
  answerFor: (field: BankField | "refund-date") => SubmissionResult<string[]> | null;
};

/**
 * One customer's added pay-out: its amounts (each can be taken back while not completed),
 * the refund date, the editable bank details and its underlag.
 */
export function PendingRefund({ refund: r, search, answerFor }: Props) {
  return (
    <article className="card" aria-labelledby={`refund-${r.customerId}`}>
      <h3 id={`refund-${r.customerId}`}>
        {r.customerId} {r.name}
      </h3>
      <ul className="plain-list">
        {r.amounts.map((a) => (
          <li key={a.guaranteeId} className="inline-actions">
            {a.paper} {formatKr(a.amountOre)}
            <RowAction
              intent="undo-refund"
              fields={{ kund: r.customerId, guaranteeId: a.guaranteeId, search }}
              label="Ångra"
              ariaLabel={`Ångra utbetalning ${a.paper} ${formatKr(a.amountOre)} till ${r.customerId}`}
              className="inline-form"
              buttonClassName="link-button"
            />
          </li>
        ))}
      </ul>
      <RefundDateForm customerId={r.customerId} search={search} refundDate={r.refundDate} lastResult={answerFor("refund-date")} />
      {BANK_FIELDS.map((field) => (
        <BankDetailForm
          // A new form after every save (the row's version changes), so the field shows what
          // is stored — an emptied field shows empty, never the '-1' the old client sent.
          key={`${field}-${r.version ?? 0}`}
          field={field}
          customerId={r.customerId}
          search={search}
          value={r[field]}
          rule={field === "orgNumber" ? r.problems.orgNumber : field === "bankgiro" ? (r.problems.bank ?? r.problems.bankgiro) : r.problems.bankAccount}
          lastResult={answerFor(field)}
        />
      ))}
      <DownloadButton fields={{ kund: String(r.customerId), intent: "underlag-customer" }} label={`Underlag ${r.customerId}`} />
    </article>
  );
}

function RefundDateForm({ customerId, search, refundDate, lastResult }: { customerId: number; search: string; refundDate: string; lastResult: SubmissionResult<string[]> | null }) {
  const [form, fields, { valid }] = useContractForm(RefundDateFormSchema, {
    id: `refund-date-${customerId}-${refundDate}`,
    lastResult,
    defaultValue: { kund: String(customerId), search, refundDate },
  });
  const { key, ...inputProps } = getInputProps(fields.refundDate, { type: "date", ariaDescribedBy: fields.refundDate.errors ? fields.refundDate.errorId : undefined });
  return (
    <Form method="post" className="inline-field" {...getFormProps(form)}>
      <CsrfInput />
      <input {...getInputProps(fields.kund, { type: "hidden" })} key={fields.kund.key} />
      <input {...getInputProps(fields.search, { type: "hidden" })} key={fields.search.key} />
      <label htmlFor={fields.refundDate.id}>Utbetalningsdatum</label>
      <input key={key} {...inputProps} />
      <button type="submit" name="intent" value="refund-date" disabled={!valid} aria-label={`Spara utbetalningsdatum för ${customerId}`}>
        Spara
      </button>
      <FieldErrors id={fields.refundDate.errorId} errors={fields.refundDate.errors ?? form.errors} />
    </Form>
  );
}
