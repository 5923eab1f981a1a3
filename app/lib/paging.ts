/**
 * A `?sida=` page number: a whole number from 1, clamped so a huge or odd value is an
 * empty page, never an offset the database refuses.
 */
export function pageParam(value: string | null): number {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) ? Math.min(1_000_000, Math.max(1, n)) : 1;
}

/** Pages needed for `total` rows, at least 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
