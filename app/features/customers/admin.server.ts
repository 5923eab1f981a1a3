// The staff's customer screens: search, one customer's page, a new PIN shown
// once, add, edit the details, deactivate and reactivate. Every change is audited; a new PIN and a
// deactivation end the customer's sessions. A `utb` user sees only their distributor's
// customers (`scope`); only admins change anything (the routes' guards).
import { randomInt } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { CUSTOMER_NUMBER } from "~/catalog";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { clearThrottle } from "~/features/auth/throttle.server";
import { verifySecret } from "~/features/auth/passwords.server";
import { checkBankDetail } from "~/features/guarantees/bank-numbers.server";
import { BANK_FIELDS } from "~/features/guarantees/schemas";
import { isEmailAddress } from "~/lib/email";
import { refuse } from "~/lib/refusal";
import { EMAIL_MESSAGE } from "./schemas";
import { nextVersion } from "~/lib/row-version.server";
import { svCollator, textMatcher } from "~/lib/search-text";
import { setCustomerPin } from "./customers.server";
import { portalNow } from "../../../db/clock";

export type CustomerScope = { distributorIds: number[] | null };
export type CustomerSortColumn = "kundnummer" | "namn" | "ort" | "utb";
export const CUSTOMER_SORT_COLUMNS: readonly CustomerSortColumn[] = ["kundnummer", "namn", "ort", "utb"];
export const CUSTOMERS_PAGE_SIZE = 25;

export type CustomerSearch = {
  /** A customer number, or words found in the name, city or distributor's name. */
  q?: string;
  distributorId?: number | null;
  /** "aktiva" (default), "avstangda" or "alla". */
  state?: "aktiva" | "avstangda" | "alla";
  sort?: { column: CustomerSortColumn; descending: boolean };
  page?: number;
};


type CustomerRow = { id: number; name: string; city: string; zip: string; distributorId: number; distributor: string; deactivatedAt: number | null };

/**
 * One page of customers. A number or no search, sorted by number: two queries in SQL.
 * Words, or a sort by name, city or distributor: the scope's customers come back as one
 * JSON value and are matched and sorted here, because SQLite folds case for ASCII only
 * ("sahin" must find "Şahin Livs", "lodz" "Kiosk Łódź") and sorts by bytes (Å, Ä, Ö are
 * Swedish letters after Z, in that order). 6,500 customers cost a few milliseconds.
 */
export async function searchCustomers(search: CustomerSearch, scope: CustomerScope) {
  const c = schema.customers;
  const d = schema.distributors;
  const where: (SQL | undefined)[] = [];
  if (scope.distributorIds) where.push(inArray(c.distributorId, scope.distributorIds.length ? scope.distributorIds : [-1]));
  if (search.distributorId) where.push(eq(c.distributorId, search.distributorId));
  if (search.state !== "alla") where.push(search.state === "avstangda" ? sql`${c.deactivatedAt} is not null` : isNull(c.deactivatedAt));
  const q = search.q?.trim() ?? "";
  const number = q.replace(/\s+/g, "").replace(/^0+(?=\d)/, "");
  const byNumber = q !== "" && CUSTOMER_NUMBER.test(number);
  if (byNumber) where.push(eq(c.id, Number(number)));
  const words = q !== "" && !byNumber ? q : "";
  const sortColumn = search.sort?.column ?? "kundnummer";
  const condition = and(...where);
  const db = getDb();

  if (words || sortColumn !== "kundnummer") {
    const [{ listed }] = await db
      .select({ listed: sql<string>`json_group_array(json_array(${c.id}, ${c.name}, ${c.city}, ${c.zip}, ${c.distributorId}, ${d.name}, ${c.deactivatedAt}))` })
      .from(c)
      .innerJoin(d, eq(d.id, c.distributorId))
      .where(condition);
    const matches = textMatcher(words);
    const text = { kundnummer: null, namn: "name", ort: "city", utb: "distributor" } as const;
    const key = text[sortColumn];
    const sign = search.sort?.descending ? -1 : 1;
    const all = (JSON.parse(listed) as [number, string, string, string, number, string, number | null][])
      .map(([id, name, city, zip, distributorId, distributor, deactivatedAt]): CustomerRow => ({ id, name, city, zip, distributorId, distributor, deactivatedAt }))
      .filter((r) => matches(r.name, r.city, r.distributor))
      .sort((x, y) => sign * (key ? svCollator.compare(x[key], y[key]) : x.id - y.id) || x.id - y.id);
    const pages = Math.max(1, Math.ceil(all.length / CUSTOMERS_PAGE_SIZE));
    const page = Math.min(Math.max(1, search.page ?? 1), pages);
    return { rows: all.slice((page - 1) * CUSTOMERS_PAGE_SIZE, page * CUSTOMERS_PAGE_SIZE), total: all.length, page, pages };
  }

  const direction = search.sort?.descending ? desc : asc;
  const [{ total }] = await db.select({ total: sql<number>`count(*)` }).from(c).innerJoin(d, eq(d.id, c.distributorId)).where(condition);
  const pages = Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, search.page ?? 1), pages);
  const rows: CustomerRow[] = await db
    .select({ id: c.id, name: c.name, city: c.city, zip: c.zip, distributorId: c.distributorId, distributor: d.name, deactivatedAt: c.deactivatedAt })
    .from(c)
    .innerJoin(d, eq(d.id, c.distributorId))
    .where(condition)
    .orderBy(direction(c.id))
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((page - 1) * CUSTOMERS_PAGE_SIZE);
  return { rows, total, page, pages };
}

export function listDistributors() {
  const d = schema.distributors;
  return getDb().select({ id: d.id, name: d.name }).from(d).orderBy(asc(d.name));
}

/** One customer's page, or null when there is none in the scope. */
export async function customerOverview(customerId: number, scope: CustomerScope) {
  const db = getDb();
  const c = schema.customers;
  const [customer] = await db
    .select({
      id: c.id,
      ...contactColumns(),
      distributorId: c.distributorId,
      distributor: schema.distributors.name,
      hasPin: sql<number>`${c.pinHash} is not null`,
      deactivatedAt: c.deactivatedAt,
      createdAt: c.createdAt,
    })
    .from(c)
    .innerJoin(schema.distributors, eq(schema.distributors.id, c.distributorId))
    .where(eq(c.id, customerId));
  if (!customer) return null;
  if (scope.distributorIds && !scope.distributorIds.includes(customer.distributorId)) return null;
  const b = schema.bundles;
  const r = schema.returns;
  const del = schema.deliveries;
  const inv = schema.invoices;
  const [openBundles, latestReturns, invoices] = await Promise.all([
    db
      .select({ number: b.number, type: b.type, copies: sql<number>`coalesce((select sum(r.amount) from returns r where r.bundle_id = "bundles"."id"), 0)` })
      .from(b)
      .where(and(eq(b.customerId, customerId), eq(b.open, true)))
      .orderBy(asc(b.number))
      .limit(50),
    db
      .select({ deliveryDate: del.deliveryDate, titleId: del.titleId, editionId: del.editionId, edition: schema.editions.description, amount: r.amount, bundle: b.number })
      .from(r)
      .innerJoin(del, eq(del.id, r.deliveryId))
      .innerJoin(b, eq(b.id, r.bundleId))
      .leftJoin(schema.editions, and(eq(schema.editions.titleId, del.titleId), eq(schema.editions.editionId, del.editionId)))
      .where(eq(r.customerId, customerId))
      .orderBy(desc(del.deliveryDate), desc(r.id))
      .limit(10),
    db
      .select({ number: inv.number, date: inv.date, dueDate: inv.dueDate, netOre: inv.netOre, vatOre: inv.vatOre })
      .from(inv)
      .where(eq(inv.customerId, customerId))
      .orderBy(desc(inv.date), desc(inv.number))
      .limit(10),
  ]);
  return { customer: { ...customer, hasPin: Boolean(customer.hasPin) }, openBundles, latestReturns, invoices };
}

/** A new random 6-digit PIN for the customer, returned once (stored only as a hash); ends their sessions. */
export async function issueNewPin(customerId: number, actor: Actor): Promise<string> {
  const pin = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await setCustomerPin(customerId, pin, actor);
  return pin;
}

export const DEACTIVATED_LOGIN = "Kundnumret är avstängt. Kontakta kundtjänst.";

/**
 * Deactivates (no login, every session ended, data kept) or reactivates a customer.
 * False when it already was so (twice is no error).
 */
export async function setCustomerActive(customerId: number, active: boolean, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const c = schema.customers;
    const changed = await tx
      .update(c)
      .set({ deactivatedAt: active ? null : portalNow(), updatedAt: portalNow() })
      .where(and(eq(c.id, customerId), active ? sql`${c.deactivatedAt} is not null` : isNull(c.deactivatedAt)))
      .returning({ id: c.id });
    if (changed.length === 0) {
      const [exists] = await tx.select({ id: c.id }).from(c).where(eq(c.id, customerId));
      if (!exists) throw refuse.notFound(`Kund ${customerId} finns inte.`);
      return false;
    }
    let sessionsEnded = 0;
    if (!active) {
      sessionsEnded = (await tx.delete(schema.sessions).where(eq(schema.sessions.customerId, customerId))).rowsAffected;
    } else await clearThrottle(`customer:${customerId}`, tx);
    await audit({ actor, action: active ? "customer.activate" : "customer.deactivate", target: `customer:${customerId}`, detail: { sessionsEnded } }, tx);
    return true;
  });
}



/** Which customers a staff user may see: all (admin, sales) or their distributor's (utb). */
export function customerScope(user: { roles: readonly string[]; distributorId: number | null }): CustomerScope {
  if (user.roles.includes("admin") || user.roles.includes("sales")) return { distributorIds: null };
  return { distributorIds: user.distributorId !== null ? [user.distributorId] : [] };
}

/** Whether the customer exists and lies within the staff user's scope. */
export async function customerInScope(customerId: number, scope: CustomerScope): Promise<boolean> {
  const [row] = await getDb().select({ distributorId: schema.customers.distributorId }).from(schema.customers).where(eq(schema.customers.id, customerId));
  return row !== undefined && (scope.distributorIds === null || scope.distributorIds.includes(row.distributorId));
}

/** Whether `pin` is the customer's PIN now (the PIN letter prints only the PIN just issued). */
export async function isCurrentPin(customerId: number, pin: string): Promise<boolean> {
  const [row] = await getDb().select({ pinHash: schema.customers.pinHash }).from(schema.customers).where(eq(schema.customers.id, customerId));
  return verifySecret(pin, row?.pinHash);
}

export type CustomerDetails = {
  name: string;
  distributorId: number;
  address: string;
  coAddress: string;
  zip: string;
  city: string;
  contact: string;
  phone: string;
  email: string;
  orgNumber: string;
  bankgiro: string;
  bankAccount: string;
};

/** A customer's name, address and contact columns, as the customer's page and Ändra uppgifter read them. */
function contactColumns() {
  const c = schema.customers;
  return { name: c.name, address: c.address, coAddress: c.coAddress, zip: c.zip, city: c.city, contact: c.contact, phone: c.phone, email: c.email };
}

function detailColumns() {
  const c = schema.customers;
  return {
    ...contactColumns(),
    distributorId: c.distributorId,
    orgNumber: c.orgNumber,
    bankgiro: c.bankgiro,
    bankAccount: c.bankAccount,
    version: c.updatedAt,
  };
}

/** The details Uppgifter edits, with the row's version for the edit form. */
export async function getCustomerDetails(customerId: number): Promise<(CustomerDetails & { version: number }) | null> {
  const [row] = await getDb().select(detailColumns()).from(schema.customers).where(eq(schema.customers.id, customerId));
  return row ?? null;
}

export const CUSTOMER_CONFLICT =
  "Kunden har ändrats i en annan flik eller av någon annan sedan du öppnade sidan. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret. Tryck Spara igen för att spara dina ändringar över det.";

/**
 * Saves a customer's details when the row is still at `version` (the form's), audited
 * with what changed (old and new value per field). Payout details are checked by the
 * banks' rules and stored in one written form, as on Garantibelopp; one left as stored
 * is not checked again (an imported number is changed, not refused, when it is typed).
 * Refuses an unknown distributor and wrong numbers on their fields, all at once, and a
 * save over someone else's (409). Returns the names of the changed fields.
 */
export async function updateCustomerDetails(customerId: number, typed: CustomerDetails, version: number | undefined, actor: Actor): Promise<(keyof CustomerDetails)[]> {
  return writeTransaction(async (tx) => {
    const c = schema.customers;
    const [before] = await tx.select(detailColumns()).from(c).where(eq(c.id, customerId));
    if (!before) throw refuse.notFound(`Kund ${customerId} finns inte.`);
    if (version !== undefined && before.version !== version) throw refuse.conflict(CUSTOMER_CONFLICT, { field: "version" });
    const problems: Partial<Record<keyof CustomerDetails, string>> = {};
    const [distributor] = await tx.select({ id: schema.distributors.id }).from(schema.distributors).where(eq(schema.distributors.id, typed.distributorId));
    if (!distributor) problems.distributorId = "Distributören finns inte.";
    const input = { ...typed };
    if (typed.email !== before.email && typed.email !== "" && !isEmailAddress(typed.email)) problems.email = EMAIL_MESSAGE;
    for (const field of BANK_FIELDS) {
      if (typed[field].trim() === before[field]) continue;
      const checked = checkBankDetail(field, typed[field]);
      if ("problem" in checked) problems[field] = checked.problem;
      else input[field] = checked.value;
    }
    const refused = Object.values(problems);
    if (refused.length > 0) throw refuse.invalid(refused[0]!, { fields: problems });
    const changed = (Object.keys(input) as (keyof CustomerDetails)[]).filter((k) => input[k] !== before[k]);
    if (changed.length === 0) return changed;
    await tx
      .update(c)
      .set({ ...input, updatedAt: nextVersion(c.updatedAt) })
      .where(eq(c.id, customerId));
    const detail = Object.fromEntries(changed.map((k) => [k, { from: before[k], to: input[k] }]));
    await audit({ actor, action: "customer.update", target: `customer:${customerId}`, detail }, tx);
    return changed;
  });
}
