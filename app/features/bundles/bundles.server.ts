import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { getDb, preparedQuery, schema, writeTransaction } from "~/db.server";
import { addDays, stockholmMidnight, today } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { decisionField, typeField } from "./bundle-words";
import { portalNow } from "../../../db/clock";

/** `lastReturnId`: the newest return put in the bundle (null when empty). */
export type OpenBundle = { number: number; type: number; total: number; lastReturnId: number | null };

/** The customer's open bundles with their total returns, by type then number. */
const openBundlesOf = preparedQuery((db) => {
  const b = schema.bundles;
  const r = schema.returns;
  return db
    .select({
      number: b.number,
      type: b.type,
      total: sql<number>`coalesce(sum(${r.amount}), 0)`,
      lastReturnId: sql<number | null>`max(${r.id})`,
    })
    .from(b)
    .leftJoin(r, eq(r.bundleId, b.id))
    .where(and(eq(b.customerId, sql.placeholder("customerId")), eq(b.open, true)))
    .groupBy(b.id)
    .orderBy(asc(b.type), asc(b.number))
    .prepare();
});

export function listOpenBundles(customerId: number): Promise<OpenBundle[]> {
  return openBundlesOf().all({ customerId });
}

export { progressColour } from "./bundle-progress";

export type BundleLine = { returnId: number; date: string; title: string; edition: string; amount: number };
export type BundleDetail = {
  number: number;
  type: number;
  open: boolean;
  closedDate: string | null;
  total: number;
  lines: BundleLine[];
};

/**
 * One of the customer's bundles with its returns (newest delivery first), or null
 * when the number is unknown or belongs to another customer. A bundle holds at
 * most a few weeks of papers, so all its lines are read and paged in memory;
 * the total needs them all anyway. Two indexed queries.
 */
export async function getBundle(customerId: number, number: number): Promise<BundleDetail | null> {
  const b = schema.bundles;
  const [bundle] = await getDb()
    .select()
    .from(b)
    .where(and(eq(b.customerId, customerId), eq(b.number, number)));
  if (!bundle) return null;
  const r = schema.returns;
  const d = schema.deliveries;
  const t = schema.titles;
  const e = schema.editions;
  const lines = await getDb()
    .select({ returnId: r.id, date: d.deliveryDate, title: t.name, edition: e.description, amount: r.amount })
    .from(r)
    .innerJoin(d, eq(d.id, r.deliveryId))
    .innerJoin(t, eq(t.id, d.titleId))
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(and(eq(r.bundleId, bundle.id), eq(r.customerId, customerId)))
    .orderBy(desc(d.deliveryDate), asc(d.titleId), asc(d.editionId));
  return {
    number: bundle.number,
    type: bundle.type,
    open: bundle.open,
    closedDate: bundle.closedDate,
    total: lines.reduce((s, l) => s + l.amount, 0),
    lines,
  };
}

/** The customer's returns reported or changed on `date`, Stockholm time. */
const reportedOn = (customerId: number, date: string) =>
  and(eq(schema.returns.customerId, customerId), gte(schema.returns.updatedAt, stockholmMidnight(date)), lt(schema.returns.updatedAt, stockholmMidnight(addDays(date, 1))));

/**
 * The returns slip of `date` (decision 038): every bundle the customer reported into or
 * changed that day (Stockholm time), with the lines touched that day as they stand now.
 * What a shop lays in the bundle or keeps as proof. The customer's rows of the day only.
 */
export async function returnsOfDay(customerId: number, date: string): Promise<Omit<BundleDetail, "closedDate">[]> {
  const r = schema.returns;
  const d = schema.deliveries;
  const t = schema.titles;
  const e = schema.editions;
  const b = schema.bundles;
  const rows = await getDb()
    .select({ returnId: r.id, number: b.number, type: b.type, open: b.open, date: d.deliveryDate, title: t.name, edition: e.description, amount: r.amount })
    .from(r)
    .innerJoin(b, eq(b.id, r.bundleId))
    .innerJoin(d, eq(d.id, r.deliveryId))
    .innerJoin(t, eq(t.id, d.titleId))
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(reportedOn(customerId, date))
    .orderBy(asc(b.number), desc(d.deliveryDate), asc(d.titleId), asc(d.editionId));
  const bundles = new Map<number, Omit<BundleDetail, "closedDate">>();
  for (const { number, type, open, ...line } of rows) {
    const bundle = bundles.get(number) ?? { number, type, open, total: 0, lines: [] };
    bundle.lines.push(line);
    bundle.total += line.amount;
    bundles.set(number, bundle);
  }
  return [...bundles.values()];
}

/** Whether the customer reported or changed a return on `date`: the returns page offers the day's slip then. */
export async function hasReturnsOfDay(customerId: number, date: string): Promise<boolean> {
  const r = schema.returns;
  const [row] = await getDb()
    .select({ id: r.id })
    .from(r)
    .where(reportedOn(customerId, date))
    .limit(1);
  return row !== undefined;
}

/** Closes one of the customer's open bundles; false when it is not an open bundle of theirs. */
export async function closeBundle(customerId: number, number: number, on: string = today()): Promise<boolean> {
  const b = schema.bundles;
  // Through the write queue like every save: a lock held by another connection is waited
  // for, not answered busy after the app client's 20 ms.
  const closed = await writeTransaction((tx) =>
    tx
      .update(b)
      .set({ open: false, closedDate: on, updatedAt: portalNow() })
      .where(and(eq(b.customerId, customerId), eq(b.number, number), eq(b.open, true)))
      .returning({ id: b.id }),
  );
  return closed.length > 0;
}

export const CONFIRM_MESSAGES = {
  undecided: "Välj Öppen eller Stängd.",
  oneOpen: "Du kan bara ha en öppen bunt per returtyp.",
} as const;

export type BundleDecision = "open" | "closed";

/** "bunt 3" / "buntarna 3 och 7" / "buntarna 3, 7 och 9". */
function bundlesPhrase(numbers: number[]): string {
  if (numbers.length === 1) return `bunt ${numbers[0]}`;
  return `buntarna ${numbers.slice(0, -1).join(", ")} och ${numbers[numbers.length - 1]}`;
}

/** The confirm step's refusal when the open bundles are not those its page showed. */
export function staleBundlesMessage(closed: number[], opened: number[]): string {
  const parts: string[] = [];
  if (closed.length) parts.push(`${bundlesPhrase(closed)} ${closed.length === 1 ? "är redan stängd" : "är redan stängda"}`);
  if (opened.length) parts.push(`${bundlesPhrase(opened)} har öppnats`);
  return `Buntarna har ändrats sedan sidan visades: ${parts.join(", ")}. Kontrollera och bekräfta igen.`;
}

/**
 * The confirm step (spec 2.5, 5): every open bundle must be marked Öppen or Stängd,
 * at most one may stay open per paper type; Stängd closes the bundle today. One
 * transaction; decisions for bundles that are not the customer's open ones are ignored.
 *
 * `shown`: the bundles the page showed as open. When a bundle it showed is
 * no longer open (unless the user chose Stängd for it: that happened anyway) or an open
 * bundle was not on the page, the whole step is refused "conflict", naming them, and
 * nothing is closed. Without `shown` (an old page, a hand-made post) it decides as before.
 * A bundle left undecided, or a second Öppen of a type, is refused "invalid" on its field.
 * Returns the numbers of the bundles it closed.
 */
export async function decideBundles(
  customerId: number,
  decisions: Record<number, BundleDecision | undefined>,
  on: string = today(),
  options: { shown?: readonly number[] } = {},
): Promise<{ closed: number[] }> {
  return writeTransaction(async (tx) => {
    const b = schema.bundles;
    const open = await tx
      .select({ id: b.id, number: b.number, type: b.type })
      .from(b)
      .where(and(eq(b.customerId, customerId), eq(b.open, true)));
    if (options.shown) {
      const shown = new Set(options.shown);
      const openNumbers = new Set(open.map((x) => x.number));
      const closed = [...shown].filter((n) => !openNumbers.has(n) && decisions[n] !== "closed").sort((x, y) => x - y);
      const opened = [...openNumbers].filter((n) => !shown.has(n)).sort((x, y) => x - y);
      if (closed.length || opened.length) throw refuse.conflict(staleBundlesMessage(closed, opened));
    }
    const fields: Record<string, string> = {};
    const stayOpen = { 0: 0, 1: 0 };
    for (const x of open) {
      const decision = decisions[x.number];
      if (decision !== "open" && decision !== "closed") fields[decisionField(x.number)] = CONFIRM_MESSAGES.undecided;
      else if (decision === "open") stayOpen[x.type as 0 | 1]++;
    }
    for (const type of [0, 1] as const) if (stayOpen[type] > 1) fields[typeField(type)] = CONFIRM_MESSAGES.oneOpen;
    if (Object.keys(fields).length) throw refuse.invalid(CONFIRM_MESSAGES.undecided, { fields });
    const toClose = open.filter((x) => decisions[x.number] === "closed");
    if (toClose.length) {
      await tx
        .update(b)
        .set({ open: false, closedDate: on, updatedAt: portalNow() })
        .where(and(eq(b.customerId, customerId), inArray(b.id, toClose.map((x) => x.id))));
    }
    return { closed: toClose.map((x) => x.number) };
  });
}
