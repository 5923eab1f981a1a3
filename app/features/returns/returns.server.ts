// Return reporting (spec 2.4, 4, 5; docs/architecture.md "Return reports"). Every function
// takes the customer id and filters by it; the save checks every rule itself, so a
// forged form gets the same answers as the page.
import { BUNDLE_NUMBER } from "~/catalog";
import { and, asc, between, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { getDb, preparedQuery, schema, writeTransaction, type Tx } from "~/db.server";
import { listOpenBundles, type OpenBundle } from "~/features/bundles/bundles.server";
import { addDays, today } from "~/lib/dates";
import { isRefusal, refusalDetail, refuse } from "~/lib/refusal";
import { deadlineSql, latePolicyOf, type LatePolicy } from "./deadlines.server";
import { recallReturnBySqlOf } from "~/features/recalls/recalls.server";
import { RETURN_MESSAGES } from "./texts";
import { RETURN_REFUSALS } from "./refusal-texts";
import { rowMessage, type RowProblems } from "./return-lines";
import { portalNow } from "../../../db/clock";

/** Papers delivered in the last 14 days up to today can be reported (state 1) or added to (state 2). */
export const REPORT_WINDOW_DAYS = 14;
export const MAX_RETURN_AMOUNT = 999;

export type ReportState = 1 | 2;
export type PaperType = 0 | 1;

export { RETURN_MESSAGES, RETURN_REFUSALS };

export function reportWindow(on: string = today()): { from: string; to: string } {
  return { from: addDays(on, -REPORT_WINDOW_DAYS), to: on };
}

export type PaperReturn = { id: number; bundle: number; amount: number; open: boolean };
export type Paper = {
  deliveryId: number;
  title: string;
  edition: string;
  type: PaperType;
  deliveryDate: string;
  delivered: number;
  /** Sista returdag. */
  deadline: string;
  /** Today is after the last return day: locked or marked late, by `latePolicy`. */
  late: boolean;
  /** Recalled: "Återkallad – returnera senast" this day, which is then its last return day (decision 036). */
  recalledUntil: string | null;
  returns: PaperReturn[];
};

/**
 * State 1: this customer's deliveries in the report window not yet reported.
 * State 2: those already reported, with their return rows. Two queries in all.
 */
function papersQuery(state: ReportState) {
  return preparedQuery((db) => {
    const d = schema.deliveries;
    const e = schema.editions;
    const t = schema.titles;
    return db
      .select({
        deliveryId: d.id,
        title: t.name,
        edition: e.description,
        type: e.type,
        deliveryDate: d.deliveryDate,
        delivered: d.delivered,
        deadline: deadlineSql(),
        recalledUntil: recallReturnBySqlOf(d),
      })
      .from(d)
      .innerJoin(t, eq(t.id, d.titleId))
      .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
      .where(
        and(
          eq(d.customerId, sql.placeholder("customerId")),
          // The report window, and a recalled paper until its recall's last return day (decision 036).
          or(between(d.deliveryDate, sql.placeholder("from"), sql.placeholder("to")), and(lte(d.deliveryDate, sql.placeholder("to")), gte(recallReturnBySqlOf(d), sql.placeholder("to")))),
          state === 1 ? isNull(d.reportedAt) : isNotNull(d.reportedAt),
        ),
      )
      .orderBy(asc(e.type), asc(d.deliveryDate), asc(d.titleId), asc(d.editionId))
      .prepare();
  });
}
const papersOf = { 1: papersQuery(1), 2: papersQuery(2) };

export async function listPapers(customerId: number, state: ReportState, on: string = today()): Promise<Paper[]> {
  const { from, to } = reportWindow(on);
  const rows = await papersOf[state]().all({ customerId, from, to });
  const papers: Paper[] = rows.map(({ recalledUntil, ...r }) => {
    // A recalled paper may be returned until its recall's day, never late (decision 036).
    const deadline = recalledUntil && recalledUntil > r.deadline ? recalledUntil : r.deadline;
    return { ...r, deadline, recalledUntil: recalledUntil || null, type: r.type as PaperType, late: on > deadline, returns: [] };
  });
  if (state === 2 && papers.length > 0) {
    const byId = new Map(papers.map((p) => [p.deliveryId, p]));
    const r = schema.returns;
    const b = schema.bundles;
    const found = await getDb()
      .select({ id: r.id, deliveryId: r.deliveryId, amount: r.amount, bundle: b.number, open: b.open })
      .from(r)
      .innerJoin(b, eq(b.id, r.bundleId))
      .where(and(eq(r.customerId, customerId), inArray(r.deliveryId, [...byId.keys()])))
      .orderBy(asc(r.id));
    for (const row of found) byId.get(row.deliveryId)?.returns.push({ id: row.id, bundle: row.bundle, amount: row.amount, open: row.open });
  }
  return papers;
}

/**
 * The bundle an empty bundle field starts with, per paper type: the open bundle
 * this customer returned into most recently, else the newest open bundle.
 * Decision: a last-used bundle that has since been closed is not offered, since
 * the save would refuse it (spec 4 says "last used"; closed ones are read-only).
 */
export async function defaultBundles(customerId: number): Promise<Record<PaperType, number | null>> {
  return defaultBundlesOf(await listOpenBundles(customerId));
}

/** The same, from the open bundles the page has already read. */
export function defaultBundlesOf(open: OpenBundle[]): Record<PaperType, number | null> {
  const result: Record<PaperType, number | null> = { 0: null, 1: null };
  for (const type of [0, 1] as const) {
    const ofType = open.filter((b) => b.type === type);
    const lastUsed = ofType.filter((b) => b.lastReturnId !== null).sort((a, b) => b.lastReturnId! - a.lastReturnId!)[0];
    // "Newest" open bundle: the highest number, as bundles are numbered in the order labels are used.
    result[type] = (lastUsed ?? ofType.sort((a, b) => b.number - a.number)[0])?.number ?? null;
  }
  return result;
}

/** One line of the returns form as typed. `returnId` marks an existing return row (state 2). */
export type ReturnLine = {
  key: string;
  deliveryId: number;
  returnId?: number;
  bundle: string;
  amount: string;
  /** The bundle number the page pre-filled; an untouched line (this bundle, no amount) is not a return. */
  defaultBundle?: string;
  /** A stored row (`returnId`): the amount the page showed when it was loaded. */
  shownAmount?: string;
};

/** What a saved form did: how many rows it stored, or that its token was applied before. */
export type SaveResult = { alreadyApplied: boolean; saved: number };

/**
 * The `detail` of the refusal of a form with refused lines: nothing was written, and each
 * refused line has its messages.
 */
export type ReturnRowsRefused = {
  /** Line key → the row's messages in one text (what the row shows). */
  errors: Record<string, string>;
  /** Line key → each refused field's message: the error summary links to each field. */
  problems: Record<string, RowProblems>;
  /** Rows someone else changed since the page was loaded: line key → the amount stored now. */
  stored?: Record<string, string>;
};
/** The refused rows a returns save's refusal carries (`RETURN_ROWS.of(e)`). */
export const RETURN_ROWS = refusalDetail<ReturnRowsRefused>("return-rows");

type Checked = { line: ReturnLine; bundle: number; amount: number };

/** The form rules of spec 5 for one line; null = nothing to send. */
export function checkLine(line: ReturnLine): { problems: RowProblems } | Checked | null {
  const bundle = line.bundle.trim();
  const amount = line.amount.trim();
  if (bundle === "" && amount === "") return null;
  if (amount === "" && !line.returnId && bundle === (line.defaultBundle ?? "").trim()) return null;
  const problems: RowProblems = {};
  if (amount !== "" && (!/^\d{1,3}$/.test(amount) || Number(amount) > MAX_RETURN_AMOUNT)) problems.amount = RETURN_MESSAGES.unreasonableAmount;
  if (bundle !== "" && (!BUNDLE_NUMBER.test(bundle) || Number(bundle) < 1)) problems.bundle = RETURN_MESSAGES.unreasonableBundle;
  if (problems.amount || problems.bundle) return { problems };
  // Sold out (Slutsåld, or 0 typed in Retur) needs no bundle: nothing goes in one, whatever
  // the bundle field says (decision 026), so no return row of 0 copies is made.
  if (amount !== "" && Number(amount) === 0 && !line.returnId) return { line, bundle: 0, amount: 0 };
  if (bundle === "") return { problems: { bundle: RETURN_MESSAGES.bundleRequired } };
  if (amount === "") return { problems: { amount: RETURN_MESSAGES.amountRequired } };
  return { line, bundle: Number(bundle), amount: Number(amount) };
}

/**
 * Saves one submission of the returns form in one transaction: all of it or, if any
 * line is refused, none of it: an "invalid" refusal whose `detail` (ReturnRowsRefused)
 * gives each refused line its messages. A form with nothing to save is refused without
 * detail. `token` is the form's one-time token: a token already applied is answered as
 * success without applying anything again (double click, reload, back button).
 */
export async function saveReturns(
  customerId: number,
  state: ReportState,
  token: string,
  lines: ReturnLine[],
  on: string = today(),
): Promise<SaveResult> {
  const problems: Record<string, RowProblems> = {};
  const stored: Record<string, string> = {};
  const checked: Checked[] = [];
  for (const line of lines) {
    const c = checkLine(line);
    if (c === null) continue;
    if ("problems" in c) problems[line.key] = c.problems;
    else checked.push(c);
  }
  const refusedLines = () =>
    refuse.invalid(RETURN_MESSAGES.fixLines, {
      detail: RETURN_ROWS.carry({
        errors: Object.fromEntries(Object.entries(problems).map(([key, p]) => [key, rowMessage(p)])),
        problems,
        ...(Object.keys(stored).length ? { stored } : {}),
      }),
    });
  if (Object.keys(problems).length === 0 && checked.length === 0) {
    if (token && (await tokenApplied(customerId, token))) return { alreadyApplied: true, saved: 0 };
    throw refuse.invalid(RETURN_MESSAGES.nothingToSave);
  }
  try {
    return await writeTransaction(async (tx) => {
      if (token && (await tokenApplied(customerId, token, tx))) return { alreadyApplied: true, saved: 0 };
      const saved = await applyLines(tx, customerId, state, checked, problems, stored, on);
      // A refusal rolls the whole submission back; `problems` holds each line's messages.
      if (Object.keys(problems).length > 0) throw refusedLines();
      if (token) await tx.insert(schema.appliedSubmissions).values({ token, customerId, at: portalNow() });
      return { alreadyApplied: false, saved };
    });
  } catch (e) {
    // A line refused before the write (its form rules) is refused with the others found in it.
    if (isRefusal(e, "invalid") && e.detail === undefined) throw refusedLines();
    throw e;
  }
}

async function tokenApplied(customerId: number, token: string, db: Tx | ReturnType<typeof getDb> = getDb()) {
  const a = schema.appliedSubmissions;
  const [row] = await db
    .select({ token: a.token })
    .from(a)
    .where(and(eq(a.token, token), eq(a.customerId, customerId)));
  return Boolean(row);
}

async function applyLines(
  tx: Tx,
  customerId: number,
  state: ReportState,
  checked: Checked[],
  problems: Record<string, RowProblems>,
  stored: Record<string, string>,
  on: string,
): Promise<number> {
  const refuseRow = (key: string, field: keyof RowProblems, message: string) => {
    (problems[key] ??= {})[field] = message;
  };
  const d = schema.deliveries;
  const e = schema.editions;
  const r = schema.returns;
  const b = schema.bundles;
  const { from, to } = reportWindow(on);
  const deliveryIds = [...new Set(checked.map((c) => c.line.deliveryId))];
  const found = await tx
    .select({ id: d.id, delivered: d.delivered, reportedAt: d.reportedAt, type: e.type, deadline: deadlineSql(), recalledUntil: recallReturnBySqlOf(d), deliveryDate: d.deliveryDate })
    .from(d)
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(and(eq(d.customerId, customerId), inArray(d.id, deliveryIds), lte(d.deliveryDate, to)));
  // The report window, and a recalled paper until its recall's last return day, never late (decision 036).
  const papers = found
    .filter((p) => p.deliveryDate >= from || (p.recalledUntil !== null && p.recalledUntil >= on))
    .map(({ recalledUntil, ...p }) => ({ ...p, deadline: recalledUntil && recalledUntil > p.deadline ? recalledUntil : p.deadline }));
  const paperById = new Map(papers.map((p) => [p.id, p]));
  // After the last return day the distributor's policy decides.
  const policy: LatePolicy | null = papers.some((p) => on > p.deadline) ? await latePolicyOf(customerId) : null;
  const late = new Set<number>();
  /** A change to a paper past its last return day: refused (policy 'reject') or marked late. */
  const refusedAsLate = (paper: { id: number; deadline: string }, key: string) => {
    if (on <= paper.deadline) return false;
    if (policy === "reject") {
      refuseRow(key, "amount", RETURN_MESSAGES.pastDeadline(paper.deadline));
      return true;
    }
    late.add(paper.id);
    return false;
  };

  const existing = await tx
    .select({ id: r.id, deliveryId: r.deliveryId, bundleId: r.bundleId, amount: r.amount, open: b.open, number: b.number })
    .from(r)
    .innerJoin(b, eq(b.id, r.bundleId))
    .where(and(eq(r.customerId, customerId), inArray(r.deliveryId, deliveryIds)));
  const existingById = new Map(existing.map((x) => [x.id, x]));

  const numbers = [...new Set(checked.filter((c) => !c.line.returnId).map((c) => c.bundle))];
  const known = numbers.length
    ? await tx.select().from(b).where(and(eq(b.customerId, customerId), inArray(b.number, numbers)))
    : [];
  const bundleByNumber = new Map(known.map((x) => [x.number, { id: x.id, type: x.type, open: x.open }]));

  // Final amount per return row (bundle id + delivery id), starting from what is stored.
  const finalAmount = new Map<string, { bundleId: number; deliveryId: number; amount: number; rowId?: number; line?: string }>();
  for (const x of existing) finalAmount.set(`${x.bundleId}:${x.deliveryId}`, { bundleId: x.bundleId, deliveryId: x.deliveryId, amount: x.amount, rowId: x.id });
  const touched = new Set<string>();
  const lastLineOfPaper = new Map<number, string>();
  /** What the paper's last line adds: the refusal names the limit of that line, the rest counted as already returned. */
  const lastLineAmount = new Map<number, number>();
  const reported = new Set<number>();
  let soldOut = 0;

  for (const c of checked) {
    const paper = paperById.get(c.line.deliveryId);
    const key = c.line.key;
    if (!paper) {
      refuseRow(key, "amount", RETURN_REFUSALS.unknownPaper);
      continue;
    }
    // State 1 of a paper another tab or an earlier page reported since this page was loaded:
    // refused with what is stored now, never doubled and never silently dropped.
    // (The same form sent again is recognised by its token before this.)
    if (state === 1 && paper.reportedAt !== null) {
      const rows = existing.filter((x) => x.deliveryId === paper.id);
      // Exactly what is stored (another copy of the same report): nothing lost, nothing to do.
      if (rows.some((x) => x.number === c.bundle && x.amount === c.amount)) continue;
      const now = rows.reduce((sum, x) => sum + x.amount, 0);
      refuseRow(key, "amount", RETURN_REFUSALS.reportedByOther(now, c.amount));
      continue;
    }
    if (state === 2 && paper.reportedAt === null) {
      refuseRow(key, "amount", RETURN_REFUSALS.unknownPaper);
      continue;
    }

    // Sold out without a bundle: the paper is reported, no return row is made.
    if (c.bundle === 0) {
      if (state === 1 && !refusedAsLate(paper, key)) {
        reported.add(paper.id);
        soldOut++;
      }
      continue;
    }
    if (c.line.returnId) {
      const row = existingById.get(c.line.returnId);
      if (!row || row.deliveryId !== paper.id) {
        refuseRow(key, "amount", RETURN_REFUSALS.unknownPaper);
        continue;
      }
      if (row.amount === c.amount) continue;
      // Optimistic concurrency: the page sent the amount it showed. Still that
      // amount: the user did not change the row, so whatever is stored now stays. Changed by
      // the user while someone else changed the stored row too: refused, both values named.
      const shown = c.line.shownAmount?.trim() ?? "";
      if (/^\d{1,4}$/.test(shown)) {
        if (Number(shown) === c.amount) continue;
        if (Number(shown) !== row.amount) {
          refuseRow(key, "amount", RETURN_REFUSALS.changedByOther(row.amount, c.amount));
          stored[key] = String(row.amount);
          continue;
        }
      }
      if (!row.open) {
        refuseRow(key, "amount", RETURN_REFUSALS.closed(row.number));
        continue;
      }
      if (refusedAsLate(paper, key)) continue;
      const k = `${row.bundleId}:${row.deliveryId}`;
      finalAmount.get(k)!.amount = c.amount;
      finalAmount.get(k)!.line = key;
      touched.add(k);
      lastLineOfPaper.set(paper.id, key);
      lastLineAmount.set(paper.id, c.amount);
      continue;
    }
    if (refusedAsLate(paper, key)) continue;
    let bundle = bundleByNumber.get(c.bundle);
    if (!bundle) {
      const created = await createBundleFromBlock(tx, customerId, c.bundle, paper.type);
      if (!created) {
        refuseRow(key, "bundle", RETURN_REFUSALS.notInBlocks(c.bundle));
        continue;
      }
      bundle = created;
      bundleByNumber.set(c.bundle, bundle);
    }
    if (bundle.type !== paper.type) {
      refuseRow(key, "bundle", RETURN_REFUSALS.wrongType(c.bundle, bundle.type));
      continue;
    }
    if (!bundle.open) {
      refuseRow(key, "bundle", RETURN_REFUSALS.closed(c.bundle));
      continue;
    }
    const k = `${bundle.id}:${paper.id}`;
    const current = finalAmount.get(k);
    if (current) current.amount += c.amount;
    else finalAmount.set(k, { bundleId: bundle.id, deliveryId: paper.id, amount: c.amount });
    finalAmount.get(k)!.line = key;
    touched.add(k);
    lastLineOfPaper.set(paper.id, key);
    lastLineAmount.set(paper.id, c.amount);
    reported.add(paper.id);
  }

  // The sum of returns for one delivery never exceeds the delivered amount.
  const sums = new Map<number, number>();
  for (const x of finalAmount.values()) {
    sums.set(x.deliveryId, (sums.get(x.deliveryId) ?? 0) + x.amount);
    if (x.amount > MAX_RETURN_AMOUNT && x.line && !problems[x.line]) refuseRow(x.line, "amount", RETURN_MESSAGES.unreasonableAmount);
  }
  for (const [deliveryId, line] of lastLineOfPaper) {
    const paper = paperById.get(deliveryId)!;
    const sum = sums.get(deliveryId) ?? 0;
    if (sum > paper.delivered && !problems[line])
      refuseRow(line, "amount", RETURN_REFUSALS.tooManyOf(paper.delivered, sum - (lastLineAmount.get(deliveryId) ?? 0)));
  }
  if (Object.keys(problems).length > 0) return 0;

  const now = portalNow();
  for (const k of touched) {
    const x = finalAmount.get(k)!;
    // A change after the last return day (policy 'accept') marks the row late for good.
    const isLate = late.has(x.deliveryId);
    if (x.rowId)
      await tx
        .update(r)
        .set({ amount: x.amount, updatedAt: now, ...(isLate ? { late: true } : {}) })
        .where(and(eq(r.id, x.rowId), eq(r.customerId, customerId)));
    else await tx.insert(r).values({ customerId, bundleId: x.bundleId, deliveryId: x.deliveryId, amount: x.amount, late: isLate });
  }
  if (reported.size > 0) {
    await tx
      .update(d)
      .set({ reportedAt: now, updatedAt: now })
      .where(and(eq(d.customerId, customerId), inArray(d.id, [...reported]), isNull(d.reportedAt)));
  }
  return touched.size + soldOut;
}

/** A number the customer never used becomes an open bundle if it lies in one of the customer's label blocks. */
async function createBundleFromBlock(tx: Tx, customerId: number, number: number, type: number) {
  const l = schema.labelBlocks;
  const [block] = await tx
    .select({ id: l.id })
    .from(l)
    .where(and(eq(l.customerId, customerId), sql`${l.fromNumber} <= ${number}`, sql`${l.toNumber} >= ${number}`))
    .limit(1);
  if (!block) return null;
  await tx
    .update(l)
    .set({ numberUnused: sql`max(${l.numberUnused} - 1, 0)`, updatedAt: portalNow() })
    .where(eq(l.id, block.id));
  const [created] = await tx
    .insert(schema.bundles)
    .values({ customerId, number, type, open: true })
    .returning({ id: schema.bundles.id, type: schema.bundles.type, open: schema.bundles.open });
  return created;
}
