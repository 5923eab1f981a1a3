// The audit screen's filters from the URL (the screen and its Excel export read them the same way).
import { isValidDate } from "~/lib/dates";
import { pageParam } from "~/lib/paging";
import { readSort } from "~/lib/sort";
import { AUDIT_GROUPS, type AuditGroupId, type AuditQuery, type AuditSortColumn } from "./search.server";

export function readAuditQuery(url: URL, columns: readonly AuditSortColumn[]) {
  const p = url.searchParams;
  const text = (name: string, max: number) => (p.get(name) ?? "").slice(0, max);
  const form = { vem: text("vem", 200), kund: text("kund", 10), typ: text("typ", 40), fran: text("fran", 10), till: text("till", 10) };
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
    sort: readSort(url, columns, { column: "tid", descending: true }),
    page: pageParam(p.get("sida")),
  };
  return { query, form, periodError };
}
