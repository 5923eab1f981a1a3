// The payout file per title (garantibelopp), one row per customer. The spec names
// the file but not its columns; these are our choice (docs/decisions/ 'payout files'):
//   kundnummer;namn;orgnummer;bankgiro;bankkonto;belopp;utbetalningsdatum
// `;`-separated like the other files, UTF-8 with a BOM (Excel reads å/ä/ö then),
// CRLF, `belopp` in kronor with a decimal comma and two decimals, no thousands
// separator (1234,50), `utbetalningsdatum` YYYY-MM-DD. Text that a spreadsheet would
// take for a formula starts with `'` (spreadsheet-cells.server.ts).
import type { Refund } from "./refund";
import { csvLine } from "~/lib/spreadsheet-cells.server";

export const PAYOUT_CSV_COLUMNS = ["kundnummer", "namn", "orgnummer", "bankgiro", "bankkonto", "belopp", "utbetalningsdatum"] as const;

/** 123450 öre -> "1234,50" */
export function kronor(ore: number): string {
  const sign = ore < 0 ? "-" : "";
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

/** `refunds` already holds only the amounts of one title. */
export function buildPayoutCsv(refunds: Refund[]): string {
  const lines = [csvLine(PAYOUT_CSV_COLUMNS)];
  for (const r of refunds) {
    const total = r.amounts.reduce((s, a) => s + a.amountOre, 0);
    lines.push(csvLine([r.customerId, r.name, r.orgNumber, r.bankgiro, r.bankAccount, { number: kronor(total) }, r.refundDate]));
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
