// The modulus-10 check digit (Luhn) of Swedish payment numbers: bankgiro numbers and OCR
// references carry it as their last digit (Bankgirot's "10-modulmetoden"), and
// organisationsnummer too (checked by the organisationsnummer library).

/** The check digit that makes `digits` + it pass luhnValid. */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // From the right, starting with the digit next to where the check digit goes: ×2, ×1, ×2, …
    let d = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether the last digit of `digits` is the Luhn check digit of the rest. */
export function luhnValid(digits: string): boolean {
  return /^\d{2,}$/.test(digits) && luhnCheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

/** `digits` with their check digit appended, a hyphen after the first `dashAfter` (seeds: 123-4566). */
export function withCheckDigit(digits: string, dashAfter: number): string {
  const all = `${digits}${luhnCheckDigit(digits)}`;
  return `${all.slice(0, dashAfter)}-${all.slice(dashAfter)}`;
}
