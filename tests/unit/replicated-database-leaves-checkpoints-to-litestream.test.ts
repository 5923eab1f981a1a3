// With REPLICA_URL set, Litestream must be the only one that checkpoints the database
// (decision 039): every connection the app's client opens, in a transaction or not, has
// wal_autocheckpoint 20,000 (a safety valve far above Litestream's own 10,000), so the WAL
// grows past SQLite's 1,000 pages until Litestream checkpoints it. Without REPLICA_URL, SQLite's own checkpoints keep it near 1,000 pages.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDb, prepareDb, writeTransaction, type Db } from "../../db/client";

const dir = mkdtempSync(join(tmpdir(), "portal-checkpoints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const saved = process.env.REPLICA_URL;
afterEach(() => {
  if (saved === undefined) delete process.env.REPLICA_URL;
  else process.env.REPLICA_URL = saved;
});

const pragma = async (db: Db) => Number((await db.$client.execute("PRAGMA wal_autocheckpoint")).rows[0][0]);

/** Writes about 3,000 pages in 300 transactions and answers the WAL's size in pages. */
async function walPagesAfterWrites(name: string): Promise<{ pages: number; settings: number[] }> {
  const file = join(dir, name);
  const db = openDb(`file:${file}`);
  try {
    await prepareDb(db);
    await db.$client.execute("CREATE TABLE blobs (b BLOB)");
    const settings = [await pragma(db)];
    for (let i = 0; i < 300; i++) {
      await writeTransaction(async (tx) => {
        if (i % 100 === 0) settings.push(Number((await tx.values(sql`PRAGMA wal_autocheckpoint`))[0][0]));
        await tx.run("INSERT INTO blobs VALUES (randomblob(40000))");
      }, db);
    }
    return { pages: Math.round(statSync(`${file}-wal`).size / 4096), settings };
  } finally {
    db.$client.close();
  }
}

describe("checkpoints of a replicated database", () => {
  it("with REPLICA_URL: no connection checkpoints, the WAL grows until Litestream does", async () => {
    process.env.REPLICA_URL = "file:///mnt/replika/portal";
    const { pages, settings } = await walPagesAfterWrites("replicated.db");
    expect(settings).toEqual([20_000, 20_000, 20_000, 20_000]);
    expect(pages).toBeGreaterThan(2_500);
  });

  it("without: SQLite checkpoints at 1,000 pages as always", async () => {
    delete process.env.REPLICA_URL;
    const { pages, settings } = await walPagesAfterWrites("plain.db");
    expect(settings).toEqual([1000, 1000, 1000, 1000]);
    expect(pages).toBeLessThan(1_200);
  });
});
