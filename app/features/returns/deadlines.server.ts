// Return deadlines (decision 018). A paper's last return day ("Sista
// returdag") is its delivery date + the return window of its edition, else of its paper
// type. What happens after it is the retailer's distributor's policy: 'reject' (the row
// is locked, the save refuses it) or 'accept' (stored and marked late). Staff set the
// windows beside the product information and the policy per distributor.
import { and, asc, between, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { addDays, today as todayDate } from "~/lib/dates";
import { portalNow } from "../../../db/clock";

/** The longest window: the returns form lists the last 14 days (REPORT_WINDOW_DAYS). */
export const MAX_RETURN_DAYS = 14;
/** Used only if return_windows lacks a paper type (it is seeded by migration 0012). */
const FALLBACK_DAYS = MAX_RETURN_DAYS;

export type LatePolicy = "reject" | "accept";

/**
 * The last return day of a delivery as SQL, for a query that joins `deliveries` and
 * `editions` (one correlated lookup of a two-row table).
 */
export function deadlineSql(): SQL<string> {
  const d = schema.deliveries;
  const e = schema.editions;
  return deadlineSqlOf({ deliveryDate: d.deliveryDate, returnDays: e.returnDays, type: e.type });
}

/** The same for a raw query with its own aliases (e.g. sql`d.delivery_date`). */
export function deadlineSqlOf(c: { deliveryDate: SQLWrapper; returnDays: SQLWrapper; type: SQLWrapper }): SQL<string> {
  const w = schema.returnWindows;
  return sql<string>`date(${c.deliveryDate}, '+' || coalesce(${c.returnDays}, (select ${w.days} from ${w} where ${w.paperType} = ${c.type}), ${FALLBACK_DAYS}) || ' days')`;
}

export type ReturnRules = {
  windows: Record<0 | 1, number>;
  editions: { titleId: number; editionId: number; title: string; description: string; type: number; returnDays: number | null }[];
  distributors: { id: number; name: string; lateReturns: LatePolicy; deadlineLock: boolean }[];
};

/** Everything the staff page shows: the two windows, every edition's override, every distributor's policy. */
export async function getReturnRules(distributorId?: number | null): Promise<ReturnRules> {
  const db = getDb();
  const e = schema.editions;
  const t = schema.titles;
  const dist = schema.distributors;
  const [windows, editions, distributors] = await Promise.all([
    db.select().from(schema.returnWindows),
    db
      .select({ titleId: e.titleId, editionId: e.editionId, title: t.name, description: e.description, type: e.type, returnDays: e.returnDays })
      .from(e)
      .innerJoin(t, eq(t.id, e.titleId))
      .orderBy(asc(e.titleId), asc(e.editionId)),
    db
      .select({ id: dist.id, name: dist.name, lateReturns: dist.lateReturns, deadlineLock: dist.deadlineLock })
      .from(dist)
      .where(distributorId ? eq(dist.id, distributorId) : undefined)
      .orderBy(asc(dist.id)),
  ]);
  const byType = new Map(windows.map((w) => [w.paperType, w.days]));
  return {
    windows: { 0: byType.get(0) ?? FALLBACK_DAYS, 1: byType.get(1) ?? FALLBACK_DAYS },
    editions,
    distributors: distributors.map((d) => ({ ...d, lateReturns: d.lateReturns === "accept" ? "accept" : "reject" })),
  };
}

export async function saveReturnWindows(input: { main: number; inserts: number }, actor: Actor): Promise<void> {
  await writeTransaction(async (tx) => {
    const w = schema.returnWindows;
    for (const [paperType, days] of [
      [0, input.main],
      [1, input.inserts],
    ] as const) {
      await tx
        .insert(w)
        .values({ paperType, days })
        .onConflictDoUpdate({ target: w.paperType, set: { days, updatedAt: portalNow() } });
    }
    await audit({ actor, action: "return-windows.save", target: "return-windows", detail: { main: input.main, inserts: input.inserts } }, tx);
  });
}

/** What new windows per paper type would do to the papers retailers can still return. */
export type WindowsEffect = {
  /** Papers (deliveries) still returnable before or after the change whose last return day moves. */
  changed: number;
  /** Of them, returnable today now, passed after the change. */
  nowPassed: number;
  /** Of them, passed now, returnable again after the change. */
  reopened: number;
};

/**
 * What moving last return days does, counted on the deliveries of the last MAX_RETURN_DAYS
 * days that `where` picks (joined as `d` and `e`), from `oldDay` to `newDay` (SQL dates).
 */
async function deadlineEffect(where: SQL, oldDay: SQL, newDay: SQL, today: string): Promise<WindowsEffect> {
  const [row] = await getDb().all<WindowsEffect>(sql`
    select coalesce(sum(case when old_day <> new_day then 1 else 0 end), 0) as changed,
      coalesce(sum(case when old_day >= ${today} and new_day < ${today} then 1 else 0 end), 0) as nowPassed,
      coalesce(sum(case when old_day < ${today} and new_day >= ${today} then 1 else 0 end), 0) as reopened
    from (
      select ${oldDay} as old_day, ${newDay} as new_day
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where ${where} and d.delivery_date >= ${addDays(today, -MAX_RETURN_DAYS - 1)}
    )
    where old_day >= ${today} or new_day >= ${today}`);
  return { changed: Number(row?.changed ?? 0), nowPassed: Number(row?.nowPassed ?? 0), reopened: Number(row?.reopened ?? 0) };
}

const typeWindow = sql`coalesce((select ${schema.returnWindows.days} from ${schema.returnWindows} where ${schema.returnWindows.paperType} = e.type), ${FALLBACK_DAYS})`;
const plusDays = (days: SQL) => sql`date(d.delivery_date, '+' || ${days} || ' days')`;

/**
 * The effect of saving `input` as the windows per paper type, counted on the deliveries
 * of the last MAX_RETURN_DAYS days of editions that follow their type's window (an
 * edition with its own window is not moved). Shown to the admin before the change is saved.
 */
export function previewReturnWindows(input: { main: number; inserts: number }, today = todayDate()): Promise<WindowsEffect> {
  return deadlineEffect(sql`e.return_days is null`, plusDays(typeWindow), plusDays(sql`(case e.type when 0 then ${input.main} else ${input.inserts} end)`), today);
}

/** The effect of giving one edition its own window (`days`), or its type's (null). */
/** An edition's description as Sista returdag lists it, or null when there is no such edition. */
export async function editionDescription(titleId: number, editionId: number): Promise<string | null> {
  const e = schema.editions;
  const [row] = await getDb()
    .select({ description: e.description })
    .from(e)
    .where(and(eq(e.titleId, titleId), eq(e.editionId, editionId)));
  return row?.description ?? null;
}

export function previewEditionReturnDays(titleId: number, editionId: number, days: number | null, today = todayDate()): Promise<WindowsEffect> {
  return deadlineEffect(
    sql`e.title_id = ${titleId} and e.edition_id = ${editionId}`,
    plusDays(sql`coalesce(e.return_days, ${typeWindow})`),
    plusDays(days === null ? typeWindow : sql`${days}`),
    today,
  );
}

/** What a distributor's rule touches now: its active customers, their passed and nearly due unreported papers. */
export type PolicyReach = {
  name: string;
  lateReturns: LatePolicy;
  deadlineLock: boolean;
  customers: number;
  /** Unreported papers of the last MAX_RETURN_DAYS days whose last return day has passed. */
  passed: number;
  /** Customers with unreported papers whose last return day is today or tomorrow (locked while the lock is on). */
  dueCustomers: number;
};

export async function distributorPolicyReach(distributorId: number, today = todayDate()): Promise<PolicyReach | null> {
  const dist = schema.distributors;
  const [d] = await getDb().select({ name: dist.name, lateReturns: dist.lateReturns, deadlineLock: dist.deadlineLock }).from(dist).where(eq(dist.id, distributorId));
  if (!d) return null;
  const deadline = deadlineSqlOf({ deliveryDate: sql`d.delivery_date`, returnDays: sql`e.return_days`, type: sql`e.type` });
  const [row] = await getDb().all<{ customers: number; passed: number; dueCustomers: number }>(sql`
    select (select count(*) from customers c where c.distributor_id = ${distributorId} and c.deactivated_at is null) as customers,
      coalesce(sum(case when deadline < ${today} then 1 else 0 end), 0) as passed,
      count(distinct case when deadline between ${today} and ${addDays(today, 1)} then customer_id end) as dueCustomers
    from (
      select d.customer_id, ${deadline} as deadline
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
        join customers c on c.id = d.customer_id
      where c.distributor_id = ${distributorId} and c.deactivated_at is null and d.reported_at is null
        and d.delivery_date between ${addDays(today, -MAX_RETURN_DAYS)} and ${today}
    )`);
  return {
    name: d.name,
    lateReturns: d.lateReturns === "accept" ? "accept" : "reject",
    deadlineLock: d.deadlineLock,
    customers: Number(row?.customers ?? 0),
    passed: Number(row?.passed ?? 0),
    dueCustomers: Number(row?.dueCustomers ?? 0),
  };
}

/** An edition's own window, or null for its paper type's. False when there is no such edition. */
export async function saveEditionReturnDays(titleId: number, editionId: number, days: number | null, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const e = schema.editions;
    const done = await tx
      .update(e)
      .set({ returnDays: days, updatedAt: portalNow() })
      .where(and(eq(e.titleId, titleId), eq(e.editionId, editionId)))
      .returning({ titleId: e.titleId });
    if (done.length === 0) return false;
    await audit({ actor, action: "edition.return-days", target: `edition:${titleId}/${editionId}`, detail: { days } }, tx);
    return true;
  });
}

export async function saveDistributorPolicy(distributorId: number, input: { lateReturns: LatePolicy; deadlineLock: boolean }, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const d = schema.distributors;
    const done = await tx
      .update(d)
      .set({ lateReturns: input.lateReturns, deadlineLock: input.deadlineLock, updatedAt: portalNow() })
      .where(eq(d.id, distributorId))
      .returning({ id: d.id });
    if (done.length === 0) return false;
    await audit({ actor, action: "distributor.late-returns", target: `distributor:${distributorId}`, detail: input }, tx);
    return true;
  });
}

/** The policy that applies to a customer's returns (their distributor's). */
export async function latePolicyOf(customerId: number): Promise<LatePolicy> {
  const c = schema.customers;
  const d = schema.distributors;
  const [row] = await getDb()
    .select({ lateReturns: d.lateReturns })
    .from(c)
    .innerJoin(d, eq(d.id, c.distributorId))
    .where(eq(c.id, customerId));
  return row?.lateReturns === "accept" ? "accept" : "reject";
}

export type DuePaper = { deliveryId: number; title: string; edition: string; type: number; deliveryDate: string; deadline: string };

/**
 * Unreported papers of these customers whose last return day lies in [on, on + days]
 * (0 = today only), soonest first. Papers past their day are not "due" any more.
 */
export async function papersDue(customerIds: number[] | "all", on: string = todayDate(), days = 1): Promise<Map<number, DuePaper[]>> {
  const d = schema.deliveries;
  const e = schema.editions;
  const t = schema.titles;
  const deadline = deadlineSql();
  const out = new Map<number, DuePaper[]>();
  if (customerIds !== "all" && customerIds.length === 0) return out;
  const rows = await getDb()
    .select({
      customerId: d.customerId,
      deliveryId: d.id,
      title: t.name,
      edition: e.description,
      type: e.type,
      deliveryDate: d.deliveryDate,
      deadline,
    })
    .from(d)
    .innerJoin(t, eq(t.id, d.titleId))
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(
      and(
        customerIds === "all" ? undefined : inArray(d.customerId, customerIds),
        // A window is at most 14 days: only those deliveries can be due on or after `on`.
        between(d.deliveryDate, addDays(on, -MAX_RETURN_DAYS), on),
        isNull(d.reportedAt),
        sql`${deadline} between ${on} and ${addDays(on, days)}`,
      ),
    )
    .orderBy(asc(d.customerId), asc(deadline), asc(d.deliveryDate), asc(d.titleId), asc(d.editionId));
  for (const r of rows) {
    const { customerId, ...paper } = r;
    let list = out.get(customerId);
    if (!list) out.set(customerId, (list = []));
    list.push(paper);
  }
  return out;
}

/** Of unreported papers, how many have their last return day `on` and the day after. */
export function dueCountsOf(papers: readonly { deadline: string }[], on: string): { today: number; tomorrow: number } {
  const next = addDays(on, 1);
  return { today: papers.filter((p) => p.deadline === on).length, tomorrow: papers.filter((p) => p.deadline === next).length };
}

/** How many unreported papers have their last return day today and tomorrow (the start page's reminder). */
export async function dueCounts(customerId: number, on: string = todayDate()): Promise<{ today: number; tomorrow: number }> {
  return dueCountsOf((await papersDue([customerId], on, 1)).get(customerId) ?? [], on);
}
