// The distribution screen's GET parameters (fran, till, utom, utb, utgava) as a query, with
// the range picker's messages. Shared by the screen and the export.
import type { Role } from "~/features/staff/staff.server";
import type { DistributionQuery, DistributorScope, EditionKey } from "./distribution.server";
import { checkedPeriod, type Period } from "~/lib/period";
import { isValidDate } from "~/lib/dates";
import { param, readSearch } from "~/lib/search-params";

export function scopeFor(user: { roles: Role[]; distributorId: number | null }): DistributorScope {
  if (user.roles.includes("admin") || user.roles.includes("sales")) return { distributorIds: null };
  return { distributorIds: user.distributorId === null ? [] : [user.distributorId] };
}

export type ParsedDistributionParams =
  | { query: DistributionQuery; errors?: undefined; raw: Period }
  | { query?: undefined; errors: { from?: string; to?: string }; raw: Period };

/** The period; the days left out of it (`utom`); the distributors (`utb`) and editions (`utgava`, "title:edition") chosen. */
export const DISTRIBUTION_SEARCH = {
  period: param.period(),
  utom: param.list(/^\d{4}-\d{2}-\d{2}$/),
  utb: param.list(/^\d{1,9}$/),
  utgava: param.list(/^\d{1,4}:\d{1,4}$/),
};

export function parseDistributionParams(from: Request | URLSearchParams, defaults: Period): ParsedDistributionParams {
  const search = readSearch(from, DISTRIBUTION_SEARCH);
  const { raw, ...parsed } = checkedPeriod(search.period, defaults);
  if (parsed.errors) return { errors: parsed.errors, raw };
  const editions: EditionKey[] = search.utgava.map((v) => {
    const [titleId, editionId] = v.split(":").map(Number);
    return { titleId, editionId };
  });
  return { query: { ...parsed.period, excludeDates: search.utom.filter(isValidDate), distributorIds: search.utb.map(Number), editions }, raw };
}
