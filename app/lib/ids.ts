/**
 * A row id from a form field or query parameter: plain digits, 1 to 2^53 − 1. Anything
 * else ("NaN", "1e309", "Infinity", "-1", "0", "0x1F", " 7", "1.5", 20 digits, a file)
 * is null, so a forged value is answered as "not found" and never reaches a query.
 */
export function parseId(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}
