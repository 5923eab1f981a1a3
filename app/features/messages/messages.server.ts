// Messages to retailers, written by staff (back-office Messages). Content is a small
// HTML subset, sanitised here on save (and again by messageHtml on display), or plain
// text, stored as typed and escaped once by messageHtml.
//
// Decision: a message of type 3 or 4 without customer numbers is for every retailer;
// with numbers, only for those. Types 1 and 2 never have a customer list.
import { CUSTOMER_NUMBER } from "~/catalog";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { storedMessageContent } from "~/lib/html.server";
import { refuse } from "~/lib/refusal";
import { nextVersion } from "~/lib/row-version.server";
import { MESSAGE_TYPES, TYPES_WITH_CUSTOMERS } from "./schemas";

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
  "Någon annan har ändrat meddelandet sedan du öppnade det. Det som är sparat nu visas nedan; dina ändringar finns kvar i formuläret. Tryck Uppdatera igen för att spara dina ändringar över det.";

/** "1001, 1002 ,\n1003" -> whitespace stripped, split on commas; non-numbers reported. */
export function parseCustomerNumbers(text: string): { ids: number[]; invalid: string[] } {
  const stripped = text.replace(/\s+/g, "");
  const parts = stripped.split(/[,;]/).filter(Boolean);
  const ids: number[] = [];
  const invalid: string[] = [];
  for (const p of parts) {
    if (CUSTOMER_NUMBER.test(p)) ids.push(Number(p));
    else invalid.push(p);
  }
  return { ids: [...new Set(ids)], invalid };
}

/** Every message, newest first, with how many customers it is addressed to. */
export async function listMessages() {
  return getDb()
    .select({
      id: schema.messages.id,
      type: schema.messages.type,
      header: schema.messages.header,
      startDate: schema.messages.startDate,
      stopDate: schema.messages.stopDate,
      customerCount: sql<number>`(select count(*) from message_customers mc where mc.message_id = ${schema.messages.id})`,
    })
    .from(schema.messages)
    .orderBy(desc(schema.messages.startDate), desc(schema.messages.id));
}

export async function getMessage(id: number) {
  const db = getDb();
  const [row] = await db.select().from(schema.messages).where(eq(schema.messages.id, id));
  if (!row) return null;
  const links = await db
    .select({ customerId: schema.messageCustomers.customerId })
    .from(schema.messageCustomers)
    .where(eq(schema.messageCustomers.messageId, id));
  return { ...row, customers: links.map((l) => l.customerId).sort((a, b) => a - b).join(",") };
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
  if (TYPES_WITH_CUSTOMERS.includes(input.type)) {
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
      { actor, action: input.id ? "message.update" : "message.add", target: `message:${id}`, detail: { type: input.type, customers: customerIds.length } },
      tx,
    );
    return id;
  });
}

/** Deletes a message and its customer links; false when there is no such message. */
export async function deleteMessage(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    await tx.delete(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, id));
    const res = await tx.delete(schema.messages).where(eq(schema.messages.id, id));
    if (res.rowsAffected === 0) return false;
    await audit({ actor, action: "message.delete", target: `message:${id}` }, tx);
    return true;
  });
}
