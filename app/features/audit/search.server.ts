// The audit log screen: search the trail by who, which customer, what kind of
// action and when; sorted, paged, and exported to Excel with the same filters. The
// `at` index serves the date range; the action prefix and the customer are narrowed
// in the same query.
import { and, asc, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { addDays, stockholmMidnight } from "~/lib/dates";
import { textMatcher } from "~/lib/search-text";
import { AUDIT_GROUPS, type AuditGroupId } from "./groups";

export { AUDIT_GROUPS, actionGroupLabel, type AuditGroupId } from "./groups";

export type AuditSortColumn = "tid" | "vem" | "handelse";
export const AUDIT_SORT_COLUMNS: readonly AuditSortColumn[] = ["tid", "vem", "handelse"];
export const AUDIT_PAGE_SIZE = 50;

export type AuditQuery = {
  /** "staff:7", "cli", "customer:123", a customer number, or part of a staff user's e-mail or name. */
  actor?: string;
  /** A customer number: rows by the customer or about them. */
  customerId?: number | null;
  group?: AuditGroupId | null;
  /** Stockholm dates, inclusive. */
  from?: string;
  to?: string;
  sort?: { column: AuditSortColumn; descending: boolean };
  page?: number;
};

/** The actor keys a "Vem" text stands for: itself, a customer, or every staff user whose e-mail or name holds it. */
async function actorKeys(actor: string): Promise<string[] | null> {
  const text = actor.trim();
  if (!text) return null;
  if (/^(staff|customer):\d+$|^cli$|^anonymous$/.test(text)) return [text];
  if (/^\d{1,5}$/.test(text)) return [`customer:${Number(text)}`];
  // The staff list is short (hundreds at most): matched here, with the same folding as
  // every search box (case and accents: "sahin" finds "Şahin"), which SQLite's lower() lacks.
  const matches = textMatcher(text);
  const staff = (await getDb().select({ id: schema.staffUsers.id, email: schema.staffUsers.email, name: schema.staffUsers.name }).from(schema.staffUsers)).filter((s) => matches(s.email, s.name));
  return staff.length ? staff.map((row) => `staff:${row.id}`) : [`unknown:${text}`];
}

async function whereOf(query: AuditQuery): Promise<SQL | undefined> {
  const a = schema.auditLog;
  const parts: (SQL | undefined)[] = [];
  if (query.from) parts.push(gte(a.at, stockholmMidnight(query.from)));
  if (query.to) parts.push(lt(a.at, stockholmMidnight(addDays(query.to, 1))));
  const actors = query.actor ? await actorKeys(query.actor) : null;
  if (actors) parts.push(inArray(a.actor, actors));
  if (query.customerId) {
    const key = `customer:${query.customerId}`;
    parts.push(or(eq(a.actor, key), eq(a.target, key), eq(a.onBehalfOf, key)));
  }
  const group = AUDIT_GROUPS.find((g) => g.id === query.group);
  if (group) parts.push(or(...group.prefixes.map((p) => like(a.action, `${p}%`))));
  return and(...parts);
}

export type AuditRow = {
  id: number;
  at: number;
  actor: string;
  actorName: string | null;
  onBehalfOf: string | null;
  action: string;
  target: string | null;
  /** The target's name (a customer's, a staff user's e-mail, a holiday's, a distributor's), for Logg's words. */
  targetName: string | null;
  detail: string | null;
  ip: string | null;
};


function select() {
  const a = schema.auditLog;
  return getDb()
    .select({
      id: a.id,
      at: a.at,
      actor: a.actor,
      actorName: sql<string | null>`case when ${a.actor} like 'staff:%' then (select email from staff_users s where s.id = cast(substr(${a.actor}, 7) as integer)) end`,
      onBehalfOf: a.onBehalfOf,
      action: a.action,
      target: a.target,
      targetName: sql<string | null>`case
        when ${a.target} like 'customer:%' then (select name from customers c where c.id = cast(substr(${a.target}, 10) as integer))
        when ${a.target} like 'staff:%' then (select email from staff_users s where s.id = cast(substr(${a.target}, 7) as integer))
        when ${a.target} like 'holiday:%' then (select description from holidays h where h.id = cast(substr(${a.target}, 9) as integer))
        when ${a.target} like 'distributor:%' then (select name from distributors d where d.id = cast(substr(${a.target}, 13) as integer))
      end`,
      detail: a.detail,
      ip: a.ip,
    })
    .from(a);
}

function orderOf(query: AuditQuery) {
  const a = schema.auditLog;
  const column = { tid: a.at, vem: a.actor, handelse: a.action }[query.sort?.column ?? "tid"];
  const direction = query.sort ? (query.sort.descending ? desc : asc) : desc;
  return [direction(column), desc(a.id)] as const;
}

/** One page of the trail, newest first unless sorted otherwise. */
export async function searchAudit(query: AuditQuery): Promise<{ rows: AuditRow[]; total: number; page: number; pages: number }> {
  const where = await whereOf(query);
  const [{ total }] = await getDb().select({ total: sql<number>`count(*)` }).from(schema.auditLog).where(where);
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  const rows = await select()
    .where(where)
    .orderBy(...orderOf(query))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { rows, total, page, pages };
}

/** Every matching row, a page at a time (the Excel export). */
export async function* auditRows(query: AuditQuery, pageSize = 2000): AsyncGenerator<AuditRow> {
  const where = await whereOf(query);
  for (let offset = 0; ; offset += pageSize) {
    const rows = await select()
      .where(where)
      .orderBy(...orderOf(query))
      .limit(pageSize)
      .offset(offset);
    yield* rows;
    if (rows.length < pageSize) return;
  }
}

