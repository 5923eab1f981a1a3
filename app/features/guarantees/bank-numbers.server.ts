// A customer's payout details checked by the banks' rules (app/lib/bank-numbers.server.ts):
// the value to store in one written form, or the Swedish reason it is refused
// (docs/decisions/020-payout-details.md).
import { bankAccountOf, bankgiroOf, orgNumberOf } from "~/lib/bank-numbers.server";
import type { BankField } from "./schemas";

export const BANK_NUMBER_PROBLEMS: Record<BankField, string> = {
  bankgiro: "Bankgironumret stämmer inte: 7–8 siffror där den sista är en kontrollsiffra, t.ex. 5050-1055.",
  bankAccount: "Kontonumret stämmer inte med bankens regler: clearingnummer och kontonummer, t.ex. 6000, 123 456 789.",
  orgNumber: "Organisationsnumret stämmer inte: 10 siffror där den sista är en kontrollsiffra, t.ex. 556016-0680.",
};

const CHECKS: Record<BankField, (raw: string) => string | null> = { bankgiro: bankgiroOf, bankAccount: bankAccountOf, orgNumber: orgNumberOf };

/** The value to store for a detail ("" clears it), or the reason it is refused. */
export function checkBankDetail(field: BankField, raw: string): { value: string } | { problem: string } {
  const trimmed = raw.trim();
  if (trimmed === "") return { value: "" };
  const value = CHECKS[field](trimmed);
  return value === null ? { problem: BANK_NUMBER_PROBLEMS[field] } : { value };
}

/** Whether a stored detail would be refused today (entered before the checks, or imported). */
export function storedDetailProblem(field: BankField, stored: string): string | null {
  const result = checkBankDetail(field, stored);
  return "problem" in result ? result.problem : null;
}
