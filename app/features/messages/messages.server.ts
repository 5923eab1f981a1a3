// Messages to retailers, written by staff (back-office Messages). Content is a small
// HTML subset, sanitised here on save (and again by messageHtml on display), or plain
// text, stored as typed and escaped once by messageHtml.
//
// Decision: a message of type 3 or 4 without customer numbers is for every retailer;
// with numbers, only for those. Types 1 and 2 never have a customer list: a save of type
// 1 or 2 with numbers in the list is refused (a list is never dropped
// silently), so changing a chosen-customers message to type 1 or 2 means emptying the
// list on purpose. The list keeps its customers through every other edit.
import { CUSTOMER_NUMBER } from "~/catalog";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { storedMessageContent } from "~/lib/html.server";
import type { Question } from "~/lib/question";
import { formatCount } from "~/lib/count";
import { refuse } from "~/lib/refusal";
import { escapeLike } from "~/lib/sql-like";
import { nextVersion } from "~/lib/row-version.server";
import { MESSAGE_TYPES, TYPES_WITH_CUSTOMERS, TYPES_WITHOUT_CUSTOMERS_MESSAGE } from "./schemas";

export { MESSAGE_TYPES, TYPES_WITH_CUSTOMERS };

export type MessageInput = {
  id?: number;
  /** The `updated_at` the edit form was opened on: a save over a newer row is refused. */
  version?: number;
  type: number;
  header: string;
  content: string;
  startDate: string;
  stopDate: string;
  /** The raw customer number string (types 3 and 4). */
  customers: string;
};

export type MessageErrors = Partial<Record<"type" | "content" | "customers" | "startDate" | "stopDate" | "id", string>>;

export const MESSAGE_CONFLICT =
  "Meddelandet har ändrats i en annan flik eller av någon annan sedan du öppnade det. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret. Tryck Uppdatera igen för att spara dina ändringar över det.";

/**
 * A tolerant customer list: numbers separated by commas, semicolons, spaces,
 * tabs or new lines, in any mix ("31337 808" is two customers, "1001;\n1002" two). A
 * number may carry leading zeros ("00808" is 808). Anything else is reported by name.
 */
export function parseCustomerNumbers(text: string): { ids: number[]; invalid: string[] } {
  const parts = text.split(/[\s,;]+/u).filter(Boolean);
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const p of parts) {
    const digits = /^\d+$/.test(p) ? p.replace(/^0+(?=\d)/, "") : p;
    if (CUSTOMER_NUMBER.test(digits) && Number(digits) > 0) ids.push(Number(digits));
    else invalid.push(p);
  }
  return { ids: [...new Set(ids)], invalid: [...new Set(invalid)] };
}

/** At most this many customer numbers are listed in the table; the rest are counted. */
const TARGETS_SHOWN = 5;

export type MessageSortColumn = "typ" | "rubrik" | "fran" | "till";
export const MESSAGE_SORT_COLUMNS: readonly MessageSortColumn[] = ["typ", "rubrik", "fran", "till"];
export const MESSAGES_PAGE_SIZE = 25;

export type MessageListQuery = { search?: string; sort?: { column: MessageSortColumn; descending: boolean }; page?: number };

/**
 * One page of messages (newest first unless sorted otherwise), searched in Rubrik and
 * Innehåll, each with its targets: `customerCount` and the first few customer numbers.
 * Two queries, whatever the page size.
 */
export async function listMessages(query: MessageListQuery = {}) {
  const db = getDb();
  const m = schema.messages;
  const term = query.search?.trim();
  const pattern = term ? `%${escapeLike(term)}%` : "";
  const where: SQL | undefined = term ? or(sql`${m.header} like ${pattern} escape '\\'`, sql`${m.content} like ${pattern} escape '\\'`) : undefined;
  const column = { typ: m.type, rubrik: m.header, fran: m.startDate, till: m.stopDate }[query.sort?.column ?? "fran"];
  const direction = query.sort ? (query.sort.descending ? desc : asc) : desc;
  const [{ total }] = await db.select({ total: sql<number>`count(*)` }).from(m).where(where);
  const pages = Math.max(1, Math.ceil(total / MESSAGES_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  const rows = await db
    .select({
      id: m.id,
      type: m.type,
      header: m.header,
      startDate: m.startDate,
      stopDate: m.stopDate,
      customerCount: sql<number>`(select count(*) from message_customers mc where mc.message_id = ${m.id})`,
      firstCustomers: sql<string | null>`(select group_concat(customer_id, ',') from (select mc.customer_id from message_customers mc where mc.message_id = ${m.id} order by mc.customer_id limit ${TARGETS_SHOWN}))`,
    })
    .from(m)
    .where(where)
    .orderBy(direction(column), desc(m.id))
    .limit(MESSAGES_PAGE_SIZE)
    .offset((page - 1) * MESSAGES_PAGE_SIZE);
  return {
    rows: rows.map(({ firstCustomers, ...r }) => ({ ...r, targets: targetsText(r.customerCount, firstCustomers) })),
    total,
    page,
    pages,
  };
}

/** "Alla", or "1001, 1002" or "1001, 1002, 1003, 1004, 1005 och 7 till". */
function targetsText(count: number, first: string | null): string {
  if (!count || !first) return "Alla";
  const shown = first.split(",").join(", ");
  return count > TARGETS_SHOWN ? `${shown} och ${count - TARGETS_SHOWN} till` : shown;
}


export async function getMessage(id: number) {
  const db = getDb();
  const [row] = await db.select().from(schema.messages).where(eq(schema.messages.id, id));
  if (!row) return null;
  const links = await db
    .select({ customerId: schema.messageCustomers.customerId })
    .from(schema.messageCustomers)
    .where(eq(schema.messageCustomers.messageId, id));
  return { ...row, customers: links.map((l) => l.customerId).sort((a, b) => a - b).join(", ") };
}

/** Whether a message of `type` with this customer list is for every retailer (the decision above). */
function reachesEverybody(type: number, customers: string): boolean {
  return !TYPES_WITH_CUSTOMERS.includes(type) || parseCustomerNumbers(customers).ids.length === 0;
}

/**
 * The question before a message reaches every retailer (decision 029): asked for a new
 * message to everybody, and for an edit that makes a message to some customers one to
 * everybody; null otherwise (an edit of a message that already reached everybody).
 */
export async function messageQuestion(input: Pick<MessageInput, "id" | "type" | "header" | "startDate" | "stopDate" | "customers">): Promise<Question | null> {
  if (!reachesEverybody(input.type, input.customers)) return null;
  if (input.id) {
    const stored = await getMessage(input.id);
    if (stored && reachesEverybody(stored.type, stored.customers)) return null;
  }
  const c = schema.customers;
  const [{ n }] = await getDb()
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(c)
    .where(sql`${c.deactivatedAt} is null`);
  const type = MESSAGE_TYPES.find((t) => t.id === input.type)?.label ?? String(input.type);
  const stop = input.stopDate || input.startDate;
  const period = stop === input.startDate ? `den ${input.startDate}` : `från ${input.startDate} till ${stop}`;
  const header = input.header.trim() ? ` "${input.header.trim()}"` : "";
  return {
    title: "Spara meddelandet till alla kunder?",
    text: `${type}${header} visas för alla ${formatCount(n)} aktiva kunder ${period}. Skriv kundnummer för att bara nå några (Kundmeddelande och Returrapportering).`,
  };
}

/**
 * Saves (creates or updates) a message and its customer list in one transaction, and
 * returns its id. Refuses (invalid, with the message per field) a message that breaks
 * the rules, and an update of a message that is gone.
 */
export async function saveMessage(input: MessageInput, actor: Actor): Promise<number> {
  const errors: MessageErrors = {};
  if (!MESSAGE_TYPES.some((t) => t.id === input.type)) errors.type = "Måste välja typ!";
  if (!input.startDate) errors.startDate = "Datum ej ifyllt is";
  const stop = input.stopDate || input.startDate;
  if (input.startDate && stop < input.startDate) errors.stopDate = "Perioden felaktig";
  // Plain text is stored as typed (escaped once, on display); HTML is sanitised.
  const content = storedMessageContent(input.content).trim();
  if (!content) errors.content = "Innehåll saknas";
  let customerIds: number[] = [];
  if (!TYPES_WITH_CUSTOMERS.includes(input.type) && input.customers.trim() !== "") {
    errors.customers = TYPES_WITHOUT_CUSTOMERS_MESSAGE;
  } else if (TYPES_WITH_CUSTOMERS.includes(input.type)) {
    const { ids, invalid } = parseCustomerNumbers(input.customers);
    if (invalid.length) errors.customers = `Ogiltiga kundnummer: ${invalid.join(", ")}`;
    else if (ids.length) {
      const known = await getDb()
        .select({ id: schema.customers.id })
        .from(schema.customers)
        .where(inArray(schema.customers.id, ids));
      const knownSet = new Set(known.map((k) => k.id));
      const unknown = ids.filter((id) => !knownSet.has(id));
      if (unknown.length) errors.customers = `Okända kundnummer: ${unknown.join(", ")}`;
    }
    customerIds = ids;
  }
  if (Object.keys(errors).length) throw refuse.invalid(Object.values(errors)[0]!, { fields: errors });

  return writeTransaction(async (tx) => {
    const values = { type: input.type, header: input.header.trim(), content, startDate: input.startDate, stopDate: stop };
    let id: number;
    if (input.id) {
      const m = schema.messages;
      const res = await tx
        .update(m)
        .set({ ...values, updatedAt: nextVersion(m.updatedAt) })
        .where(input.version === undefined ? eq(m.id, input.id) : and(eq(m.id, input.id), eq(m.updatedAt, input.version)));
      if (res.rowsAffected === 0) {
        const [still] = await tx.select({ id: m.id }).from(m).where(eq(m.id, input.id));
        if (still) throw refuse.conflict(MESSAGE_CONFLICT, { field: "version" });
        throw refuse.invalid("Meddelandet finns inte längre.", { field: "id" });
      }
      id = input.id;
      await tx.delete(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, id));
    } else {
      const [row] = await tx.insert(schema.messages).values(values).returning({ id: schema.messages.id });
      id = row.id;
    }
    if (customerIds.length) await tx.insert(schema.messageCustomers).values(customerIds.map((customerId) => ({ messageId: id, customerId })));
    await audit(
      { actor, action: input.id ? "message.update" : "message.add", target: `message:${id}`, detail: { type: input.type, header: values.header, customers: customerIds.length } },
      tx,
    );
    return id;
  });
}

/** Deletes a message and its customer links; false when there is no such message. */
export async function deleteMessage(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    await tx.delete(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, id));
    // What was deleted stays readable in Logg: the message's header, kept in the row.
    const gone = await tx.delete(schema.messages).where(eq(schema.messages.id, id)).returning({ header: schema.messages.header });
    if (gone.length === 0) return false;
    await audit({ actor, action: "message.delete", target: `message:${id}`, detail: { header: gone[0].header } }, tx);
    return true;
  });
}
