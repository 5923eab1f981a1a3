// The patched @libsql/client (patches/, docs/decisions/010-statement-cache.md) keeps prepared statements
// per connection. A kept statement must behave exactly like a fresh one.
import { createClient, type Client } from "@libsql/client";
import Database from "libsql";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inject } from "vitest";

const clients: Client[] = [];
const files: string[] = [];

async function freshDb() {
  const file = `${inject("tmpDir")}/${randomUUID()}.db`;
  files.push(file);
  const a = createClient({ url: `file:${file}` });
  clients.push(a);
  await a.execute("pragma journal_mode=wal");
  await a.execute("create table t (x integer primary key, y text not null)");
  return { file, a };
}

afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const f of files.splice(0)) for (const s of ["", "-wal", "-shm"]) rmSync(f + s, { force: true });
  vi.restoreAllMocks();
});

describe("the statement cache", () => {
  it("prepares a repeated statement once per connection", async () => {
    const { a } = await freshDb();
    const prepare = vi.spyOn(Database.prototype, "prepare");
    for (let i = 0; i < 10; i++) await a.execute({ sql: "select count(*) as n from t where x > ?", args: [i] });
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("sees what another connection committed since the statement was kept", async () => {
    const { file, a } = await freshDb();
    const b = createClient({ url: `file:${file}` });
    clients.push(b);
    const count = async () => Number((await b.execute("select count(*) as n from t")).rows[0].n);
    expect(await count()).toBe(0);
    await a.execute({ sql: "insert into t (x, y) values (?, ?)", args: [1, "a"] });
    expect(await count()).toBe(1);
    // A kept statement holds no read snapshot: a checkpoint can complete.
    await b.execute("select x from t limit 1");
    const checkpoint = await a.execute("pragma wal_checkpoint(TRUNCATE)");
    expect(Number(checkpoint.rows[0].busy)).toBe(0);
  });

  it("runs again after a constraint error, and inside rolled-back and committed transactions", async () => {
    const { a } = await freshDb();
    const insert = "insert into t (x, y) values (?, ?)";
    await a.execute({ sql: insert, args: [1, "a"] });
    await expect(a.execute({ sql: insert, args: [1, "again"] })).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT" });
    await a.execute({ sql: insert, args: [2, "b"] });
    const rolledBack = await a.transaction("write");
    await rolledBack.execute({ sql: insert, args: [3, "c"] });
    await rolledBack.rollback();
    const committed = await a.transaction("write");
    await committed.execute({ sql: insert, args: [4, "d"] });
    await committed.commit();
    expect((await a.execute("select x from t order by x")).rows.map((r) => Number(r.x))).toEqual([1, 2, 4]);
  });

  // "A login that answered 302 is not seen by the next request". SQLite leaves a
  // statement that met SQLITE_BUSY resumable (not reset): a kept BEGIN IMMEDIATE refused while
  // another process wrote stayed active on its idle connection, so every later read there
  // shared one read transaction and saw the database as it was (docs/reliability.md).
  it("a write refused as busy leaves no old snapshot on its connection", async () => {
    const { file } = await freshDb();
    // One connection, so the read after the refusal is sure to use the refused one; the
    // app's pool takes the last returned connection first, so it usually is there too.
    const app = createClient({ url: `file:${file}`, timeout: 20, concurrency: 1 });
    const other = createClient({ url: `file:${file}` });
    clients.push(app, other);
    const held = await other.transaction("write");
    await held.execute("insert into t (x, y) values (1, 'other process')");
    await expect(app.transaction("write")).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    await held.commit();
    expect(Number((await app.execute("select count(*) as n from t")).rows[0].n)).toBe(1);
    await other.execute("insert into t (x, y) values (2, 'a login')");
    expect(Number((await app.execute("select count(*) as n from t")).rows[0].n)).toBe(2);
    // and the write goes through on the next try
    const tx = await app.transaction("write");
    await tx.execute("insert into t (x, y) values (3, 'app')");
    await tx.commit();
    expect((await other.execute("select x from t order by x")).rows.map((r) => Number(r.x))).toEqual([1, 2, 3]);
    // nothing holds an old read transaction open: a checkpoint completes
    const checkpoint = await other.execute("pragma wal_checkpoint(TRUNCATE)");
    expect(Number(checkpoint.rows[0].busy)).toBe(0);
  });

  it("keeps working past its bound of 256 statements", async () => {
    const { a } = await freshDb();
    await a.execute({ sql: "insert into t (x, y) values (?, ?)", args: [1, "a"] });
    for (let i = 0; i < 300; i++) {
      const row = (await a.execute(`select x + ${i} as v from t`)).rows[0];
      expect(Number(row.v)).toBe(1 + i);
    }
    expect(Number((await a.execute("select x + 0 as v from t")).rows[0].v)).toBe(1);
  });
});
