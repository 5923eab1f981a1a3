// The audit screen's filters from the URL (the screen and its Excel export read them the same way).
import { isValidDate } from "~/lib/dates";
import { param, readSearch } from "~/lib/search-params";
import { AUDIT_GROUPS, AUDIT_SORT_COLUMNS, type AuditGroupId, type AuditQuery } from "./search.server";

/** The filters as typed (the form shows them again), the order and the page. */
const AUDIT_SEARCH = {
  vem: param.typed(200),
  kund: param.typed(10),
  typ: param.typed(40),
  fran: param.typed(10),
  till: param.typed(10),
  sort: param.sort(AUDIT_SORT_COLUMNS, { column: "tid", descending: true }),
  sida: param.page(),
};

export function readAuditQuery(source: Request | URLSearchParams) {
  const { sida, sort, ...typed } = readSearch(source, AUDIT_SEARCH);
  const form = { vem: typed.vem ?? "", kund: typed.kund ?? "", typ: typed.typ ?? "", fran: typed.fran ?? "", till: typed.till ?? "" };
  const kund = form.kund.trim().replace(/^0+(?=\d)/, "");
  const group = AUDIT_GROUPS.some((g) => g.id === form.typ) ? (form.typ as AuditGroupId) : null;
  const from = isValidDate(form.fran) ? form.fran : undefined;
  const to = isValidDate(form.till) ? form.till : undefined;
  const periodError = from && to && from > to ? "Felaktig period" : null;
  const query: AuditQuery = {
    actor: form.vem,
    customerId: /^\d{1,5}$/.test(kund) ? Number(kund) : null,
    group,
    from,
    to,
    sort,
    page: sida,
  };
  return { query, form, periodError };
}
