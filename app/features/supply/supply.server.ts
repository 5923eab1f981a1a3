// Leveransändring (decision 037): the returns figures turned into the right number of copies,
// with the retailer in the loop. A retailer asks for a change of one paper on a weekday (from
// a start date on) or for one date; staff approve, adjust or reject it, or propose one the
// retailer accepts or declines; decided changes go to planning once; the deliveries import
// brings the new number and the change is in force. Every step is in Logg.
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { paperName } from "~/catalog";
import { config } from "~/config.server";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import type { DistributorScope } from "~/features/distribution/distribution.server";
import { addDays, isValidDate, isoWeekday, stockholmDate, stockholmMidnight, stockholmTime, today as todayDate } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { oneOffCutoff, weekdayStart, type SupplyCutoffs } from "./supply-cutoffs";
import { suggestSupply, usualDelivery, type SameWeekday, type Suggestion } from "./supply-rule";
import { SUPPLY_MAX_COPIES, SUPPLY_NOTICE_HOURS, SUPPLY_ONE_OFF_MAX_DAYS, SUPPLY_RULE, SUPPLY_TEXTS, type SupplyQueueFilter, type SupplyStatus } from "./supply-words";
import { portalNow } from "../../../db/clock";

/** A day's figures count as evidence once reported, or once past every return window (14 days). */
const EVIDENCE_AFTER_DAYS = 14;

export type WeekdayFigures = {
  weekday: number;
  usual: number;
  /** Same weekdays with evidence (of the last eight), and their sums. */
  days: number;
  sold: number;
  returned: number;
  soldOut: number;
  suggestion: Suggestion | null;
};

export type SupplyChange = {
  id: number;
  customerId: number;
  titleId: number;
  editionId: number;
  paper: string;
  weekday: number | null;
  oneOffDate: string | null;
  oldCopies: number;
  requested: number;
  newCopies: number | null;
  status: SupplyStatus;
  origin: "retailer" | "staff";
  suggestion: string | null;
  reason: string | null;
  startDate: string;
  cutoffAt: number;
  createdAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
  exportId: number | null;
};

export type PaperSupply = { titleId: number; editionId: number; paper: string; weekdays: WeekdayFigures[]; changes: SupplyChange[] };

/** One day of a paper at a shop: what came, what went back, and whether it counts as evidence yet. */
type Day = { date: string; weekday: number; delivered: number; returned: number; evidence: boolean };

/** One paper at one shop: its last eight weeks, oldest first. */
type PaperHistory = { customerId: number; titleId: number; editionId: number; paper: string; days: Day[] };

const weekdays = new Map<string, number>();
const weekdayOf = (date: string) => {
  let w = weekdays.get(date);
  if (w === undefined) weekdays.set(date, (w = isoWeekday(date)));
  return w;
};

/**
 * The last eight weeks of main-paper deliveries (with their returns) of some customers, one
 * row per shop and paper with its days packed in one string: read in the order of the
 * deliveries' natural index (shop, title, edition, date), so grouping needs no sort, and a
 * country's 2 million days come to the program as 40,000 rows (bench B17).
 */
async function histories(who: SQL, today: string): Promise<PaperHistory[]> {
  const from = addDays(today, -7 * SUPPLY_RULE.weeks);
  const to = addDays(today, -1);
  const evidenceBefore = addDays(today, -EVIDENCE_AFTER_DAYS);
  const db = getDb();
  const [rows, names] = await Promise.all([
    db.all<{ customerId: number; titleId: number; editionId: number; h: string }>(sql`
      select d.customer_id as customerId, d.title_id as titleId, d.edition_id as editionId,
        group_concat(d.delivery_date || ':' || d.delivered || ':' || (select coalesce(sum(r.amount), 0) from returns r where r.delivery_id = d.id)
          || ':' || (d.reported_at is not null or d.delivery_date <= ${evidenceBefore}), ',') as h
      from deliveries d indexed by deliveries_natural
      where ${who} and d.delivery_date between ${from} and ${to}
        and (d.title_id, d.edition_id) in (select e.title_id, e.edition_id from editions e where e.type = 0)
      group by d.customer_id, d.title_id, d.edition_id`),
    db.all<{ titleId: number; editionId: number; title: string | null; edition: string }>(
      sql`select e.title_id as titleId, e.edition_id as editionId, t.name as title, e.description as edition from editions e left join titles t on t.id = e.title_id where e.type = 0`,
    ),
  ]);
  const paperNames = new Map(names.map((n) => [`${n.titleId}:${n.editionId}`, paperName(n.title ?? `Titel ${n.titleId}`, n.edition)]));
  return rows.map((r) => ({
    customerId: Number(r.customerId),
    titleId: Number(r.titleId),
    editionId: Number(r.editionId),
    paper: paperNames.get(`${r.titleId}:${r.editionId}`) ?? `Titel ${r.titleId}`,
    days: unpackDays(r.h),
  }));
}

/** "2026-10-03:45:2:1,2026-10-04:…" read by hand (a country is 2 million of them), oldest first. */
function unpackDays(h: string): Day[] {
  const days: Day[] = [];
  let sorted = true;
  for (let at = 0; at < h.length; ) {
    const end = h.indexOf(",", at);
    const stop = end === -1 ? h.length : end;
    const date = h.slice(at, at + 10);
    const c2 = h.indexOf(":", at + 11);
    const c3 = h.indexOf(":", c2 + 1);
    const delivered = Number(h.slice(at + 11, c2));
    const returned = Number(h.slice(c2 + 1, c3));
    if (days.length > 0 && days[days.length - 1].date > date) sorted = false;
    days.push({ date, weekday: weekdayOf(date), delivered, returned: Math.min(returned, delivered), evidence: h.charCodeAt(c3 + 1) === 49 });
    at = stop + 1;
  }
  // group_concat keeps the index's order in practice; SQL does not promise it.
  if (!sorted) days.sort((a, b) => (a.date < b.date ? -1 : 1));
  return days;
}

/** The figures of the seven weekdays of one paper at one shop (its days in one pass). */
function weekdayFigures(days: Day[]): WeekdayFigures[] {
  const all: SameWeekday[][] = [[], [], [], [], [], [], []];
  const evidence: SameWeekday[][] = [[], [], [], [], [], [], []];
  for (const d of days) {
    all[d.weekday - 1].push(d);
    if (d.evidence && d.delivered > 0) evidence[d.weekday - 1].push(d);
  }
  return all.map((sameDays, i) => {
    const weekday = i + 1;
    const proof = evidence[i];
    const usual = usualDelivery(sameDays);
    let sold = 0;
    let returned = 0;
    let soldOut = 0;
    for (const d of proof) {
      sold += d.delivered - d.returned;
      returned += d.returned;
      if (d.returned === 0) soldOut++;
    }
    return { weekday, usual, days: proof.length, sold, returned, soldOut, suggestion: suggestSupply(weekday, proof, usual) };
  });
}

const changeColumns = {
  id: schema.supplyChanges.id,
  customerId: schema.supplyChanges.customerId,
  titleId: schema.supplyChanges.titleId,
  editionId: schema.supplyChanges.editionId,
  // Qualified by hand: inside a subquery an unqualified "title_id" would be the subquery's own.
  title: sql<string>`coalesce((select t.name from titles t where t.id = "supply_changes"."title_id"), 'Titel ' || "supply_changes"."title_id")`,
  edition: sql<string | null>`(select e.description from editions e where e.title_id = "supply_changes"."title_id" and e.edition_id = "supply_changes"."edition_id")`,
  weekday: schema.supplyChanges.weekday,
  oneOffDate: schema.supplyChanges.oneOffDate,
  oldCopies: schema.supplyChanges.oldCopies,
  requested: schema.supplyChanges.requested,
  newCopies: schema.supplyChanges.newCopies,
  status: schema.supplyChanges.status,
  origin: schema.supplyChanges.origin,
  suggestion: schema.supplyChanges.suggestion,
  reason: schema.supplyChanges.reason,
  startDate: schema.supplyChanges.startDate,
  cutoffAt: schema.supplyChanges.cutoffAt,
  createdAt: schema.supplyChanges.createdAt,
  decidedAt: schema.supplyChanges.decidedAt,
  decidedBy: schema.supplyChanges.decidedBy,
  exportId: schema.supplyChanges.exportId,
};

type ChangeRow = { [K in keyof typeof changeColumns]: unknown } & { title: string; edition: string | null };

function toChange(r: ChangeRow): SupplyChange {
  return {
    id: r.id as number,
    customerId: r.customerId as number,
    titleId: r.titleId as number,
    editionId: r.editionId as number,
    paper: paperName(r.title, r.edition),
    weekday: r.weekday as number | null,
    oneOffDate: r.oneOffDate as string | null,
    oldCopies: r.oldCopies as number,
    requested: r.requested as number,
    newCopies: r.newCopies as number | null,
    status: r.status as SupplyStatus,
    origin: r.origin as "retailer" | "staff",
    suggestion: r.suggestion as string | null,
    reason: r.reason as string | null,
    startDate: r.startDate as string,
    cutoffAt: r.cutoffAt as number,
    createdAt: r.createdAt as number,
    decidedAt: r.decidedAt as number | null,
    decidedBy: r.decidedBy as string | null,
    exportId: r.exportId as number | null,
  };
}

/** A shop's changes worth showing: open or decided ones, and those ended in the last eight weeks. */
async function customerChanges(customerId: number, today: string): Promise<SupplyChange[]> {
  const c = schema.supplyChanges;
  const since = stockholmMidnight(addDays(today, -7 * SUPPLY_RULE.weeks));
  const rows = await getDb()
    .select(changeColumns)
    .from(c)
    .where(and(eq(c.customerId, customerId), or(inArray(c.status, ["sent", "proposed", "approved", "adjusted"]), sql`${c.updatedAt} >= ${since}`)))
    .orderBy(desc(c.id));
  return rows.map((r) => toChange(r as ChangeRow));
}

/**
 * Leveransändring for one shop: each main paper it got in the last eight weeks (or has a
 * change for), its seven weekdays' figures and suggestions, and its changes.
 */
export async function customerSupply(customerId: number, today = todayDate()): Promise<PaperSupply[]> {
  const [rows, changes] = await Promise.all([histories(sql`d.customer_id = ${customerId}`, today), customerChanges(customerId, today)]);
  const papers = new Map<string, { titleId: number; editionId: number; paper: string; days: Day[] }>();
  for (const r of rows) papers.set(`${r.titleId}:${r.editionId}`, r);
  for (const c of changes) {
    const key = `${c.titleId}:${c.editionId}`;
    if (!papers.has(key)) papers.set(key, { titleId: c.titleId, editionId: c.editionId, paper: c.paper, days: [] });
  }
  return [...papers.values()]
    .sort((a, b) => a.titleId - b.titleId || a.editionId - b.editionId)
    .map((p) => ({
      titleId: p.titleId,
      editionId: p.editionId,
      paper: p.paper,
      weekdays: weekdayFigures(p.days),
      changes: changes.filter((c) => c.titleId === p.titleId && c.editionId === p.editionId),
    }));
}

/** A main paper's name, or a refusal when the edition is not a main paper. */
async function mainPaper(db: Tx | ReturnType<typeof getDb>, titleId: number, editionId: number): Promise<string> {
  const [e] = await db
    .select({ description: schema.editions.description, type: schema.editions.type, title: sql<string>`coalesce((select t.name from titles t where t.id = ${titleId}), 'Titel ' || ${titleId})` })
    .from(schema.editions)
    .where(and(eq(schema.editions.titleId, titleId), eq(schema.editions.editionId, editionId)));
  if (!e || e.type !== 0) throw refuse.invalid(SUPPLY_TEXTS.paperMissing, { field: "tidning" });
  return paperName(e.title, e.description);
}

function checkCopies(copies: number, field: string) {
  if (!Number.isInteger(copies) || copies < 0 || copies > SUPPLY_MAX_COPIES) throw refuse.invalid(SUPPLY_TEXTS.copiesInvalid, { field });
}

/** The usual delivery of one paper on one weekday at one shop, now; null when the shop has not had the paper in eight weeks. */
async function usualOf(customerId: number, titleId: number, editionId: number, weekday: number, today: string): Promise<number | null> {
  const [paper] = await histories(sql`d.customer_id = ${customerId} and d.title_id = ${titleId} and d.edition_id = ${editionId}`, today);
  return paper ? weekdayFigures(paper.days)[weekday - 1].usual : null;
}

export type WeekdayRequest = { weekday: number; copies: number };

/**
 * A shop's new request for a day (`day`: its paper and weekday or date) makes room: a request
 * of the shop's still waiting for staff is replaced (withdrawn), and an open proposal for the
 * day is answered by it (declined), so two numbers for one day never both reach planning.
 */
async function clearTheDay(tx: Tx, day: SQL | undefined, now: number) {
  const c = schema.supplyChanges;
  const replaced = await tx.update(c).set({ status: "withdrawn", updatedAt: now }).where(and(day, eq(c.status, "sent"))).returning({ id: c.id });
  const declined = await tx.update(c).set({ status: "declined", answeredAt: now, updatedAt: now }).where(and(day, eq(c.status, "proposed"))).returning({ id: c.id });
  return { replaced: replaced.map((r) => r.id), declined: declined.map((r) => r.id) };
}

/**
 * A retailer's weekday changes of one paper (one Skicka): one request per weekday whose
 * number differs from the usual delivery (a weekday given the usual number among others is
 * no change; given alone it is refused), each starting on the Monday the cut-off gives.
 */
export async function sendWeekdayChanges(
  customerId: number,
  paper: { titleId: number; editionId: number },
  given: WeekdayRequest[],
  actor: Actor,
  now = portalNow(),
  cutoffs: SupplyCutoffs = config.supplyCutoffs,
): Promise<{ ids: number[]; startDate: string; paper: string; sent: WeekdayRequest[] }> {
  const today = stockholmDate(now);
  const name = await mainPaper(getDb(), paper.titleId, paper.editionId);
  const supply = (await customerSupply(customerId, today)).find((p) => p.titleId === paper.titleId && p.editionId === paper.editionId);
  if (!supply) throw refuse.invalid(SUPPLY_TEXTS.paperMissing, { field: "tidning" });
  if (given.length > 1) given = given.filter((w) => supply.weekdays[w.weekday - 1]?.usual !== w.copies);
  const wanted = given;
  if (wanted.length === 0) throw refuse.invalid(SUPPLY_TEXTS.nothingChanged);
  for (const w of wanted) {
    checkCopies(w.copies, `dag${w.weekday}`);
    const usual = supply.weekdays[w.weekday - 1].usual;
    if (w.copies === usual) throw refuse.invalid(SUPPLY_TEXTS.sameAsUsual(usual), { field: `dag${w.weekday}` });
  }
  const { startDate, cutoffAt } = weekdayStart(now, cutoffs);
  const c = schema.supplyChanges;
  const ids = await writeTransaction(async (tx) => {
    const made: number[] = [];
    for (const w of wanted) {
      const figures = supply.weekdays[w.weekday - 1];
      const cleared = await clearTheDay(tx, and(eq(c.customerId, customerId), eq(c.titleId, paper.titleId), eq(c.editionId, paper.editionId), eq(c.weekday, w.weekday)), now);
      const [row] = await tx
        .insert(c)
        .values({
          customerId,
          titleId: paper.titleId,
          editionId: paper.editionId,
          weekday: w.weekday,
          oldCopies: figures.usual,
          requested: w.copies,
          status: "sent",
          origin: "retailer",
          suggestion: figures.suggestion?.copies === w.copies ? figures.suggestion.reason : null,
          startDate,
          cutoffAt,
          createdBy: actor.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: c.id });
      made.push(row.id);
      await audit(
        { actor, action: "supply.request", target: `customer:${customerId}`, detail: { id: row.id, paper: name, weekday: w.weekday, old: figures.usual, requested: w.copies, startDate, ...cleared } },
        tx,
      );
    }
    return made;
  });
  return { ids, startDate, paper: name, sent: wanted };
}

/** Why a one-off date cannot be asked for (or decided) at `now`, or null. */
function oneOffProblem(date: string, now: number, cutoffs: SupplyCutoffs): string | null {
  const today = stockholmDate(now);
  if (!isValidDate(date)) return SUPPLY_TEXTS.dateInvalid;
  if (date <= today) return SUPPLY_TEXTS.oneOffTooLate(stockholmTime(oneOffCutoff(date, cutoffs)).slice(0, 16));
  if (date > addDays(today, SUPPLY_ONE_OFF_MAX_DAYS)) return SUPPLY_TEXTS.oneOffTooFar;
  const cutoff = oneOffCutoff(date, cutoffs);
  if (now > cutoff) return SUPPLY_TEXTS.oneOffTooLate(stockholmTime(cutoff).slice(0, 16));
  return null;
}

/** The start a one-off change's cut-off gives for a date, for the page to say before sending. */
export function oneOffDeadline(date: string, cutoffs: SupplyCutoffs = config.supplyCutoffs): string {
  return stockholmTime(oneOffCutoff(date, cutoffs)).slice(0, 16);
}

/** A retailer's change of one paper for one date only. */
export async function sendOneOffChange(
  customerId: number,
  paper: { titleId: number; editionId: number },
  date: string,
  copies: number,
  actor: Actor,
  now = portalNow(),
  cutoffs: SupplyCutoffs = config.supplyCutoffs,
): Promise<{ id: number }> {
  const name = await mainPaper(getDb(), paper.titleId, paper.editionId);
  const problem = oneOffProblem(date, now, cutoffs);
  if (problem) throw refuse.invalid(problem, { field: "datum" });
  checkCopies(copies, "antal");
  const usual = await usualOf(customerId, paper.titleId, paper.editionId, isoWeekday(date), stockholmDate(now));
  if (usual === null) throw refuse.invalid(SUPPLY_TEXTS.paperMissing, { field: "tidning" });
  if (copies === usual) throw refuse.invalid(SUPPLY_TEXTS.sameAsUsual(usual), { field: "antal" });
  const c = schema.supplyChanges;
  return writeTransaction(async (tx) => {
    const cleared = await clearTheDay(tx, and(eq(c.customerId, customerId), eq(c.titleId, paper.titleId), eq(c.editionId, paper.editionId), eq(c.oneOffDate, date)), now);
    const [row] = await tx
      .insert(c)
      .values({
        customerId,
        titleId: paper.titleId,
        editionId: paper.editionId,
        oneOffDate: date,
        oldCopies: usual,
        requested: copies,
        status: "sent",
        origin: "retailer",
        startDate: date,
        cutoffAt: oneOffCutoff(date, cutoffs),
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: c.id });
    await audit({ actor, action: "supply.request", target: `customer:${customerId}`, detail: { id: row.id, paper: name, date, old: usual, requested: copies, ...cleared } }, tx);
    return { id: row.id };
  });
}

/** Reads one change of a shop, refused as unknown when it is another shop's. */
async function ownChange(tx: Tx, customerId: number, id: number) {
  const c = schema.supplyChanges;
  const [row] = await tx.select().from(c).where(and(eq(c.id, id), eq(c.customerId, customerId)));
  if (!row) throw refuse.notFound(SUPPLY_TEXTS.notFound(id));
  return row;
}

/** Ångra: the retailer takes back a request staff have not decided. */
export async function withdrawChange(customerId: number, id: number, actor: Actor, now = portalNow()): Promise<void> {
  await writeTransaction(async (tx) => {
    const row = await ownChange(tx, customerId, id);
    if (row.status !== "sent") throw refuse.conflict(SUPPLY_TEXTS.notOpen(id));
    const c = schema.supplyChanges;
    await tx.update(c).set({ status: "withdrawn", updatedAt: now }).where(and(eq(c.id, id), eq(c.status, "sent")));
    await audit({ actor, action: "supply.withdraw", target: `customer:${customerId}`, detail: { id } }, tx);
  });
}

/** The first start on or after `startDate` (a Monday) that leaves the notice a cut needs. */
function withNotice(startDate: string, now: number): string {
  let start = startDate;
  while (stockholmMidnight(start) - now < SUPPLY_NOTICE_HOURS * 3_600_000) start = addDays(start, 7);
  return start;
}

/**
 * The retailer's answer to a staff proposal. Accepted, it is decided as proposed and starts
 * where the cut-off puts it from now (a cut at least 48 hours after now); declined, nothing
 * changes.
 */
export async function answerProposal(customerId: number, id: number, accept: boolean, actor: Actor, now = portalNow(), cutoffs: SupplyCutoffs = config.supplyCutoffs): Promise<{ startDate: string }> {
  return writeTransaction(async (tx) => {
    const row = await ownChange(tx, customerId, id);
    if (row.status !== "proposed") throw refuse.conflict(SUPPLY_TEXTS.notOpen(id));
    const c = schema.supplyChanges;
    if (!accept) {
      await tx.update(c).set({ status: "declined", answeredAt: now, updatedAt: now }).where(eq(c.id, id));
      await audit({ actor, action: "supply.decline", target: `customer:${customerId}`, detail: { id } }, tx);
      return { startDate: row.startDate };
    }
    let startDate: string;
    let cutoffAt: number;
    if (row.weekday !== null) {
      ({ startDate, cutoffAt } = weekdayStart(now, cutoffs));
      if (row.requested < row.oldCopies) startDate = withNotice(startDate, now);
    } else {
      const problem = oneOffProblem(row.oneOffDate!, now, cutoffs);
      if (problem) throw refuse.invalid(problem);
      if (row.requested < row.oldCopies && stockholmMidnight(row.oneOffDate!) - now < SUPPLY_NOTICE_HOURS * 3_600_000) throw refuse.invalid(SUPPLY_TEXTS.noticeTooShort);
      startDate = row.oneOffDate!;
      cutoffAt = row.cutoffAt;
    }
    await tx.update(c).set({ status: "approved", newCopies: row.requested, startDate, cutoffAt, answeredAt: now, decidedAt: now, updatedAt: now }).where(eq(c.id, id));
    await audit({ actor, action: "supply.accept", target: `customer:${customerId}`, detail: { id, copies: row.requested, startDate } }, tx);
    return { startDate };
  });
}

export type SupplyDecision = { decision: "approve" } | { decision: "adjust"; copies: number; reason: string } | { decision: "reject"; reason: string };

type Staff = { actor: Actor; email: string };

const inScope = (scope: DistributorScope) => (scope.distributorIds === null ? sql`1` : sql`${schema.customers.distributorId} in ${scope.distributorIds.length ? scope.distributorIds : [-1]}`);

/**
 * Staff decide requests (one, or several at once: all or none). A weekday change decided
 * after its cut-off starts where the cut-off puts it from now; a one-off change past its
 * cut-off can only be rejected; a cut beyond what the retailer asked starts at least 48 hours
 * after the decision.
 */
export async function decideSupplyChanges(ids: number[], decision: SupplyDecision, scope: DistributorScope, staff: Staff, now = portalNow(), cutoffs: SupplyCutoffs = config.supplyCutoffs): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw refuse.invalid(SUPPLY_TEXTS.nothingChosen);
  if (decision.decision !== "approve" && decision.reason.trim() === "") throw refuse.invalid(SUPPLY_TEXTS.reasonMissing, { field: "anledning" });
  if (decision.decision === "adjust") checkCopies(decision.copies, "antal");
  return writeTransaction(async (tx) => {
    const c = schema.supplyChanges;
    const rows = await tx
      .select({ row: c, distributorId: schema.customers.distributorId })
      .from(c)
      .innerJoin(schema.customers, eq(schema.customers.id, c.customerId))
      .where(and(inArray(c.id, unique), inScope(scope)));
    for (const id of unique) if (!rows.some((r) => r.row.id === id)) throw refuse.notFound(SUPPLY_TEXTS.notFound(id));
    for (const { row } of rows) {
      if (row.status !== "sent") throw refuse.conflict(SUPPLY_TEXTS.notOpen(row.id));
      const copies = decision.decision === "approve" ? row.requested : decision.decision === "adjust" ? decision.copies : null;
      let { startDate, cutoffAt } = row;
      if (copies !== null) {
        const cut = copies < row.oldCopies && copies < row.requested;
        if (row.weekday !== null) {
          if (now > row.cutoffAt) ({ startDate, cutoffAt } = weekdayStart(now, cutoffs));
          if (cut) startDate = withNotice(startDate, now);
        } else {
          if (now > row.cutoffAt) throw refuse.invalid(SUPPLY_TEXTS.decisionTooLate(stockholmTime(row.cutoffAt).slice(0, 16)));
          if (cut && stockholmMidnight(row.oneOffDate!) - now < SUPPLY_NOTICE_HOURS * 3_600_000) throw refuse.invalid(SUPPLY_TEXTS.noticeTooShort);
        }
      }
      const status = decision.decision === "approve" ? "approved" : decision.decision === "adjust" ? "adjusted" : "rejected";
      const reason = decision.decision === "approve" ? null : decision.reason.trim().slice(0, 500);
      await tx.update(c).set({ status, newCopies: copies, reason, startDate, cutoffAt, decidedAt: now, decidedBy: staff.email, updatedAt: now }).where(and(eq(c.id, row.id), eq(c.status, "sent")));
      await audit({ actor: staff.actor, action: "supply.decide", target: `customer:${row.customerId}`, detail: { id: row.id, status, copies, requested: row.requested, reason, startDate } }, tx);
    }
    return rows.map((r) => r.row.id);
  });
}

export type Proposal = { customerId: number; titleId: number; editionId: number; weekday: number | null; date: string | null; copies: number; reason: string };

/**
 * Staff propose a change to a retailer, who sees it on the start page and in Leveransändring
 * and accepts or declines it. A proposal still unanswered for the same day is replaced.
 */
export async function proposeSupplyChanges(proposals: Proposal[], scope: DistributorScope, staff: Staff, now = portalNow(), cutoffs: SupplyCutoffs = config.supplyCutoffs): Promise<number[]> {
  if (proposals.length === 0) throw refuse.invalid(SUPPLY_TEXTS.nothingChosen);
  const today = stockholmDate(now);
  const prepared: (Proposal & { old: number; paper: string; startDate: string; cutoffAt: number })[] = [];
  for (const p of proposals) {
    const reason = p.reason.trim();
    if (!reason) throw refuse.invalid(SUPPLY_TEXTS.reasonMissing, { field: "anledning" });
    checkCopies(p.copies, "antal");
    const [customer] = await getDb()
      .select({ id: schema.customers.id })
      .from(schema.customers)
      .where(and(eq(schema.customers.id, p.customerId), isNull(schema.customers.deactivatedAt), inScope(scope)));
    if (!customer) throw refuse.invalid(SUPPLY_TEXTS.customerMissing, { field: "kund" });
    const paper = await mainPaper(getDb(), p.titleId, p.editionId);
    let weekday = p.weekday;
    let startDate: string;
    let cutoffAt: number;
    if (p.date !== null) {
      const problem = oneOffProblem(p.date, now, cutoffs);
      if (problem) throw refuse.invalid(problem, { field: "datum" });
      weekday = isoWeekday(p.date);
      startDate = p.date;
      cutoffAt = oneOffCutoff(p.date, cutoffs);
    } else {
      if (weekday === null || weekday < 1 || weekday > 7) throw refuse.invalid(SUPPLY_TEXTS.weekdayMissing, { field: "veckodag" });
      ({ startDate, cutoffAt } = weekdayStart(now, cutoffs));
    }
    // A paper the shop has not had: its usual is 0 (staff may propose to start it).
    const old = (await usualOf(p.customerId, p.titleId, p.editionId, weekday, today)) ?? 0;
    if (p.copies === old) throw refuse.invalid(SUPPLY_TEXTS.sameAsUsual(old), { field: "antal" });
    prepared.push({ ...p, reason: reason.slice(0, 500), old, paper, startDate, cutoffAt });
  }
  return writeTransaction(async (tx) => {
    const c = schema.supplyChanges;
    const ids: number[] = [];
    for (const p of prepared) {
      const same = and(eq(c.customerId, p.customerId), eq(c.titleId, p.titleId), eq(c.editionId, p.editionId), p.date !== null ? eq(c.oneOffDate, p.date) : eq(c.weekday, p.weekday!));
      // The shop's own request for that day comes first: staff decide it instead.
      const [asked] = await tx.select({ id: c.id }).from(c).where(and(same, eq(c.status, "sent")));
      if (asked) throw refuse.conflict(SUPPLY_TEXTS.alreadyAsked(asked.id));
      const replaced = await tx.update(c).set({ status: "withdrawn", updatedAt: now }).where(and(same, eq(c.status, "proposed"))).returning({ id: c.id });
      const [row] = await tx
        .insert(c)
        .values({
          customerId: p.customerId,
          titleId: p.titleId,
          editionId: p.editionId,
          weekday: p.date !== null ? null : p.weekday,
          oneOffDate: p.date,
          oldCopies: p.old,
          requested: p.copies,
          status: "proposed",
          origin: "staff",
          reason: p.reason,
          startDate: p.startDate,
          cutoffAt: p.cutoffAt,
          createdBy: staff.actor.id,
          decidedBy: staff.email,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: c.id });
      ids.push(row.id);
      await audit({ actor: staff.actor, action: "supply.propose", target: `customer:${p.customerId}`, detail: { id: row.id, paper: p.paper, weekday: p.weekday, date: p.date, old: p.old, copies: p.copies, reason: p.reason, replaced: replaced.map((r) => r.id) } }, tx);
    }
    return ids;
  });
}

export type ChosenSuggestion = { customerId: number; titleId: number; editionId: number; weekday: number; copies: number };

/**
 * The suggestions staff chose (the boxes of Förslag från försäljningen) proposed to their
 * shops, each with its words as they stand now. A shop outside the scope is answered as
 * unknown before anything of it is read; a suggestion that has changed since the page was
 * drawn is refused.
 */
export async function proposeSuggestions(chosen: ChosenSuggestion[], scope: DistributorScope, staff: Staff, now = portalNow(), cutoffs: SupplyCutoffs = config.supplyCutoffs): Promise<number[]> {
  const proposals: Proposal[] = [];
  for (const ch of chosen) {
    const [customer] = await getDb()
      .select({ id: schema.customers.id })
      .from(schema.customers)
      .where(and(eq(schema.customers.id, ch.customerId), isNull(schema.customers.deactivatedAt), inScope(scope)));
    if (!customer) throw refuse.invalid(SUPPLY_TEXTS.customerMissing);
    const paper = (await customerSupply(ch.customerId, stockholmDate(now))).find((p) => p.titleId === ch.titleId && p.editionId === ch.editionId);
    const suggestion = paper?.weekdays[ch.weekday - 1]?.suggestion;
    if (!suggestion || suggestion.copies !== ch.copies) throw refuse.conflict(SUPPLY_TEXTS.suggestionChanged(ch.customerId, ch.weekday));
    proposals.push({ ...ch, date: null, reason: `${suggestion.reason}.` });
  }
  return proposeSupplyChanges(proposals, scope, staff, now, cutoffs);
}

/** Proposals a shop has not answered and still can (its start page): a one-off one until its cut-off. */
export async function openProposals(customerId: number, now = portalNow()): Promise<SupplyChange[]> {
  const c = schema.supplyChanges;
  const rows = await getDb()
    .select(changeColumns)
    .from(c)
    .where(and(eq(c.customerId, customerId), eq(c.status, "proposed"), or(isNull(c.oneOffDate), sql`${c.cutoffAt} >= ${now}`)))
    .orderBy(asc(c.id));
  return rows.map((r) => toChange(r as ChangeRow));
}

// ---- Staff: the queue ----


export type SupplyQuery = { filter: SupplyQueueFilter; distributorId: number | null; titleId: number | null; startFrom: string | null; startTo: string | null; page: number };

export type QueueRow = SupplyChange & { customerName: string; distributorId: number; late: boolean; notDone: boolean };

export const SUPPLY_PAGE_SIZE = 50;

/** Not in force a week after its start, though decided: planning has not done it. */
const notDoneSql = (today: string) => sql`${schema.supplyChanges.status} in ('approved', 'adjusted') and ${schema.supplyChanges.startDate} <= ${addDays(today, -7)}`;

/** The staff queue: a page of changes, filtered; the count for the pager. */
export async function supplyQueue(q: SupplyQuery, scope: DistributorScope, now = portalNow()): Promise<{ rows: QueueRow[]; total: number }> {
  const c = schema.supplyChanges;
  const cu = schema.customers;
  const today = stockholmDate(now);
  const where: SQL[] = [inScope(scope)];
  if (q.filter === "oppna") where.push(sql`${c.status} in ('sent', 'proposed')`);
  else if (q.filter === "ej-beslutade") where.push(sql`${c.status} = 'sent' and ${c.cutoffAt} < ${now}`);
  else if (q.filter === "att-skicka") where.push(sql`${c.status} in ('approved', 'adjusted') and ${c.exportId} is null`);
  else if (q.filter === "ej-genomforda") where.push(notDoneSql(today));
  else if (q.filter !== "alla") where.push(eq(c.status, q.filter));
  if (q.distributorId !== null) where.push(eq(cu.distributorId, q.distributorId));
  if (q.titleId !== null) where.push(eq(c.titleId, q.titleId));
  if (q.startFrom) where.push(sql`${c.startDate} >= ${q.startFrom}`);
  if (q.startTo) where.push(sql`${c.startDate} <= ${q.startTo}`);
  const all = and(...where);
  const [rows, [count]] = await Promise.all([
    getDb()
      .select({ ...changeColumns, customerName: cu.name, distributorId: cu.distributorId, notDone: sql<number>`${notDoneSql(today)}` })
      .from(c)
      .innerJoin(cu, eq(cu.id, c.customerId))
      .where(all)
      .orderBy(asc(c.startDate), asc(c.id))
      .limit(SUPPLY_PAGE_SIZE)
      .offset((q.page - 1) * SUPPLY_PAGE_SIZE),
    getDb().select({ n: sql<number>`count(*)`.mapWith(Number) }).from(c).innerJoin(cu, eq(cu.id, c.customerId)).where(all),
  ]);
  return {
    rows: rows.map((r) => ({
      ...toChange(r as ChangeRow),
      customerName: r.customerName,
      distributorId: r.distributorId,
      late: r.status === "sent" && r.cutoffAt < now,
      notDone: Boolean(r.notDone),
    })),
    total: count?.n ?? 0,
  };
}

/** One change as staff see it, or null outside the scope. */
export async function staffSupplyChange(id: number, scope: DistributorScope, now = portalNow()): Promise<QueueRow | null> {
  const c = schema.supplyChanges;
  const cu = schema.customers;
  const [r] = await getDb()
    .select({ ...changeColumns, customerName: cu.name, distributorId: cu.distributorId, notDone: sql<number>`${notDoneSql(stockholmDate(now))}` })
    .from(c)
    .innerJoin(cu, eq(cu.id, c.customerId))
    .where(and(eq(c.id, id), inScope(scope)));
  if (!r) return null;
  return { ...toChange(r as ChangeRow), customerName: r.customerName, distributorId: r.distributorId, late: r.status === "sent" && r.cutoffAt < now, notDone: Boolean(r.notDone) };
}

// ---- Suggestions for staff ----

export type CustomerSuggestion = { customerId: number; customerName: string; titleId: number; editionId: number; paper: string; weekday: number; usual: number; suggestion: Suggestion };

/**
 * The suggestions of every shop in scope (one distributor, or the whole country): one pass
 * over eight weeks of main-paper deliveries, the rule per shop, paper and weekday.
 * Weekdays with a change open or decided and not yet in force are left out.
 */
export async function supplySuggestions(filter: { distributorId: number | null }, scope: DistributorScope, today = todayDate()): Promise<CustomerSuggestion[]> {
  const ids = filter.distributorId !== null ? [filter.distributorId] : scope.distributorIds;
  if (filter.distributorId !== null && scope.distributorIds !== null && !scope.distributorIds.includes(filter.distributorId)) return [];
  const who =
    ids === null
      ? sql`d.customer_id in (select id from customers where deactivated_at is null)`
      : sql`d.customer_id in (select id from customers where deactivated_at is null and distributor_id in ${ids.length ? ids : [-1]})`;
  const [rows, names, busy] = await Promise.all([
    histories(who, today),
    getDb().all<{ id: number; name: string }>(sql`select id, name from customers where ${ids === null ? sql`1` : sql`distributor_id in ${ids.length ? ids : [-1]}`}`),
    getDb().all<{ k: string }>(
      sql`select customer_id || ':' || title_id || ':' || edition_id || ':' || weekday as k from supply_changes where status in ('sent', 'proposed', 'approved', 'adjusted') and weekday is not null`,
    ),
  ]);
  const name = new Map(names.map((n) => [Number(n.id), n.name]));
  const open = new Set(busy.map((b) => b.k));
  const out: CustomerSuggestion[] = [];
  for (const p of rows) {
    for (const f of weekdayFigures(p.days)) {
      if (!f.suggestion || open.has(`${p.customerId}:${p.titleId}:${p.editionId}:${f.weekday}`)) continue;
      out.push({ customerId: p.customerId, customerName: name.get(p.customerId) ?? "", titleId: p.titleId, editionId: p.editionId, paper: p.paper, weekday: f.weekday, usual: f.usual, suggestion: f.suggestion });
    }
  }
  return out;
}

// ---- Planning ----

export type PlanningRow = {
  customerId: number;
  customerName: string;
  paper: string;
  when: string;
  oldCopies: number;
  newCopies: number;
  startDate: string;
  decidedBy: string;
  reason: string;
};

export type SupplyExport = { id: number; createdBy: string; createdAt: number; rowCount: number };

/**
 * Sends the decided changes planning has not had to planning: one export with who made it and
 * when, each change in exactly one export (two staff at once: the second gets what is left).
 * Null when there is nothing to send.
 */
export async function exportSupplyChanges(scope: DistributorScope, createdBy: string, actor: Actor, now = portalNow()): Promise<SupplyExport | null> {
  return writeTransaction(async (tx) => {
    const c = schema.supplyChanges;
    const pending = await tx.all<{ id: number }>(sql`
      select sc.id as id from supply_changes sc indexed by supply_changes_to_export join customers cu on cu.id = sc.customer_id
      where sc.status in ('approved', 'adjusted') and sc.export_id is null and ${scope.distributorIds === null ? sql`1` : sql`cu.distributor_id in ${scope.distributorIds.length ? scope.distributorIds : [-1]}`}`);
    if (pending.length === 0) return null;
    const [made] = await tx.insert(schema.supplyExports).values({ createdBy, rowCount: pending.length, createdAt: now, updatedAt: now }).returning();
    const ids = pending.map((p) => Number(p.id));
    for (let i = 0; i < ids.length; i += 500) {
      await tx
        .update(c)
        .set({ exportId: made.id, updatedAt: now })
        .where(and(inArray(c.id, ids.slice(i, i + 500)), isNull(c.exportId)));
    }
    await audit({ actor, action: "supply.export", target: `supply-export:${made.id}`, detail: { rows: pending.length } }, tx);
    return { id: made.id, createdBy: made.createdBy, createdAt: made.createdAt, rowCount: made.rowCount };
  });
}

/** The rows of one export, in customer order; null when it is not in scope (a utb user sees their own customers' rows). */
export async function supplyExportRows(id: number, scope: DistributorScope): Promise<{ export: SupplyExport; rows: PlanningRow[] } | null> {
  const [made] = await getDb().select().from(schema.supplyExports).where(eq(schema.supplyExports.id, id));
  if (!made) return null;
  const c = schema.supplyChanges;
  const cu = schema.customers;
  const rows = await getDb()
    .select({ ...changeColumns, customerName: cu.name })
    .from(c)
    .innerJoin(cu, eq(cu.id, c.customerId))
    .where(and(eq(c.exportId, id), inScope(scope)))
    .orderBy(asc(c.customerId), asc(c.titleId), asc(c.editionId), asc(sql`coalesce(${c.weekday}, 0)`), asc(c.oneOffDate));
  if (rows.length === 0 && scope.distributorIds !== null) return null;
  return {
    export: { id: made.id, createdBy: made.createdBy, createdAt: made.createdAt, rowCount: made.rowCount },
    rows: rows.map((r) => {
      const ch = toChange(r as ChangeRow);
      return {
        customerId: ch.customerId,
        customerName: r.customerName,
        paper: ch.paper,
        when: ch.weekday !== null ? WEEKDAY_FILE[ch.weekday - 1] : ch.oneOffDate!,
        oldCopies: ch.oldCopies,
        newCopies: ch.newCopies ?? ch.requested,
        startDate: ch.startDate,
        decidedBy: ch.decidedBy ?? "",
        reason: ch.reason ?? ch.suggestion ?? "",
      };
    }),
  };
}

const WEEKDAY_FILE = ["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"];

/** The exports made that hold changes in scope, newest first (the staff page's list). */
export async function supplyExports(scope: DistributorScope, limit = 20): Promise<SupplyExport[]> {
  const rows = await getDb().all<{ id: number; createdBy: string; createdAt: number; rowCount: number }>(sql`
    select x.id as id, x.created_by as createdBy, x.created_at as createdAt,
      ${scope.distributorIds === null ? sql`x.row_count` : sql`(select count(*) from supply_changes sc join customers cu on cu.id = sc.customer_id where sc.export_id = x.id and cu.distributor_id in ${scope.distributorIds.length ? scope.distributorIds : [-1]})`} as rowCount
    from supply_exports x order by x.id desc limit ${limit * 5}`);
  return rows
    .map((r) => ({ id: Number(r.id), createdBy: r.createdBy, createdAt: Number(r.createdAt), rowCount: Number(r.rowCount) }))
    .filter((r) => r.rowCount > 0)
    .slice(0, limit);
}

export const PLANNING_COLUMNS = ["kundnummer", "kund", "titel", "veckodag_eller_datum", "gammalt_antal", "nytt_antal", "startdatum", "beslutat_av", "anledning"] as const;

/** The planning file as CSV: `;`, UTF-8, a header line, CRLF (docs/formats.md). */
export function planningCsv(rows: PlanningRow[]): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [PLANNING_COLUMNS.join(";"), ...rows.map((r) => [r.customerId, r.customerName, r.paper, r.when, r.oldCopies, r.newCopies, r.startDate, r.decidedBy, r.reason].map(cell).join(";"))];
  return lines.join("\r\n") + "\r\n";
}

// ---- The loop closes ----

/**
 * After a deliveries import: each decided change whose new number the deliveries now bring,
 * on its weekday on or after its start (or on its date), is in force.
 */
export async function settleSupplyChanges(tx: Tx, now = portalNow()): Promise<number> {
  const done = await tx.all<{ id: number }>(sql`
    update supply_changes set status = 'in_force', in_force_at = ${now}, updated_at = ${now}
    where status in ('approved', 'adjusted') and exists (
      select 1 from deliveries d
      where d.customer_id = supply_changes.customer_id and d.title_id = supply_changes.title_id and d.edition_id = supply_changes.edition_id
        and d.delivered = supply_changes.new_copies
        and (case when supply_changes.weekday is null then d.delivery_date = supply_changes.one_off_date
             else d.delivery_date >= supply_changes.start_date and ((cast(strftime('%w', d.delivery_date) as integer) + 6) % 7) + 1 = supply_changes.weekday end))
    returning id`);
  if (done.length > 0) await audit({ actor: { id: "import" }, action: "supply.in-force", target: null, detail: { ids: done.map((d) => Number(d.id)) } }, tx);
  return done.length;
}
