// Delivery note (följesedel) and delivery complaints (leveransreklamation): the
// retailer sees the last week of deliveries and reports the amount actually received.
import { and, asc, between, desc, eq, exists, gte, lte, notExists, or, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { addDays } from "~/lib/dates";
import { messageHtml } from "~/lib/html.server";
import { CLAIM_TEXTS, type ClaimState } from "./claim-words";
import { NOT_ON_NOTE } from "./words";
import { refusalDetail, refuse } from "~/lib/refusal";
import { claimDeadline, claimsOfDeliveries, decidedClaim, recordClaim } from "./claims.server";
import { portalNow } from "../../../db/clock";

/** The delivery note is kept one week: today and the six days before it (spec 9). */
export const DELIVERY_NOTE_DAYS = 7;
/** 'Orimligt värde.' from this amount (spec 5, list variant). */
export const RECEIVED_MAX = 999;

export const RECEIVED_MESSAGES = {
  negative: "Kan inte vara negativt.",
  unreasonable: "Orimligt värde.",
  onlyDeviations: "Du ska bara rapportera avvikelser.",
  /** A Mottagit someone else changed (another tab) since the page was loaded. */
  changedByOther: (now: string, typed: number) =>
    `Raden har ändrats i en annan flik eller av någon annan: nu sparat ${now}, du skrev ${typed}. Kontrollera och spara igen.`,
  /** More received than delivered happens (a bundle from another shop) but is rarely meant: asked once. */
  aboveDelivered: (typed: number, delivered: number) =>
    `Du skrev ${typed}, fler än de ${delivered} som levererades. Stämmer det? Tryck Spara igen så sparas ${typed}.`,
} as const;

export type DeliveryNoteRow = {
  id: number;
  titleId: number;
  editionId: number;
  deliveryDate: string;
  type: number;
  title: string;
  /** The edition's name, e.g. "Sportbladet" for an insert. */
  description: string;
  delivered: number;
  received: number | null;
  /** The delivery's claim, if Mottagit was ever saved below Levererat. */
  claim: ClaimState | null;
  /** Until when Mottagit may be changed ("2026-11-28 kl. 12:00"), and whether that has passed or a decision locked it. */
  claimUntil: string;
  locked: boolean;
};

export type DeliveryDay = {
  date: string;
  rows: DeliveryNoteRow[];
  /** The delivery-day message (message type 1 covering the date), as sanitised HTML. */
  message: { header: string; html: string } | null;
};

export function deliveryNoteWindow(today: string): { from: string; to: string } {
  return { from: addDays(today, -(DELIVERY_NOTE_DAYS - 1)), to: today };
}

/**
 * The customer's delivery note: the last week of deliveries grouped by delivery
 * date, newest day first, each day with its delivery-day message. Two queries,
 * both on indexes (deliveries_customer_date, messages_dates).
 */
export async function listDeliveryNote(customerId: number, today: string, now = portalNow()): Promise<DeliveryDay[]> {
  const { from, to } = deliveryNoteWindow(today);
  const d = schema.deliveries;
  const e = schema.editions;
  const t = schema.titles;
  const rows = await getDb()
    .select({
      id: d.id,
      titleId: d.titleId,
      editionId: d.editionId,
      deliveryDate: d.deliveryDate,
      type: e.type,
      title: t.name,
      description: e.description,
      delivered: d.delivered,
      received: d.received,
    })
    .from(d)
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .innerJoin(t, eq(t.id, d.titleId))
    .where(and(eq(d.customerId, customerId), between(d.deliveryDate, from, to)))
    .orderBy(desc(d.deliveryDate), asc(e.type), asc(d.titleId), asc(d.editionId));

  const messages = await deliveryMessages(customerId, from, to);
  const claims = await claimsOfDeliveries(
    customerId,
    rows.filter((r) => r.received !== null).map((r) => r.id),
  );
  const days = new Map<string, DeliveryDay>();
  for (const found of rows) {
    const claim = claims.get(found.id) ?? null;
    const deadline = claimDeadline(found.deliveryDate);
    const row: DeliveryNoteRow = {
      ...found,
      claim,
      claimUntil: deadline.text,
      locked: now > deadline.at || (claim !== null && claim.status !== "open" && claim.status !== "withdrawn"),
    };
    let day = days.get(row.deliveryDate);
    if (!day) {
      const m = messages.find((msg) => msg.startDate <= row.deliveryDate && msg.stopDate >= row.deliveryDate);
      day = { date: row.deliveryDate, rows: [], message: m ? { header: m.header, html: messageHtml(m.content) } : null };
      days.set(row.deliveryDate, day);
    }
    day.rows.push(row);
  }
  return [...days.values()];
}

/** Messages of type 1 (Leveransinformation) overlapping [from, to] meant for this customer (no customer rows = everyone). */
async function deliveryMessages(customerId: number, from: string, to: string) {
  const m = schema.messages;
  const mc = schema.messageCustomers;
  const db = getDb();
  return db
    .select({ id: m.id, header: m.header, content: m.content, startDate: m.startDate, stopDate: m.stopDate })
    .from(m)
    .where(
      and(
        eq(m.type, 1),
        gte(m.stopDate, from),
        lte(m.startDate, to),
        or(
          notExists(db.select({ x: sql`1` }).from(mc).where(eq(mc.messageId, m.id))),
          exists(db.select({ x: sql`1` }).from(mc).where(and(eq(mc.messageId, m.id), eq(mc.customerId, customerId)))),
        ),
      ),
    )
    .orderBy(desc(m.startDate), desc(m.id));
}

/** The message for one delivery day, if any ('Leveransinformation {date}'). */
export async function deliveryDayMessage(customerId: number, date: string) {
  const [m] = await deliveryMessages(customerId, date, date);
  return m ? { header: m.header, html: messageHtml(m.content) } : null;
}

/**
 * A received amount as typed: the number to store, or the reason it is refused (the shape
 * of every value check, as checkBankDetail's). Empty or non-numeric input gets
 * 'Orimligt värde.' too: the spec has no separate text for it.
 */
export function checkReceived(input: string | null | undefined): { value: number } | { problem: string } {
  const text = (input ?? "").trim();
  if (/^-\s*\d+$/.test(text)) return { problem: RECEIVED_MESSAGES.negative };
  if (!/^\d+$/.test(text)) return { problem: RECEIVED_MESSAGES.unreasonable };
  const value = Number(text);
  if (value >= RECEIVED_MAX) return { problem: RECEIVED_MESSAGES.unreasonable };
  return { value };
}

/**
 * What a save of Mottagit did: stored it, or stored nothing and asks first (more than was
 * delivered, not yet confirmed: `question` says so). Anything else is a Refusal.
 */
export type SaveReceivedResult = { status: "saved"; equalsDelivered: boolean } | { status: "ask"; question: string };

/** What a refusal for a change made elsewhere carries: what is stored now ("" = nothing). */
export type ReceivedConflict = { stored: string };

const RECEIVED_CONFLICT = refusalDetail<ReceivedConflict>("received-conflict");

/** What is stored now, when `e` is saveReceived's refusal of a row changed elsewhere. */
export function storedAfterConflict(e: unknown): string | null {
  return RECEIVED_CONFLICT.of(e)?.stored ?? null;
}

/**
 * Stores the received amount of one of the customer's deliveries on the delivery
 * note. Refuses (a Refusal on the field `mottagit`) a value out of range, a row past the
 * claim deadline or decided by staff ('invalid'), a row changed elsewhere since the page
 * showed it ('conflict', with `ReceivedConflict` as detail), and a delivery of another
 * customer or one older than the delivery note keeps ('not-found'). Equal to delivered is
 * saved but flagged, so the page can say 'Du ska bara rapportera avvikelser.'.
 */
export async function saveReceived(
  customerId: number,
  deliveryId: number,
  input: string | null | undefined,
  today: string,
  now = portalNow(),
  /** What the page showed for the row ("" = nothing); undefined: no check (a form of one row). */
  shown?: string,
  /** The amount above delivered the user has confirmed (pressed Spara again for); else asked first. */
  confirmed?: string,
): Promise<SaveReceivedResult> {
  const { from, to } = deliveryNoteWindow(today);
  const d = schema.deliveries;
  return writeTransaction(async (tx) => {
    const [row] = await tx
      .select({ id: d.id, delivered: d.delivered, received: d.received, deliveryDate: d.deliveryDate })
      .from(d)
      .where(and(eq(d.id, deliveryId), eq(d.customerId, customerId), between(d.deliveryDate, from, to)));
    if (!row) throw refuse.notFound(NOT_ON_NOTE);
    const check = checkReceived(input);
    if ("problem" in check) throw refuse.invalid(check.problem, { field: "mottagit" });
    if (check.value !== row.received) {
      // Past the claim deadline, or decided by staff: Mottagit is locked (decision 031).
      const deadline = claimDeadline(row.deliveryDate);
      if (now > deadline.at) throw refuse.invalid(CLAIM_TEXTS.closed(row.deliveryDate, deadline.text), { field: "mottagit" });
      const decided = await decidedClaim(tx, row.id);
      if (decided) throw refuse.invalid(CLAIM_TEXTS.locked(decided.id), { field: "mottagit" });
    }
    // Optimistic concurrency: changed by someone else since the page showed it,
    // and the typed value is not what is stored now: refused, both values named.
    const storedText = row.received === null ? "" : String(row.received);
    if (shown !== undefined && shown.trim() !== storedText && check.value !== row.received) {
      throw refuse.conflict(RECEIVED_MESSAGES.changedByOther(storedText || "inget", check.value), { field: "mottagit", detail: RECEIVED_CONFLICT.carry({ stored: storedText }) });
    }
    if (check.value > row.delivered && check.value !== row.received && confirmed?.trim() !== String(check.value)) {
      return { status: "ask", question: RECEIVED_MESSAGES.aboveDelivered(check.value, row.delivered) } as const;
    }
    await tx
      .update(d)
      .set({ received: check.value, receivedAt: now, updatedAt: now })
      .where(and(eq(d.id, deliveryId), eq(d.customerId, customerId)));
    if (check.value !== row.received) await recordClaim(tx, { id: row.id, customerId, delivered: row.delivered }, check.value, now);
    return { status: "saved", equalsDelivered: check.value === row.delivered } as const;
  });
}

/** The customer's delivery by id within the delivery-note window, or null. */
export async function getDeliveryNoteRow(customerId: number, deliveryId: number, today: string) {
  const { from, to } = deliveryNoteWindow(today);
  const d = schema.deliveries;
  const [row] = await getDb()
    .select({ id: d.id, delivered: d.delivered, received: d.received })
    .from(d)
    .where(and(eq(d.id, deliveryId), eq(d.customerId, customerId), between(d.deliveryDate, from, to)));
  return row ?? null;
}

export type JournalEdition = {
  titleId: number;
  editionId: number;
  title: string;
  description: string;
  type: number;
  /** Per delivery date: delivered, returned (sum of return reports) and sold. */
  days: Map<string, { delivered: number; returned: number; sold: number }>;
};

/** `YYYY-MM` for a month, or null when the text is not one. */
export function parseMonth(text: string | null | undefined): string | null {
  if (!text || !/^\d{4}-(0[1-9]|1[0-2])$/.test(text)) return null;
  return text;
}

/**
 * The newspaper journal of one month (`YYYY-MM`): the customer's titles and
 * editions with, per delivery date, delivered, returned and sold. One query
 * (deliveries_customer_date, returns_delivery).
 */
export async function journalMonth(customerId: number, month: string): Promise<JournalEdition[]> {
  const from = `${month}-01`;
  const to = `${month}-31`;
  const d = schema.deliveries;
  const e = schema.editions;
  const t = schema.titles;
  const r = schema.returns;
  const rows = await getDb()
    .select({
      titleId: d.titleId,
      editionId: d.editionId,
      title: t.name,
      description: e.description,
      type: e.type,
      date: d.deliveryDate,
      delivered: d.delivered,
      returned: sql<number>`coalesce((select sum(${r.amount}) from ${r} where ${r.deliveryId} = ${d.id}), 0)`,
    })
    .from(d)
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .innerJoin(t, eq(t.id, d.titleId))
    .where(and(eq(d.customerId, customerId), between(d.deliveryDate, from, to)))
    .orderBy(asc(e.type), asc(d.titleId), asc(d.editionId), asc(d.deliveryDate));
  const editions = new Map<string, JournalEdition>();
  for (const row of rows) {
    const key = `${row.titleId}:${row.editionId}`;
    let ed = editions.get(key);
    if (!ed) {
      ed = { titleId: row.titleId, editionId: row.editionId, title: row.title, description: row.description, type: row.type, days: new Map() };
      editions.set(key, ed);
    }
    const returned = Number(row.returned);
    ed.days.set(row.date, { delivered: row.delivered, returned, sold: row.delivered - returned });
  }
  return [...editions.values()];
}
