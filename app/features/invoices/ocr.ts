// The invoice's OCR reference: the invoice number followed by its modulus-10 (Luhn) check
// digit — the "variable length with check digit" kind Bankgirot's OCR service checks
// (docs/formats.md, "OCR reference"). Derived from the number, so it never changes and
// every copy of the invoice shows the same one.
import { luhnCheckDigit, luhnValid } from "~/lib/luhn";

export function ocrReference(invoiceNumber: number): string {
  const digits = String(invoiceNumber);
  return `${digits}${luhnCheckDigit(digits)}`;
}

/** The invoice number an OCR reference pays, or null when its check digit is wrong. */
export function invoiceNumberOfOcr(ocr: string): number | null {
  const digits = ocr.replace(/\s/g, "");
  return /^\d{2,16}$/.test(digits) && luhnValid(digits) ? Number(digits.slice(0, -1)) : null;
}
