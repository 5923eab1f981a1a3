// Reads the distribution screen's GET parameters (from, to, exclude, utb, utgava) into
// a query, with the range picker's messages. Shared by the screen and the export.
import type { Role } from "~/features/staff/staff.server";
import type { DistributionQuery, DistributorScope, EditionKey } from "./distribution.server";
import { periodFromParams } from "~/lib/period";
import { isValidDate } from "~/lib/dates";

export function scopeFor(user: { roles: Role[]; distributorId: number | null }): DistributorScope {
  if (user.roles.includes("admin") || user.roles.includes("sales")) return { distributorIds: null };
  return { distributorIds: user.distributorId === null ? [] : [user.distributorId] };
}

export type ParsedDistributionParams =
  | { query: DistributionQuery; errors?: undefined; raw: { from: string; to: string } }
  | { query?: undefined; errors: { from?: string; to?: string }; raw: { from: string; to: string } };

export function parseDistributionParams(params: URLSearchParams, defaults: { from: string; to: string }): ParsedDistributionParams {
  const { raw, ...parsed } = periodFromParams(params, defaults);
  if (parsed.errors) return { errors: parsed.errors, raw };
  const excludeDates = params.getAll("exclude").filter(isValidDate);
  const distributorIds = params
    .getAll("utb")
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  const editions: EditionKey[] = params
    .getAll("utgava")
    .map((v) => /^(\d{1,4}):(\d{1,4})$/.exec(v))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ titleId: Number(m[1]), editionId: Number(m[2]) }));
  return { query: { ...parsed.period, excludeDates, distributorIds, editions }, raw };
}
