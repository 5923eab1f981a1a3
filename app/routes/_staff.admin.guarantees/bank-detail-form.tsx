import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { BankDetailFormSchema, type BankField } from "~/features/guarantees";
import { CsrfInput } from "~/ui/csrf";
import { FieldErrors } from "~/ui/field";
import { useContractForm } from "~/ui/form";

export const BANK_FIELD_TEXT: Record<BankField, { label: string; ok: string; fail: string }> = {
  bankgiro: { label: "Bankgiro", ok: "Bankgiro uppdaterat!", fail: "Misslyckades med att uppdatera bankgiro." },
  bankAccount: { label: "Bankkonto", ok: "Bankaccount uppdaterat!", fail: "Misslyckades med att uppdatera bankaccount." },
  orgNumber: { label: "Orgnummer", ok: "Orgnummer uppdaterat!", fail: "Misslyckades med att uppdatera orgnummer." },
};

type Props = {
  field: BankField;
  customerId: number;
  search: string;
  value: string;
  /** What the payout checks say about this detail (e.g. 'Obligatorisk.'). */
  rule?: string;
  /** The action's answer, when it was this form's. */
  lastResult: SubmissionResult<string[]> | null;
};

/** One bank detail of one customer in the added pay-outs, saved on its own. */
export function BankDetailForm({ field, customerId, search, value, rule, lastResult }: Props) {
  const [form, fields, { valid }] = useContractForm(BankDetailFormSchema, {
    id: `${field}-${customerId}`,
    lastResult,
    defaultValue: { kund: String(customerId), search, value },
  });
  const errors = [...(fields.value.errors ?? []), ...(form.errors ?? []), ...(rule ? [rule] : [])];
  const { key, ...inputProps } = getInputProps(fields.value, { type: "text", ariaDescribedBy: errors.length > 0 ? fields.value.errorId : undefined });
  const text = BANK_FIELD_TEXT[field];
  return (
    <Form method="post" className="inline-field" {...getFormProps(form)}>
      <CsrfInput />
      <input {...getInputProps(fields.kund, { type: "hidden" })} key={fields.kund.key} />
      <input {...getInputProps(fields.search, { type: "hidden" })} key={fields.search.key} />
      {/* The stored value (from the loader, not the echoed one): a save over another value is refused. */}
      <input type="hidden" name="was" value={value} key={`was-${value}`} />
      <label htmlFor={fields.value.id}>{text.label}</label>
      <input key={key} {...inputProps} inputMode="numeric" aria-invalid={errors.length > 0 ? true : undefined} />
      <button type="submit" name="intent" value={field} disabled={!valid} aria-label={`Spara ${text.label.toLowerCase()} för ${customerId}`}>
        Spara
      </button>
      <FieldErrors id={fields.value.errorId} errors={errors.length > 0 ? errors : undefined} />
    </Form>
  );
}
