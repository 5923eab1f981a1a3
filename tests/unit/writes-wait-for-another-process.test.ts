// A retailer's save while another process (an operator's import, a backup, another app
// server, the e2e fixtures) holds the write lock: the save waits for it through the write
// queue (db/client.ts writeTransaction) and is stored. A write made straight on the app's
// client gave up after its 20 ms busy timeout and answered "busy" at once: the locked
// menu's "Stäng bunt 1" came back with both bundles still open.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, schema, type Db } from "../../db/client";
import { createBundle } from "../../cli/seed/factories";
import { closeBundle } from "../../app/features/bundles/index.server";
import { baseData, db, newCustomer } from "./helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let other: Db;
beforeAll(async () => {
  await baseData();
  // As the app's database is (prepareDb): WAL, where a writer waits only as long as its busy timeout.
  await db().$client.execute("PRAGMA journal_mode=WAL");
  other = openDb(process.env.DATABASE_URL);
});
afterAll(() => other.$client.close());

/** Holds the database's write lock from another connection for `ms`; resolves once it is held, to the release. */
async function holdLock(ms: number): Promise<{ released: Promise<unknown> }> {
  let held!: () => void;
  const taken = new Promise<void>((r) => (held = r));
  const done = other.transaction(async (tx) => {
    await tx.run("update distributors set name = name where id = 1");
    held();
    await sleep(ms);
  });
  await taken;
  // Wrapped: an async function returning the promise itself would wait for it.
  return { released: done };
}

describe("a save while another process writes", () => {
  it("closing a bundle waits for the lock and is stored", async () => {
    const customerId = await newCustomer();
    const bundle = await createBundle(db(), { customerId, number: 1, type: 0 });
    const { released } = await holdLock(300);
    const closed = await closeBundle(customerId, 1, "2026-11-25");
    await released;
    expect(closed).toBe(true);
    const [row] = await db().select().from(schema.bundles).where(eq(schema.bundles.id, bundle.id));
    expect(row).toMatchObject({ open: false, closedDate: "2026-11-25" });
  });
});
