// Label blocks: the allocations of bundle numbers to a customer. A normal block
// (type 0) is the next 50 numbers, an emergency allocation (type 7) 1–20 numbers
// printed at once. A number is never handed out twice: allocation reads the
// customer's highest number and inserts the new block inside one write
// transaction (BEGIN IMMEDIATE), so concurrent orders queue behind each other.
// The order limits (LABEL_LIMITS, docs/decisions/011-write-limits.md) are counted in
// that same transaction, so parallel orders, from one server or several, cannot overshoot.
import { and, desc, eq, gt, gte, lt, or, sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { addDays } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { EMERGENCY_COUNT_MESSAGE, EMERGENCY_MAX, EMERGENCY_MIN, checkEmergencyCount } from "./schemas";
import { portalNow } from "../../../db/clock";

export const BLOCK_SIZE = 50;
export { EMERGENCY_MAX, EMERGENCY_MIN, checkEmergencyCount };
export const LABEL_TYPE = { normal: 0, emergency: 7 } as const;
export const ORDERED_STATUS = "Beställd";
/** How long an allocated series stays valid (the seed's delivered blocks use a year too). */
export const VALID_DAYS = 365;
export const MAX_BUNDLE_NUMBER = 99999;

/**
 * Bounds no real kiosk meets (a kiosk uses one or two bundle numbers a day, about 15
 * blocks a year), so a script cannot use up the customer's 99,999 numbers. Per kind
 * (normal blocks, emergency prints): blocks of which no number is used yet, and orders
 * per day; across both kinds: numbers handed out in the last 365 days.
 */
export const LABEL_LIMITS = {
  unusedBlocks: 5,
  perDay: 10,
  numbersPerYear: 5_000,
} as const;

export const LABEL_MESSAGES = {
  emergencyCount: EMERGENCY_COUNT_MESSAGE,
  exhausted: "Det finns inga fler buntnummer att dela ut. Kontakta kundtjänst.",
  unusedBlocks: `Du har redan ${LABEL_LIMITS.unusedBlocks} block med returetiketter som inte har börjat användas. Använd dem innan du beställer fler.`,
  unusedEmergency: `Du har redan ${LABEL_LIMITS.unusedBlocks} utskrifter av nödetiketter som inte har använts. Använd dem först – nummerserierna finns under Mina returetiketter/block.`,
  perDayBlocks: `Du har redan beställt ${LABEL_LIMITS.perDay} block med returetiketter i dag. Försök igen i morgon eller kontakta kundtjänst.`,
  perDayEmergency: `Du har redan skrivit ut nödetiketter ${LABEL_LIMITS.perDay} gånger i dag. Försök igen i morgon eller kontakta kundtjänst.`,
  perYear: "Du har fått 5 000 buntnummer det senaste året, vilket är gränsen. Kontakta kundtjänst.",
} as const;

export type LabelBlockRow = {
  id: number;
  type: number;
  status: string;
  fromDate: string;
  toDate: string;
  fromNumber: number;
  toNumber: number;
  numberUnused: number;
};

const blockColumns = {
  id: schema.labelBlocks.id,
  type: schema.labelBlocks.type,
  status: schema.labelBlocks.status,
  fromDate: schema.labelBlocks.fromDate,
  toDate: schema.labelBlocks.toDate,
  fromNumber: schema.labelBlocks.fromNumber,
  toNumber: schema.labelBlocks.toNumber,
  numberUnused: schema.labelBlocks.numberUnused,
};

/**
 * Refuses the order (a "limit" Refusal, 429, with the Swedish text for the page) if it
 * would cross a LABEL_LIMITS bound; in the order's write transaction.
 */
async function checkLimits(tx: Tx, customerId: number, type: number, count: number, today: string): Promise<void> {
  const b = schema.labelBlocks;
  const size = sql`${b.toNumber} - ${b.fromNumber} + 1`;
  const [row] = await tx
    .select({
      unused: sql<number>`coalesce(sum(${b.type} = ${type} and ${b.numberUnused} >= ${size}), 0)`,
      today: sql<number>`coalesce(sum(${b.type} = ${type} and ${b.fromDate} = ${today}), 0)`,
      numbers: sql<number>`coalesce(sum(${size}), 0)`,
    })
    .from(b)
    .where(and(eq(b.customerId, customerId), gte(b.fromDate, addDays(today, -364))));
  const emergency = type === LABEL_TYPE.emergency;
  if (Number(row.unused) >= LABEL_LIMITS.unusedBlocks) {
    throw refuse.limit(emergency ? LABEL_MESSAGES.unusedEmergency : LABEL_MESSAGES.unusedBlocks);
  }
  if (Number(row.today) >= LABEL_LIMITS.perDay) {
    throw refuse.limit(emergency ? LABEL_MESSAGES.perDayEmergency : LABEL_MESSAGES.perDayBlocks);
  }
  if (Number(row.numbers) + count > LABEL_LIMITS.numbersPerYear) throw refuse.limit(LABEL_MESSAGES.perYear);
}

/** Spec 2.8: only blocks with unused numbers, newest from-date first. */
export async function listUsableBlocks(customerId: number): Promise<LabelBlockRow[]> {
  const b = schema.labelBlocks;
  return getDb()
    .select(blockColumns)
    .from(b)
    .where(and(eq(b.customerId, customerId), gt(b.numberUnused, 0)))
    .orderBy(desc(b.fromDate), desc(b.fromNumber));
}

/** The labels a shop has on hand: its usable blocks' series and unused count ("51–100", 50). */
export async function labelsOnHand(customerId: number): Promise<{ series: string[]; unused: number }> {
  const blocks = await listUsableBlocks(customerId);
  return { series: blocks.map((b) => `${b.fromNumber}–${b.toNumber}`), unused: blocks.reduce((sum, b) => sum + b.numberUnused, 0) };
}

export async function getBlock(customerId: number, blockId: number): Promise<LabelBlockRow | null> {
  const b = schema.labelBlocks;
  const [row] = await getDb()
    .select(blockColumns)
    .from(b)
    .where(and(eq(b.id, blockId), eq(b.customerId, customerId)));
  return row ?? null;
}

/** Allocates `count` numbers after the customer's highest allocated number, in the caller's write transaction. */
async function allocateInTx(
  tx: Tx,
  customerId: number,
  type: number,
  count: number,
  today: string,
): Promise<LabelBlockRow> {
  const b = schema.labelBlocks;
  const [{ max }] = await tx
    .select({ max: sql<number>`coalesce(max(${b.toNumber}), 0)` })
    .from(b)
    .where(eq(b.customerId, customerId));
  const fromNumber = Number(max) + 1;
  const toNumber = fromNumber + count - 1;
  if (toNumber > MAX_BUNDLE_NUMBER) throw refuse.conflict(LABEL_MESSAGES.exhausted);
  const [row] = await tx
    .insert(b)
    .values({
      customerId,
      type,
      status: ORDERED_STATUS,
      fromDate: today,
      toDate: addDays(today, VALID_DAYS),
      fromNumber,
      toNumber,
      numberUnused: count,
    })
    .returning(blockColumns);
  return row;
}

/** A token for one order form; see claimToken. */
export function newFormToken(): string {
  return randomUUID();
}

/**
 * The block a form token already ordered, if any: a resubmitted order (double click,
 * back button, retry) gets that same block again. The token is stored with the block's
 * id (`labels:<token>:<id>`), so the answer is exactly the block that form ordered,
 * whatever else was ordered since; a row of the older form (`labels:<token>`, no id)
 * answers with the customer's latest block of the type. Run in the order's write
 * transaction, so two copies of one form are serialised and the second sees the first.
 */
async function blockOfToken(tx: Tx, customerId: number, type: number, token: string): Promise<LabelBlockRow | null> {
  const a = schema.appliedSubmissions;
  const prefix = `labels:${token}`;
  const rows = await tx
    .select({ token: a.token })
    .from(a)
    .where(and(eq(a.customerId, customerId), or(eq(a.token, prefix), and(gt(a.token, `${prefix}:`), lt(a.token, `${prefix};`)))));
  if (rows.length === 0) return null;
  const id = Number(rows[0].token.slice(prefix.length + 1));
  if (Number.isSafeInteger(id) && id > 0) {
    const b = schema.labelBlocks;
    const [row] = await tx.select(blockColumns).from(b).where(and(eq(b.id, id), eq(b.customerId, customerId)));
    if (row) return row;
  }
  return latestBlock(tx, customerId, type);
}

async function latestBlock(tx: Tx, customerId: number, type: number): Promise<LabelBlockRow | null> {
  const b = schema.labelBlocks;
  const [row] = await tx
    .select(blockColumns)
    .from(b)
    .where(and(eq(b.customerId, customerId), eq(b.type, type)))
    .orderBy(desc(b.id))
    .limit(1);
  return row ?? null;
}

async function allocate(customerId: number, type: number, count: number, today: string, token?: string) {
  const now = portalNow();
  return writeTransaction(async (tx) => {
    if (token) {
      const previous = await blockOfToken(tx, customerId, type, token);
      if (previous) return previous;
    }
    await checkLimits(tx, customerId, type, count, today);
    const block = await allocateInTx(tx, customerId, type, count, today);
    if (token) await tx.insert(schema.appliedSubmissions).values({ token: `labels:${token}:${block.id}`, customerId, at: now });
    return block;
  });
}

/** Spec 2.9: a normal block of 50 labels, status Beställd. */
export function orderBlock(customerId: number, today: string, token?: string): Promise<LabelBlockRow> {
  return allocate(customerId, LABEL_TYPE.normal, BLOCK_SIZE, today, token);
}

/** Spec 2.7: 1–20 emergency labels (type 7). */
export function orderEmergencyLabels(customerId: number, count: number, today: string, token?: string): Promise<LabelBlockRow> {
  if (!Number.isInteger(count) || count < EMERGENCY_MIN || count > EMERGENCY_MAX) {
    return Promise.reject(new RangeError(LABEL_MESSAGES.emergencyCount));
  }
  return allocate(customerId, LABEL_TYPE.emergency, count, today, token);
}

export function labelTypeName(type: number): string {
  return type === LABEL_TYPE.emergency ? "Nödetiketter" : "Returetiketter";
}

/** Barcode text: customer number padded to 5 digits, then the bundle number padded to 5. */
export function labelBarcodeText(customerId: number, bundleNumber: number): string {
  return `${String(customerId).padStart(5, "0")}${String(bundleNumber).padStart(5, "0")}`;
}
