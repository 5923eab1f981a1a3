// "Nothing lost": a session written just now is read back by the next request,
// while another process (a CLI import, the e2e fixtures, another app server) writes to the
// same database file. Before the fix a write refused as SQLITE_BUSY left an old read
// snapshot on an idle pooled connection, and the next reads there did not see new
// sessions: a login that answered 302 met the login page (docs/reliability.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "../../db/client";
import { createCustomer } from "../../cli/seed/factories";
import { createSessionRow, readSessionRow } from "../../app/features/auth/sessions.server";
import { baseData, newCustomer } from "./helpers";

/**
 * Calls `heard` each time one of the app's writes is refused because another connection
 * holds the lock: db/client.ts notes the moment of each such refusal on the global object.
 * Returns the function that puts the plain property back.
 */
function onWriteRefused(heard: () => void): () => void {
  const g = globalThis as unknown as { __portalLastBusyAt?: number };
  let at = g.__portalLastBusyAt;
  Object.defineProperty(globalThis, "__portalLastBusyAt", {
    configurable: true,
    get: () => at,
    set: (value: number) => {
      at = value;
      heard();
    },
  });
  return () => {
    Object.defineProperty(globalThis, "__portalLastBusyAt", { configurable: true, writable: true, value: at });
  };
}

let other: Db;
beforeAll(async () => {
  await baseData();
  other = openDb(process.env.DATABASE_URL);
});
afterAll(() => other.$client.close());

describe("sessions while another process writes", () => {
  it("every new session is read back at once, by each of several parallel readers", async () => {
    const retailers = await Promise.all(Array.from({ length: 8 }, () => newCustomer()));
    let stop = false;
    let refused = () => {};
    const putBack = onWriteRefused(() => refused());
    /**
     * The other process's write (a CLI import's batch): it takes the lock and holds it until
     * one of the app's writes was refused for it (longer than the app's busy timeout,
     * BUSY_TIMEOUT_MS), then commits. Resolves `held` once the lock is taken.
     */
    let otherId = 60_000;
    const otherWrite = (held: () => void) =>
      other.transaction(async (tx) => {
        await createCustomer(tx as unknown as Db, { id: otherId++, distributorId: 1 });
        const refusal = new Promise<void>((r) => (refused = r));
        held();
        await refusal;
      });
    // Other requests of the app: reads all the time, on whichever pooled connection is idle.
    const pageLoads = (async () => {
      while (!stop) {
        await Promise.all([readSessionRow("none"), readSessionRow("none")]);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const lost: string[] = [];
    try {
      // Each round meets the other process's lock: its first write is refused and retried,
      // with no pause of a set length deciding whether it does (fixed pauses had a loaded
      // machine miss every gap for a whole wait, and a quick one meet hardly any lock).
      for (let round = 0; round < 20; round++) {
        let held = () => {};
        const holding = new Promise<void>((r) => (held = r));
        const otherDone = otherWrite(held);
        await holding;
        await Promise.all([
          otherDone,
          ...retailers.map(async (customerId, i) => {
            const id = await createSessionRow({ customerId });
            // the next request: the guard and the page's loaders read it in parallel
            const reads = await Promise.all([readSessionRow(id), readSessionRow(id), readSessionRow(id)]);
            if (reads.some((r) => r?.customerId !== customerId)) lost.push(`round ${round}, retailer ${i}`);
          }),
        ]);
      }
    } finally {
      stop = true;
      refused();
      await pageLoads;
      putBack();
    }
    // Each round ends only after one of its writes was refused for the other's lock (a
    // refusal db/client.ts stopped noting would leave the round waiting: the test times out).
    expect(lost).toEqual([]);
  }, 60_000);
});
