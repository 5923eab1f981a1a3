import { eq, sql } from "drizzle-orm";
import { getDb, preparedQuery, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { hashSecret } from "~/features/auth/passwords.server";
import { clearThrottle } from "~/features/auth/throttle.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { refuse } from "~/lib/refusal";
import { portalNow } from "../../../db/clock";

/** A PIN that logs in: older PINs have 4 or 5 digits. */
export const PIN_PATTERN = /^\d{4,6}$/;
/** A PIN set now (CLI, import, "Ny pinkod"): 6 digits, so every old 4-digit one goes at its next change. */
export const NEW_PIN_PATTERN = /^\d{6}$/;
export const NEW_PIN_RULE = "Pinkoden ska vara 6 siffror.";

const customerById = preparedQuery((db) => {
  const c = schema.customers;
  return db
    .select({ id: c.id, name: c.name, address: c.address, zip: c.zip, city: c.city, distributorId: c.distributorId, deactivatedAt: c.deactivatedAt })
    .from(c)
    .where(eq(c.id, sql.placeholder("customerId")))
    .prepare();
});

/** Who a retailer is, as every page needs it (read on each request; no secrets or payout details). */
export async function getCustomer(customerId: number) {
  return (await customerById().get({ customerId })) ?? null;
}

export type NewCustomer = {
  id: number;
  name: string;
  distributorId: number;
  address?: string;
  zip?: string;
  city?: string;
  phone?: string;
  email?: string;
  pin?: string;
};

/**
 * Adds a customer: the rule for the staff screen and `portal customer add` alike. A taken
 * number, an unknown distributor or a PIN of the wrong shape is refused on its field.
 */
export async function addCustomer(input: NewCustomer, actor: Actor, tx?: Tx): Promise<void> {
  if (input.pin !== undefined && !NEW_PIN_PATTERN.test(input.pin)) throw refuse.invalid(NEW_PIN_RULE, { field: "pin" });
  const pinHash = input.pin === undefined ? null : await hashSecret(input.pin);
  const run = async (t: Tx) => {
    const { pin: _pin, ...fields } = input;
    const [distributor] = await t.select({ id: schema.distributors.id }).from(schema.distributors).where(eq(schema.distributors.id, input.distributorId));
    if (!distributor) throw refuse.invalid(`Distributör ${input.distributorId} finns inte.`, { field: "distributorId" });
    const [existing] = await t.select({ id: schema.customers.id }).from(schema.customers).where(eq(schema.customers.id, input.id));
    if (existing) throw refuse.invalid(`Kund ${input.id} finns redan.`, { field: "kundnummer" });
    await t.insert(schema.customers).values({ ...fields, pinHash });
    await audit({ actor, action: "customer.add", target: `customer:${input.id}` }, t);
  };
  await (tx ? run(tx) : writeTransaction(run));
}

export async function setCustomerPin(customerId: number, pin: string, actor: Actor): Promise<void> {
  if (!NEW_PIN_PATTERN.test(pin)) throw refuse.invalid(NEW_PIN_RULE, { field: "pin" });
  const pinHash = await hashSecret(pin);
  await writeTransaction(async (tx) => {
    const res = await tx
      .update(schema.customers)
      .set({ pinHash, updatedAt: portalNow() })
      .where(eq(schema.customers.id, customerId));
    if (res.rowsAffected === 0) throw refuse.notFound(`Kund ${customerId} finns inte.`);
    // A new PIN ends trust in the old one: every session of the customer (impersonations
    // included) and the login lock end with it.
    const ended = await tx.delete(schema.sessions).where(eq(schema.sessions.customerId, customerId));
    await clearThrottle(`customer:${customerId}`, tx);
    await audit({ actor, action: "customer.set-pin", target: `customer:${customerId}`, detail: { sessionsEnded: ended.rowsAffected } }, tx);
  });
}

/** Whether the database has any customer yet (the demo fills only an empty one). */
export async function hasCustomers(db: Db = getDb()): Promise<boolean> {
  return (await db.select({ id: schema.customers.id }).from(schema.customers).limit(1)).length > 0;
}

/** What a login weighs for a customer number: the PIN's hash and whether the account is off. */
export async function customerLoginRow(customerId: number): Promise<{ id: number; pinHash: string | null; deactivatedAt: number | null } | null> {
  const c = schema.customers;
  const [row] = await getDb().select({ id: c.id, pinHash: c.pinHash, deactivatedAt: c.deactivatedAt }).from(c).where(eq(c.id, customerId));
  return row ?? null;
}
