// Several app servers started together on one new database (decision 039, the remote path
// of decision 025): each runs the migrations at start. drizzle's migrator reads which are
// pending before its batch, so the second found every one pending and stopped with "table
// already exists"; now a server whose batch fails reads again and is done when another has
// applied them. The batch keeps drizzle's foreign keys off: a migration that rebuilds a
// parent table keeps its children's rows.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

describe("a migration that rebuilds a parent table", () => {
  /** A migrations folder of drizzle-kit's shape with the first `count` of two migrations. */
  function folder(name: string, count: number): string {
    const dirOf = join(dir, name);
    mkdirSync(join(dirOf, "meta"), { recursive: true });
    const entries = [
      { idx: 0, version: "6", when: 1000, tag: "0000_parent_child", breakpoints: true },
      { idx: 1, version: "6", when: 2000, tag: "0001_rebuild_parent", breakpoints: true },
    ].slice(0, count);
    writeFileSync(join(dirOf, "meta", "_journal.json"), JSON.stringify({ version: "7", dialect: "sqlite", entries }));
    writeFileSync(
      join(dirOf, "0000_parent_child.sql"),
      "CREATE TABLE parent (id integer PRIMARY KEY, name text);\n--> statement-breakpoint\nCREATE TABLE child (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES parent(id) ON DELETE CASCADE);",
    );
    // drizzle-kit's rebuild of a table whose column it cannot alter in place.
    writeFileSync(
      join(dirOf, "0001_rebuild_parent.sql"),
      [
        "PRAGMA foreign_keys=OFF;",
        "CREATE TABLE __new_parent (id integer PRIMARY KEY, name text DEFAULT '' NOT NULL);",
        "INSERT INTO __new_parent (id, name) SELECT id, coalesce(name, '') FROM parent;",
        "DROP TABLE parent;",
        "ALTER TABLE __new_parent RENAME TO parent;",
        "PRAGMA foreign_keys=ON;",
      ].join("\n--> statement-breakpoint\n"),
    );
    return dirOf;
  }

  it("keeps the rows of the tables that refer to it (foreign keys off while it runs)", async () => {
    const file = join(dir, "rebuild.db");
    const db = openDb(`file:${file}`);
    try {
      await prepareDb(db, folder("first", 1));
      await db.$client.execute("INSERT INTO parent (id, name) VALUES (1, 'Şahin Livs')");
      await db.$client.execute("INSERT INTO child (id, parent_id) VALUES (10, 1), (11, 1)");
      await prepareDb(db, folder("both", 2));
      expect(Number((await db.$client.execute("SELECT count(*) FROM child")).rows[0][0])).toBe(2);
      expect((await db.$client.execute("PRAGMA foreign_key_check")).rows).toEqual([]);
      expect(Number((await db.$client.execute("PRAGMA foreign_keys")).rows[0][0])).toBe(1);
    } finally {
      db.$client.close();
    }
  });
});

