// Data builders shared by `portal seed` and the tests (STYLE.md 10). They write
// rows directly; business rules live in app/features and are exercised there.
import { hashSecret } from "../../app/features/auth/index.server";
import type { Db, Tx } from "../../db/client";
import * as schema from "../../db/schema";

type Conn = Db | Tx;

/** Deterministic pseudo-random numbers (mulberry32). */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

import { EDITIONS, TITLES } from "../../app/catalog/index";

export { EDITIONS, TITLES };

export async function ensureTitlesAndEditions(db: Conn): Promise<void> {
  await db.insert(schema.titles).values([...TITLES]).onConflictDoNothing();
  await db
    .insert(schema.editions)
    .values(EDITIONS.map((e) => ({ ...e })))
    .onConflictDoNothing();
}

export async function createDistributor(db: Conn, id: number, name = `Distributör ${id}`) {
  await db.insert(schema.distributors).values({ id, name }).onConflictDoNothing();
  return { id, name };
}

let pinHashCache = new Map<string, string>();

/** A customer with a PIN (hashes are cached per PIN so big seeds stay fast). */
export async function createCustomer(
  db: Conn,
  input: Partial<typeof schema.customers.$inferInsert> & { id: number; distributorId: number; pin?: string },
) {
  const { pin = "1234", ...rest } = input;
  let pinHash = pinHashCache.get(pin);
  if (!pinHash) {
    pinHash = await hashSecret(pin);
    pinHashCache.set(pin, pinHash);
  }
  const row = {
    name: `Kiosk ${input.id}`,
    address: "Storgatan 1",
    zip: "111 22",
    city: "Stockholm",
    ...rest,
    pinHash,
  };
  await db.insert(schema.customers).values(row);
  return row;
}

export function resetPinCache() {
  pinHashCache = new Map();
}

export async function createDelivery(db: Conn, input: typeof schema.deliveries.$inferInsert) {
  const [row] = await db.insert(schema.deliveries).values(input).returning();
  return row;
}

export async function createBundle(db: Conn, input: typeof schema.bundles.$inferInsert) {
  const [row] = await db.insert(schema.bundles).values(input).returning();
  return row;
}

export async function createReturn(db: Conn, input: typeof schema.returns.$inferInsert) {
  const [row] = await db.insert(schema.returns).values(input).returning();
  return row;
}

export async function createLabelBlock(db: Conn, input: Omit<typeof schema.labelBlocks.$inferInsert, "numberUnused"> & { numberUnused?: number }) {
  const [row] = await db
    .insert(schema.labelBlocks)
    .values({ numberUnused: input.toNumber - input.fromNumber + 1, ...input })
    .returning();
  return row;
}

/**
 * The TOTP secret test staff are enrolled with unless told otherwise (null = not
 * enrolled, as the demo staff are), so tests can compute their codes. Never a real one.
 */
export const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

export async function createStaff(
  db: Conn,
  input: { email: string; name: string; password: string; roles: string; distributorId?: number | null; totpSecret?: string | null },
) {
  const [row] = await db
    .insert(schema.staffUsers)
    .values({
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: await hashSecret(input.password),
      roles: input.roles,
      distributorId: input.distributorId ?? null,
      totpSecret: input.totpSecret === undefined ? TEST_TOTP_SECRET : input.totpSecret,
    })
    .returning();
  return row;
}

/**
 * A seed writes its invoices itself, not by the invoice run: the returns of the periods
 * they cover were credited by them (decision 030), so no run settles them again.
 */
export const SEEDED_INVOICES_CREDITED = `
  UPDATE returns SET credited = amount
  WHERE amount <> credited AND EXISTS (
    SELECT 1 FROM deliveries d JOIN editions e ON e.title_id = d.title_id AND e.edition_id = d.edition_id
      JOIN invoices i ON i.customer_id = d.customer_id AND i.paper_type = e.type AND i.period_from <= d.delivery_date AND i.period_to >= d.delivery_date
    WHERE d.id = returns.delivery_id)`;

/** A seed's deliveries received short are claims waiting for a decision (decision 031), as migration 0021 made of older ones. */
export const SEEDED_CLAIMS = `
  INSERT INTO claims (delivery_id, customer_id, copies, status, created_at, updated_at)
  SELECT id, customer_id, delivered - received, 'open', coalesce(received_at, updated_at), coalesce(received_at, updated_at)
  FROM deliveries WHERE received IS NOT NULL AND received < delivered
    AND NOT EXISTS (SELECT 1 FROM claims WHERE claims.delivery_id = deliveries.id)
  ORDER BY id`;
