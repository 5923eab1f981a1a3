// Several app servers started together on one new database (decision 039, the remote path
// of decision 025): each runs the migrations at start. Which migrations are pending is now
// read inside the write transaction that applies them, so the second waits for the first
// and finds nothing left. Before, both read "all pending" and the second stopped with
// "table already exists".
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb, prepareDb } from "../../db/client";

const dir = mkdtempSync(join(tmpdir(), "portal-migrate-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const expected = (JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;

async function applied(file: string): Promise<number> {
  const db = openDb(`file:${file}`);
  try {
    return Number((await db.$client.execute("SELECT count(*) FROM __drizzle_migrations")).rows[0][0]);
  } finally {
    db.$client.close();
  }
}

describe("migrations at start with several servers", () => {
  it("two clients preparing one new database at once: both succeed, each migration applied once", async () => {
    const file = join(dir, "in-process.db");
    const a = openDb(`file:${file}`);
    const b = openDb(`file:${file}`);
    try {
      await expect(Promise.all([prepareDb(a), prepareDb(b)])).resolves.toEqual([undefined, undefined]);
    } finally {
      a.$client.close();
      b.$client.close();
    }
    expect(await applied(file)).toBe(expected);
  });

  it("four processes migrating one new database at once: all exit 0, each migration applied once", async () => {
    const file = join(dir, "processes.db");
    const run = () =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "db", "migrate"], { env: { ...process.env, DATABASE_URL: `file:${file}` }, stdio: ["ignore", "ignore", "pipe"] });
        let err = "";
        child.stderr.on("data", (d) => (err += String(d)));
        child.once("exit", (code) => resolve({ code, err }));
      });
    const results = await Promise.all([run(), run(), run(), run()]);
    expect(results.map((r) => r.err)).toEqual(["", "", "", ""]);
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(await applied(file)).toBe(expected);
  }, 60_000);
});
