import type { SubmissionResult } from "@conform-to/react";
import { BANK_FIELDS, type BankField, type Refund } from "~/features/guarantees";
import { formatKr } from "~/lib/money";
import { BankDetailForm } from "./bank-detail-form";
import { DownloadButton } from "./download-button";

type Props = {
  refund: Refund & { problems: { orgNumber?: string; bank?: string } };
  search: string;
  /** The action's answer when it came from this customer's form for `field`. */
  answerFor: (field: BankField) => SubmissionResult<string[]> | null;
};

/** One customer's added pay-out: amounts, the editable bank details and its underlag. */
export function PendingRefund({ refund: r, search, answerFor }: Props) {
  return (
    <article className="card" aria-labelledby={`refund-${r.customerId}`}>
      <h3 id={`refund-${r.customerId}`}>
        {r.customerId} {r.name}
      </h3>
      <p>
        {r.amounts.map((a) => `${a.paper} ${formatKr(a.amountOre)}`).join(", ")} – utbetalas {r.refundDate}
      </p>
      {BANK_FIELDS.map((field) => (
        <BankDetailForm
          key={field}
          field={field}
          customerId={r.customerId}
          search={search}
          value={r[field]}
          rule={field === "orgNumber" ? r.problems.orgNumber : field === "bankgiro" ? r.problems.bank : undefined}
          lastResult={answerFor(field)}
        />
      ))}
      <DownloadButton fields={{ kund: String(r.customerId), intent: "underlag-customer" }} label={`Underlag ${r.customerId}`} />
    </article>
  );
}
