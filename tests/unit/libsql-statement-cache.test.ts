// The patched @libsql/client (patches/, docs/decisions/010) keeps prepared statements
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
