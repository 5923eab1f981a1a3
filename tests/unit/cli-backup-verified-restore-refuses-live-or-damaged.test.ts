// `portal backup` checks its copy (integrity_check, row counts against the database) and
// says so; `portal restore FILE` puts a verified backup in place of a missing, empty or
// damaged database, refuses live data without --force and a backup that fails the check,
// and never deletes the database it replaces. In-process, against this file's database.
import { createClient } from "@libsql/client";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { spawn } from "node:child_process";
import { portal, ROOT, spawnCli } from "./cli-run";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

vi.setConfig({ testTimeout: 60_000 });

const dir = mkdtempSync(join(tmpdir(), "cli-restore-"));
const backup = join(dir, "backup.db");

async function counts(file: string) {
  const c = createClient({ url: `file:${file}` });
  try {
    const n = async (t: string) => Number((await c.execute(`select count(*) from ${t}`)).rows[0][0]);
    return { customers: await n("customers"), returns: await n("returns"), deliveries: await n("deliveries") };
  } finally {
    c.close();
  }
}

beforeAll(async () => {
  await baseData();
  const a = await newCustomer({ name: "Şahin Livs" });
  const d = await newDelivery(a, { date: "2026-02-02", delivered: 20 });
  const [bundle] = await db().insert(schema.bundles).values({ customerId: a, number: 7, type: 0, open: true }).returning();
  await db().insert(schema.returns).values({ customerId: a, bundleId: bundle.id, deliveryId: d.id, amount: 5 });
  const r = await portal(["backup", "--out", backup]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
});

describe("backup", () => {
  it("compares the copy's row counts with the database and says so", async () => {
    const out = join(dir, "counted.db");
    const r = await portal(["backup", "--out", out]);
    expect(r.code).toBe(0);
    const live = await db().select().from(schema.returns);
    const customers = await db().select().from(schema.customers);
    expect(r.stdout).toContain("integrity_check ok");
    expect(r.stdout).toContain(`backup: kopian har samma antal rader som databasen: customers ${customers.length},`);
    expect(r.stdout).toContain(`returns ${live.length}`);
    expect(await counts(out)).toMatchObject({ customers: customers.length, returns: live.length });
  });
});

describe("restore", () => {
  it("puts a verified backup in place of a missing database, migrated and with every row", async () => {
    const target = join(dir, "fresh.db");
    const r = await portal(["restore", backup], { env: { DATABASE_URL: `file:${target}` } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^restore: .*backup\.db -> .*fresh\.db, integrity_check ok, rader: customers \d+, .*returns 1/m);
    expect(r.stdout).toContain("restore: databasen fanns inte.");
    expect(await counts(target)).toEqual(await counts(backup));
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  // A restore is a process of its own (spawnCli), as an operator runs it.
  it("refuses while a server has the database open, even with --force, and changes nothing", async () => {
    const target = join(dir, "served.db");
    expect(spawnCli(["restore", backup], { env: { DATABASE_URL: `file:${target}` } }).code).toBe(0);
    const before = readFileSync(target);
    // A process with the database open as a server has it (WAL, one read done).
    const server = spawn(
      process.execPath,
      ["--input-type=module", "-e", `import { createClient } from "@libsql/client"; const c = createClient({ url: ${JSON.stringify(`file:${target}`)} }); await c.execute("PRAGMA journal_mode=WAL"); await c.execute("SELECT count(*) FROM customers"); console.log("open"); setInterval(() => {}, 1000);`],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve) => server.stdout!.on("data", (d: Buffer) => d.toString().includes("open") && resolve()));
      for (const args of [["restore", backup], ["restore", backup, "--force"]]) {
        const open = spawnCli(args, { env: { DATABASE_URL: `file:${target}` } });
        expect(open.code).toBe(1);
        expect(open.stderr).toMatch(/^portal: Databasen .*served\.db är öppen i en annan process \(en server som körs\?\)\. Stoppa alla servrar och jobb på den och kör restore igen; inget är ändrat\.\n$/);
      }
    } finally {
      server.kill("SIGKILL");
    }
    await new Promise((resolve) => server.once("exit", resolve));
    expect(readdirSync(dir).filter((f) => f.startsWith("served.db.before-restore"))).toEqual([]);
    expect(readFileSync(target).equals(before)).toBe(true);
    // Once the server is stopped, the restore goes ahead.
    expect(spawnCli(["restore", backup, "--force"], { env: { DATABASE_URL: `file:${target}` } }).code).toBe(0);
  });

  it("refuses to overwrite live data without --force, and with --force keeps the old database beside it", async () => {
    const target = join(dir, "live.db");
    expect(spawnCli(["restore", backup], { env: { DATABASE_URL: `file:${target}` } }).code).toBe(0);
    const again = spawnCli(["restore", backup], { env: { DATABASE_URL: `file:${target}` } });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^portal: Databasen .* har data \(\d+ kunder, 1 returer\); restore skriver bara över den med --force\.\n$/);
    const forced = spawnCli(["restore", backup, "--force"], { env: { DATABASE_URL: `file:${target}` } });
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    const kept = /den ligger kvar som (.+)\.$/m.exec(forced.stdout)?.[1];
    expect(kept).toBeTruthy();
    expect(await counts(kept!)).toEqual(await counts(backup));
    expect(await counts(target)).toEqual(await counts(backup));
  });

  it("puts a backup in place of a damaged database, which is kept", async () => {
    const target = join(dir, "damaged.db");
    writeFileSync(target, "SQLite format 3\0" + "x".repeat(5000));
    const r = await portal(["restore", backup], { env: { DATABASE_URL: `file:${target}` } });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("restore: databasen var skadad; den ligger kvar som");
    expect(await counts(target)).toEqual(await counts(backup));
  });

  it("refuses a backup that fails the check, or is no portal database, and leaves the database as it was", async () => {
    const target = join(dir, "untouched.db");
    expect(spawnCli(["restore", backup], { env: { DATABASE_URL: `file:${target}` } }).code).toBe(0);
    const before = readFileSync(target);

    // A page of the copy overwritten in the middle: the file opens, integrity_check does not pass.
    const broken = join(dir, "broken.db");
    const bytes = readFileSync(backup);
    bytes.fill(0x5a, 4096 * 3, 4096 * 3 + 3000);
    writeFileSync(broken, bytes);
    const notOk = await portal(["restore", broken, "--force"], { env: { DATABASE_URL: `file:${target}` } });
    expect(notOk.code).toBe(1);
    expect(notOk.stderr).toMatch(/^portal: .*broken\.db klarade inte kontrollen och läggs inte tillbaka \(.+\)\.\n$/);

    const garbage = join(dir, "garbage.db");
    writeFileSync(garbage, "not a database at all ".repeat(300));
    const notDb = await portal(["restore", garbage, "--force"], { env: { DATABASE_URL: `file:${target}` } });
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toContain("klarade inte kontrollen");

    const other = join(dir, "other.db");
    const c = createClient({ url: `file:${other}` });
    await c.execute("create table notes (x)");
    c.close();
    const foreign = await portal(["restore", other, "--force"], { env: { DATABASE_URL: `file:${target}` } });
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain("ingen säkerhetskopia av Returportalen");

    const missing = await portal(["restore", join(dir, "nope.db")], { env: { DATABASE_URL: `file:${target}` } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("finns inte");

    expect(readFileSync(target).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith("untouched.db.before-restore"))).toEqual([]);
    expect(existsSync(target)).toBe(true);
  });

  it("is a usage error without a file", async () => {
    const r = await portal(["restore"]);
    expect(r.code).toBe(2);
  });
});
