// The remote-database path (decision 025): what this machine can prove without a libSQL
// server, and the checks a machine with one runs (SQLD_URL: a sqld or Turso database that
// may be written to, e.g. `sqld --http-listen-addr 127.0.0.1:8080` → http://127.0.0.1:8080).
import { LibsqlError, createClient } from "@libsql/client";
import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { isDatabaseBusy, openDb, prepareDb, writeTransaction } from "../../db/client";

describe("busy, recognised in one place whatever answered", () => {
  it("the local driver's, a remote server's and drizzle's wrapping of either", () => {
    const local = new LibsqlError("database is locked", "SQLITE_BUSY", "SQLITE_BUSY", 5);
    // A remote server names the code; its message need not say "locked".
    const remote = new LibsqlError("the database was busy", "SQLITE_BUSY");
    const snapshot = new LibsqlError("cannot upgrade the read snapshot", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_SNAPSHOT", 517);
    const byNumberOnly = new LibsqlError("busy", "SERVER_ERROR", undefined, 773);
    for (const e of [local, remote, snapshot, byNumberOnly]) {
      expect(isDatabaseBusy(e)).toBe(true);
      expect(isDatabaseBusy(new DrizzleQueryError("insert into returns …", [], e))).toBe(true);
    }
    expect(isDatabaseBusy(new LibsqlError("UNIQUE constraint failed: returns.id", "SQLITE_CONSTRAINT", "SQLITE_CONSTRAINT_PRIMARYKEY", 1555))).toBe(false);
    expect(isDatabaseBusy(new Error("disk I/O error"))).toBe(false);
    expect(isDatabaseBusy("database is locked")).toBe(false);
  });
});

const sqld = process.env.SQLD_URL;

// Needs a libSQL server: skipped here (no sqld or Turso can be reached from this machine).
describe.skipIf(!sqld)("against a real libSQL server (SQLD_URL)", () => {
  it("migrations run once when two servers start together", async () => {
    const a = openDb(sqld!, process.env.SQLD_AUTH_TOKEN);
    const b = openDb(sqld!, process.env.SQLD_AUTH_TOKEN);
    await Promise.all([prepareDb(a), prepareDb(b)]);
    const n = Number((await a.$client.execute("SELECT count(*) FROM __drizzle_migrations")).rows[0][0]);
    expect(n).toBeGreaterThan(0);
    a.$client.close();
    b.$client.close();
  });

  it("a write while another client holds a write transaction waits or is answered busy, never a 500", async () => {
    const holder = createClient({ url: sqld!, authToken: process.env.SQLD_AUTH_TOKEN });
    const db = openDb(sqld!, process.env.SQLD_AUTH_TOKEN);
    const tx = await holder.transaction("write");
    await tx.execute("CREATE TABLE IF NOT EXISTS remote_busy_probe (x)");
    const write = writeTransaction((t) => t.run("INSERT INTO remote_busy_probe VALUES (1)"), db, 1_000).then(
      () => "stored",
      (e: unknown) => (isDatabaseBusy(e) ? "busy" : `other: ${String(e)}`),
    );
    const outcome = await write;
    await tx.rollback();
    expect(["stored", "busy"]).toContain(outcome);
    holder.close();
    db.$client.close();
  });

  it("an embedded replica (DATABASE_SYNC_URL) reads its own write at once", async () => {
    const file = `file:tests/.tmp/embedded-${process.pid}.db`;
    const replica = createClient({ url: file, syncUrl: sqld!, authToken: process.env.SQLD_AUTH_TOKEN, syncInterval: 1 });
    await replica.execute("CREATE TABLE IF NOT EXISTS embedded_probe (x)");
    await replica.execute({ sql: "INSERT INTO embedded_probe VALUES (?)", args: [process.pid] });
    const seen = await replica.execute({ sql: "SELECT count(*) FROM embedded_probe WHERE x = ?", args: [process.pid] });
    expect(Number(seen.rows[0][0])).toBe(1);
    replica.close();
  });
});
