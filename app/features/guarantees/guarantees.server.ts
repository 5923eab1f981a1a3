// Guarantee amounts (garantibelopp) and their payout: staff add amounts to refund
// (refund date = next Monday), fix bank details, fetch the payout CSV and the PDF
// underlag per title and ISO week, then mark the payout complete as a batch that keeps
// its files (decision 022). The CLI `payout files` command calls buildPayoutFiles()
// here, so a file is made the same way from both places.
import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import type { Refund } from "./refund";
import { portalNow } from "../../../db/clock";
export type { Refund };
import { buildPayoutCsv } from "./payout-csv.server";
import { renderUnderlagPdf } from "./payout-pdf.server";
import { buildPain001 } from "./payout-iso20022.server";
import { config } from "~/config.server";
import { audit, type Actor, CLI_ACTOR } from "~/features/audit/audit.server";
import { isValidDate, nextMonday, today } from "~/lib/dates";
import { PAYOUT_BATCHES_PER_PAGE, weekTag, weekWords } from "./refund-view";
import { refusalDetail, refuse } from "~/lib/refusal";
import { nextVersion } from "~/lib/row-version.server";
import type { BankField } from "./schemas";
import { checkBankDetail, storedDetailProblem } from "./bank-numbers.server";

import { LEDGERS, LEDGER_TITLE, type Ledger } from "~/catalog";

export function titleOfLedger(ledger: number): string {
  return LEDGER_TITLE[ledger as Ledger] ?? `Reskontra ${ledger}`;
}

export type TotalsRow = { paper: string; status: string; totalOre: number };

/** Totals per paper and status: Ej utbetald, Tillagd för utbetalning, Utbetald. */
export async function guaranteeTotals(): Promise<TotalsRow[]> {
  const g = schema.guarantees;
  const status = sql<string>`case when ${g.completedAt} is not null then 'Utbetald' when ${g.refunded} then 'Tillagd för utbetalning' else 'Ej utbetald' end`;
  const rows = await getDb()
    .select({ ledger: g.ledger, status, totalOre: sql<number>`sum(${g.amountOre})` })
    .from(g)
    .groupBy(g.ledger, status)
    .orderBy(sql`${g.ledger} desc`, status);
  return rows.map((r) => ({ paper: titleOfLedger(r.ledger), status: r.status, totalOre: Number(r.totalOre) }));
}

/** One customer's guarantee amounts, or null when the customer does not exist. */
export async function customerGuarantees(customerId: number) {
  const db = getDb();
  const [customer] = await db
    .select({ id: schema.customers.id, name: schema.customers.name })
    .from(schema.customers)
    .where(eq(schema.customers.id, customerId));
  if (!customer) return null;
  const g = schema.guarantees;
  const amounts = await db
    .select({ id: g.id, ledger: g.ledger, amountOre: g.amountOre, refunded: g.refunded, refundDate: g.refundDate, completedAt: g.completedAt })
    .from(g)
    .where(eq(g.customerId, customerId))
    .orderBy(sql`${g.ledger} desc`, asc(g.id));
  return { customer, amounts: amounts.map((a) => ({ ...a, paper: titleOfLedger(a.ledger) })) };
}

/** 'Betala ut': marks one amount of the customer for refund on next Monday. */
export async function addToRefund(customerId: number, guaranteeId: number, actor: Actor, date = today()): Promise<void> {
  await writeTransaction(async (tx) => {
    const g = schema.guarantees;
    const refundDate = nextMonday(date);
    const done = await tx
      .update(g)
      .set({ refunded: true, refundDate, updatedAt: portalNow() })
      .where(and(eq(g.id, guaranteeId), eq(g.customerId, customerId), eq(g.refunded, false)))
      .returning({ id: g.id, amountOre: g.amountOre, ledger: g.ledger });
    // Already to be refunded (another tab, twice), or not the customer's: the spec's words.
    if (done.length === 0) throw refuse.invalid("Misslyckades med att spara utbetalning.");
    await audit({ actor, action: "guarantee.refund", target: `customer:${customerId}`, detail: { ...done[0], refundDate } }, tx);
  });
}

/**
 * 'Ångra': takes a payout added by mistake back (not yet completed): the amount is
 * no longer to be refunded and has no refund date. False when there is nothing to
 * take back (already taken back, completed, or another customer's).
 */
export async function undoRefund(customerId: number, guaranteeId: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const g = schema.guarantees;
    const done = await tx
      .update(g)
      .set({ refunded: false, refundDate: null, updatedAt: portalNow() })
      .where(and(eq(g.id, guaranteeId), eq(g.customerId, customerId), eq(g.refunded, true), isNull(g.completedAt)))
      .returning({ id: g.id, amountOre: g.amountOre, ledger: g.ledger });
    if (done.length === 0) return false;
    await audit({ actor, action: "guarantee.refund-undo", target: `customer:${customerId}`, detail: done[0] }, tx);
    return true;
  });
}

export const REFUND_DATE_PAST = "Utbetalningsdatum kan inte vara före i dag.";

/**
 * Changes the refund date of a customer's added payouts (all of them: one payment per
 * customer). The date must be today or later. Returns how many amounts it moved.
 */
export async function setRefundDate(customerId: number, date: string, actor: Actor, now = today()): Promise<number> {
  if (!isValidDate(date)) throw refuse.invalid("Ogiltigt datum (ÅÅÅÅ-MM-DD).", { field: "refundDate" });
  if (date < now) throw refuse.invalid(REFUND_DATE_PAST, { field: "refundDate" });
  return writeTransaction(async (tx) => {
    const g = schema.guarantees;
    const done = await tx
      .update(g)
      .set({ refundDate: date, updatedAt: portalNow() })
      .where(and(eq(g.customerId, customerId), eq(g.refunded, true), isNull(g.completedAt)))
      .returning({ id: g.id });
    if (done.length === 0) throw refuse.notFound("Kunden har inga tillagda utbetalningar.", { field: "refundDate" });
    await audit({ actor, action: "guarantee.refund-date", target: `customer:${customerId}`, detail: { refundDate: date, amounts: done.length } }, tx);
    return done.length;
  });
}

export type RefundProblems = { orgNumber?: string; bank?: string; bankgiro?: string; bankAccount?: string };

/** The added payouts not yet completed, per customer (customer number order). */
export async function listPendingRefunds(): Promise<Refund[]> {
  const g = schema.guarantees;
  const c = schema.customers;
  const rows = await getDb()
    .select({
      guaranteeId: g.id,
      ledger: g.ledger,
      amountOre: g.amountOre,
      refundDate: g.refundDate,
      customerId: c.id,
      name: c.name,
      address: c.address,
      coAddress: c.coAddress,
      zip: c.zip,
      city: c.city,
      email: c.email,
      orgNumber: c.orgNumber,
      bankgiro: c.bankgiro,
      bankAccount: c.bankAccount,
      version: c.updatedAt,
    })
    .from(g)
    .innerJoin(c, eq(c.id, g.customerId))
    .where(and(eq(g.refunded, true), isNull(g.completedAt)))
    .orderBy(asc(c.id), sql`${g.ledger} desc`, asc(g.id));
  const byCustomer = new Map<number, Refund>();
  for (const r of rows) {
    let refund = byCustomer.get(r.customerId);
    if (!refund) {
      const { guaranteeId: _g, ledger: _l, amountOre: _a, refundDate, ...customer } = r;
      refund = { ...customer, refundDate: refundDate ?? "", amounts: [] };
      byCustomer.set(r.customerId, refund);
    }
    if (r.refundDate && r.refundDate > refund.refundDate) refund.refundDate = r.refundDate;
    refund.amounts.push({ guaranteeId: r.guaranteeId, ledger: r.ledger, paper: titleOfLedger(r.ledger), amountOre: r.amountOre, refundDate: r.refundDate ?? "" });
  }
  return [...byCustomer.values()];
}

/** The checks made before payout files, underlag or completion (back-office 5). */
export function refundProblems(r: Pick<Refund, "orgNumber" | "bankgiro" | "bankAccount">): RefundProblems {
  const p: RefundProblems = {};
  if (!r.orgNumber.trim()) p.orgNumber = "Obligatorisk.";
  else p.orgNumber = storedDetailProblem("orgNumber", r.orgNumber) ?? undefined;
  if (!r.bankgiro.trim() && !r.bankAccount.trim()) p.bank = "Bankgiro eller bankkonto måste vara ifyllt.";
  // A payout file never carries a number the checks would refuse (one saved before them).
  p.bankgiro = storedDetailProblem("bankgiro", r.bankgiro) ?? undefined;
  p.bankAccount = storedDetailProblem("bankAccount", r.bankAccount) ?? undefined;
  for (const k of Object.keys(p) as (keyof RefundProblems)[]) if (p[k] === undefined) delete p[k];
  return p;
}

export const INCOMPLETE = "Vänligen fyll i alla obligatoriska fält!";

/**
 * Every missing detail of every payout, one line per customer ("1234 Kiosk: Orgnummer:
 * Obligatorisk. Bankgiro eller bankkonto måste vara ifyllt."), so staff see them all at
 * once rather than one per try.
 */
export function missingDetails(refunds: Refund[]): string[] {
  return refunds.flatMap((r) => {
    const p = refundProblems(r);
    const parts = [
      p.orgNumber ? `Orgnummer: ${p.orgNumber}` : null,
      p.bank ?? null,
      p.bankgiro ? `Bankgiro: ${p.bankgiro}` : null,
      p.bankAccount ? `Bankkonto: ${p.bankAccount}` : null,
    ].filter(Boolean);
    return parts.length > 0 ? [`${r.customerId} ${r.name}: ${parts.join(" ")}`] : [];
  });
}

const isComplete = (r: Refund) => Object.keys(refundProblems(r)).length === 0;

/** What assertComplete's refusal carries: the customers lacking a detail, and a line for each. */
const INCOMPLETE_PAYOUTS = refusalDetail<{ customers: number[]; missing: string[] }>("incomplete-payouts");

/** Refuses (invalid, INCOMPLETE; missingOf lists every gap) when a payout lacks a detail. */
function assertComplete(refunds: Refund[]) {
  const missing = missingDetails(refunds);
  if (missing.length > 0) {
    const customers = refunds.filter((r) => !isComplete(r)).map((r) => r.customerId);
    throw refuse.invalid(INCOMPLETE, { detail: INCOMPLETE_PAYOUTS.carry({ customers, missing }) });
  }
}

/**
 * The complete payouts among these (decision 020, amended): a payout lacking a detail is left out of
 * the files and the batch and waits, listed apart, blocking only itself. When every one in
 * scope lacks a detail there is nothing to make: refused as assertComplete does.
 */
function completeOnes(refunds: Refund[]): Refund[] {
  const complete = refunds.filter(isComplete);
  if (complete.length === 0) assertComplete(refunds);
  return complete;
}

/** The payouts with an amount of this title and week (both undefined: every payout). */
function inScope(refunds: Refund[], scope: { ledger?: number; week?: string }, date: string): Refund[] {
  return refunds.filter((r) => r.amounts.some((a) => (scope.ledger === undefined || a.ledger === scope.ledger) && (scope.week === undefined || amountWeek(a, date) === scope.week)));
}

/** Every added payout that lacks a detail, one line per customer (missingDetails): they wait for their details. */
export async function incompletePayouts(): Promise<string[]> {
  return missingDetails(await listPendingRefunds());
}

/** The lines of a refusal from assertComplete, or []. */
export function missingOf(e: unknown): string[] {
  return INCOMPLETE_PAYOUTS.of(e)?.missing ?? [];
}

export type { BankField };
const BANK_PATTERN = { bankgiro: /^[0-9 -]{0,20}$/, bankAccount: /^[0-9 ,.-]{0,30}$/, orgNumber: /^[0-9 -]{0,20}$/ };

/**
 * Updates one payout detail of a customer. An empty value or '-1' (the old client's
 * way of saying "cleared") clears the field. Refuses a value of the wrong shape
 * (invalid, on the field) and a customer that does not exist (not-found).
 */
/** A bank detail saved from a page opened before someone else changed it. */
export function bankDetailConflict(stored: string): string {
  return `Uppgiften har ändrats i en annan flik eller av någon annan sedan du öppnade sidan. Sparat nu: ${stored === "" ? "(tomt)" : stored}. Ditt värde finns kvar i formuläret; tryck Spara igen för att spara det.`;
}

/**
 * Saves one bank detail. `shown` is the value the page showed (this form's version of
 * the row): when the stored value is another now, the save is refused (conflict).
 */
export async function updateBankDetail(customerId: number, field: BankField, raw: string, actor: Actor, shown?: string): Promise<void> {
  if (!Number.isSafeInteger(customerId) || customerId < 1) throw refuse.notFound("Kunden finns inte.");
  const typed = raw.trim() === "-1" ? "" : raw.trim();
  if (!BANK_PATTERN[field].test(typed)) {
    throw refuse.invalid(field === "bankAccount" ? "Endast siffror, mellanslag, komma och bindestreck." : "Endast siffror, mellanslag och bindestreck.", { field });
  }
  // Checked by the banks' rules, and stored in one written form.
  const checked = checkBankDetail(field, typed);
  if ("problem" in checked) throw refuse.invalid(checked.problem, { field: "value" });
  const value = checked.value;
  await writeTransaction(async (tx) => {
    const c = schema.customers;
    const [before] = await tx.select({ v: c[field] }).from(c).where(eq(c.id, customerId));
    if (!before) throw refuse.notFound("Kunden finns inte.");
    if (shown !== undefined && before.v !== shown) throw refuse.conflict(bankDetailConflict(before.v), { field: "value" });
    // Conditional on the value read above, inside the write transaction.
    const done = await tx
      .update(c)
      .set({ [field]: value, updatedAt: nextVersion(c.updatedAt) })
      .where(and(eq(c.id, customerId), eq(c[field], before.v)))
      .returning({ id: c.id });
    if (done.length === 0) throw refuse.conflict(bankDetailConflict(before.v), { field: "value" });
    await audit({ actor, action: `customer.${field}.update`, target: `customer:${customerId}`, detail: { from: before.v, to: value } }, tx);
  });
}

export type PayoutFile = { filename: string; contentType: string; content: string | Uint8Array };



function fileTitle(ledger: Ledger): string {
  return LEDGER_TITLE[ledger].toLowerCase();
}

/** The week an added amount is paid in: its own date, else the next Monday. */
function amountWeek(a: Refund["amounts"][number], date: string): string {
  return weekTag(a.refundDate || nextMonday(date));
}

/**
 * The payouts of one title and one ISO week (decision 022): each customer with only those
 * amounts, dated by the latest of them. `ledger` undefined: every title (a customer's underlag).
 */
export function payoutsOf(refunds: Refund[], scope: { ledger?: number; week: string }, date = today()): Refund[] {
  return refunds
    .map((r) => {
      const amounts = r.amounts.filter((a) => (scope.ledger === undefined || a.ledger === scope.ledger) && amountWeek(a, date) === scope.week);
      const refundDate = amounts.reduce((max, a) => (a.refundDate && a.refundDate > max ? a.refundDate : max), "") || r.refundDate;
      return { ...r, amounts, refundDate };
    })
    .filter((r) => r.amounts.length > 0);
}

/** The (title, week) pairs with added payouts, by week then title, each with its customers and sum. */
export function payoutWeeks(refunds: Refund[], date = today()): { ledger: Ledger; week: string; customers: number; amountOre: number }[] {
  const out = new Map<string, { ledger: Ledger; week: string; customers: Set<number>; amountOre: number }>();
  for (const r of refunds) {
    for (const a of r.amounts) {
      const week = amountWeek(a, date);
      const key = `${week}/${a.ledger}`;
      let w = out.get(key);
      if (!w) out.set(key, (w = { ledger: a.ledger as Ledger, week, customers: new Set(), amountOre: 0 }));
      w.customers.add(r.customerId);
      w.amountOre += a.amountOre;
    }
  }
  return [...out.values()]
    .sort((a, b) => a.week.localeCompare(b.week) || LEDGERS.indexOf(a.ledger) - LEDGERS.indexOf(b.ledger))
    .map((w) => ({ ...w, customers: w.customers.size }));
}

type MadeFile = PayoutFile & { ledger: number; week: string; customers: number[]; amountOre: number };

export type PayoutKind = "csv" | "pain001" | "underlag";
const PAYOUT_KINDS: PayoutKind[] = ["csv", "pain001", "underlag"];

/**
 * The payout files of each title and week, without auditing: the CSV, the ISO 20022 file
 * for the bank (`<title>-<year>-v<week>.xml`; none without a seller to pay from) and the
 * underlag PDF.
 */
async function makeWeekFiles(refunds: Refund[], scope: { ledger?: number; week?: string; kinds?: PayoutKind[] }, date: string, now = new Date(portalNow())): Promise<MadeFile[]> {
  const kinds = scope.kinds ?? PAYOUT_KINDS;
  const files: MadeFile[] = [];
  for (const kind of kinds) {
    const seller = config.seller;
    if (kind === "pain001" && !seller) continue;
    for (const w of payoutWeeks(refunds, date)) {
      if ((scope.ledger !== undefined && scope.ledger !== w.ledger) || (scope.week !== undefined && scope.week !== w.week)) continue;
      const part = payoutsOf(refunds, w, date).map((r) => ({ ...r, refundDate: r.refundDate || nextMonday(date) }));
      const facts = { ledger: w.ledger, week: w.week, customers: part.map((r) => r.customerId), amountOre: w.amountOre };
      const name = `${fileTitle(w.ledger)}-${w.week}`;
      if (kind === "csv") files.push({ ...facts, filename: `${name}.csv`, contentType: "text/csv; charset=utf-8", content: buildPayoutCsv(part) });
      else if (kind === "pain001" && seller) {
        const content = buildPain001(part, { seller, ledger: w.ledger, title: LEDGER_TITLE[w.ledger], week: w.week, createdAt: now });
        files.push({ ...facts, filename: `${name}.xml`, contentType: "application/xml; charset=utf-8", content });
      } else if (kind === "underlag") {
        files.push({
          ...facts,
          filename: `underlag-${name}.pdf`,
          contentType: "application/pdf",
          content: await renderUnderlagPdf(`Underlag garantibelopp ${LEDGER_TITLE[w.ledger]} ${weekWords(w.week, date)}`, part),
        });
      }
    }
  }
  return files;
}

async function audited(actor: Actor, files: MadeFile[]): Promise<PayoutFile[]> {
  for (const f of files) await audit({ actor, action: "payout.file", target: f.filename, detail: { customers: f.customers } });
  return files.map(({ filename, contentType, content }) => ({ filename, contentType, content }));
}

/**
 * One payout file per title and ISO week with added payouts: the CSV (`<title>-<year>-v<week>.csv`)
 * or the ISO 20022 file for the bank (`… .xml`).
 */
export async function payoutCsvFiles(actor: Actor, scope: { ledger?: number; week?: string } = {}, date = today(), kind: "csv" | "pain001" = "csv"): Promise<PayoutFile[]> {
  const refunds = completeOnes(inScope(await listPendingRefunds(), scope, date));
  return audited(actor, await makeWeekFiles(refunds, { ...scope, kinds: [kind] }, date));
}

/** PDF underlag: per title and week (`underlag-<title>-<year>-v<week>.pdf`) or for one customer (`underlag-<nr>-<year>-v<week>….pdf`). */
export async function underlagFiles(actor: Actor, scope: { customerId?: number; ledger?: number; week?: string } = {}, date = today()): Promise<PayoutFile[]> {
  const all = await listPendingRefunds();
  if (scope.customerId === undefined) {
    return audited(actor, await makeWeekFiles(completeOnes(inScope(all, scope, date)), { ...scope, kinds: ["underlag"] }, date));
  }
  // A customer's underlag is one document of everything added for them, named by its weeks.
  const refunds = all.filter((r) => r.customerId === scope.customerId);
  assertComplete(refunds);
  if (refunds.length === 0) return [];
  const weeks = [...new Set(refunds.flatMap((r) => r.amounts.map((a) => amountWeek(a, date))))].sort();
  return audited(actor, [
    {
      filename: `underlag-${scope.customerId}-${weeks.join("-")}.pdf`,
      contentType: "application/pdf",
      content: await renderUnderlagPdf(`Underlag garantibelopp kund ${scope.customerId}`, refunds),
      ledger: 0,
      week: weeks[0],
      customers: [scope.customerId],
      amountOre: refunds.reduce((s, r) => s + r.amounts.reduce((t, a) => t + a.amountOre, 0), 0),
    },
  ]);
}

/**
 * Everything the CLI `payout files --out DIR` writes: the CSV per title, the
 * underlag per title and the underlag per customer, of the complete payouts; a payout
 * lacking a detail waits (incompletePayouts). Refuses (invalid, INCOMPLETE) when every
 * payout lacks one.
 */
export async function buildPayoutFiles(actor: Actor = CLI_ACTOR, date = today()): Promise<PayoutFile[]> {
  const refunds = completeOnes(await listPendingRefunds());
  const files = [...(await payoutCsvFiles(actor, {}, date)), ...(await payoutCsvFiles(actor, {}, date, "pain001")), ...(await underlagFiles(actor, {}, date))];
  for (const r of refunds) files.push(...(await underlagFiles(actor, { customerId: r.customerId }, date)));
  return files;
}

export const PAYOUTS_CHANGED = "Listan över tillagda utbetalningar ändrades medan du klarmarkerade. Inget klarmarkerades; se över listan och försök igen.";

/**
 * Klarmarkera (decision 022): marks every complete added payout done as one batch that keeps
 * the payout files and underlag it paid by (one per title and ISO week), who made it and
 * when; one lacking a detail waits. Refused, with nothing marked, when every payout lacks a
 * detail, or the list or a customer's bank details changed while the files were made.
 * Returns how many amounts it completed.
 */
export async function completeRefunds(actor: Actor, date = today()): Promise<number> {
  const refunds = completeOnes(await listPendingRefunds());
  const ids = refunds.flatMap((r) => r.amounts.map((a) => a.guaranteeId));
  if (ids.length === 0) return 0;
  // Made before the write transaction (PDFs take a moment); the transaction checks they still hold.
  const files = await makeWeekFiles(refunds, {}, date);
  return writeTransaction(async (tx) => {
    const c = schema.customers;
    const versions = await tx.select({ id: c.id, version: c.updatedAt }).from(c).where(inArray(c.id, refunds.map((r) => r.customerId)));
    const seen = new Map(refunds.map((r) => [r.customerId, r.version]));
    if (versions.some((v) => seen.get(v.id) !== v.version)) throw refuse.conflict(PAYOUTS_CHANGED);
    const amountOre = refunds.reduce((s, r) => s + r.amounts.reduce((t, a) => t + a.amountOre, 0), 0);
    const [batch] = await tx
      .insert(schema.payoutBatches)
      .values({ actor: actor.id, customers: refunds.length, guarantees: ids.length, amountOre })
      .returning({ id: schema.payoutBatches.id });
    const g = schema.guarantees;
    const now = portalNow();
    const done = await tx
      .update(g)
      .set({ completedAt: now, batchId: batch.id, updatedAt: now })
      .where(and(inArray(g.id, ids), eq(g.refunded, true), isNull(g.completedAt)))
      .returning({ id: g.id, refundDate: g.refundDate });
    // An amount taken back or moved meanwhile: the files would not match what is marked. (One
    // added meanwhile is in neither; it waits for the next batch.)
    const dates = new Map(refunds.flatMap((r) => r.amounts.map((a) => [a.guaranteeId, a.refundDate ?? ""])));
    if (done.length !== ids.length || done.some((d) => (d.refundDate ?? "") !== dates.get(d.id))) throw refuse.conflict(PAYOUTS_CHANGED);
    await tx.insert(schema.payoutFiles).values(
      files.map((f) => ({
        batchId: batch.id,
        filename: f.filename,
        contentType: f.contentType,
        content: Buffer.from(f.content),
        ledger: f.ledger,
        week: f.week,
        customers: f.customers.length,
        amountOre: f.amountOre,
      })),
    );
    await audit({ actor, action: "guarantee.complete", detail: { batch: batch.id, guarantees: done.length, customers: refunds.map((r) => r.customerId), files: files.map((f) => f.filename) } }, tx);
    return done.length;
  });
}

/** The Klarmarkera history, newest first, a page at a time, each batch with its files (not their content). */
export async function listPayoutBatches(page = 1) {
  const b = schema.payoutBatches;
  const db = getDb();
  const [batches, [{ total }]] = await Promise.all([
    db
      .select({
        id: b.id,
        madeAt: b.madeAt,
        actor: b.actor,
        actorName: sql<string | null>`case when ${b.actor} like 'staff:%' then (select email from staff_users s where s.id = cast(substr(${b.actor}, 7) as integer)) end`,
        customers: b.customers,
        guarantees: b.guarantees,
        amountOre: b.amountOre,
      })
      .from(b)
      .orderBy(desc(b.madeAt), desc(b.id))
      .limit(PAYOUT_BATCHES_PER_PAGE)
      .offset((Math.max(1, page) - 1) * PAYOUT_BATCHES_PER_PAGE),
    db.select({ total: count() }).from(b),
  ]);
  const f = schema.payoutFiles;
  const files =
    batches.length === 0
      ? []
      : await db
          .select({ id: f.id, batchId: f.batchId, filename: f.filename, ledger: f.ledger, week: f.week, customers: f.customers, amountOre: f.amountOre })
          .from(f)
          .where(inArray(f.batchId, batches.map((x) => x.id)))
          .orderBy(asc(f.id));
  return { total, batches: batches.map((x) => ({ ...x, files: files.filter((file) => file.batchId === x.id) })) };
}

/** A kept payout file of an earlier batch, fetched again (audited), or null. */
export async function keptPayoutFile(actor: Actor, fileId: number): Promise<PayoutFile | null> {
  const f = schema.payoutFiles;
  const [file] = await getDb().select().from(f).where(eq(f.id, fileId));
  if (!file) return null;
  await audit({ actor, action: "payout.file", target: file.filename, detail: { batch: file.batchId, again: true } });
  return { filename: file.filename, contentType: file.contentType, content: /^(text\/|application\/xml)/.test(file.contentType) ? file.content.toString("utf8") : new Uint8Array(file.content) };
}
