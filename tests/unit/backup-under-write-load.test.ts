// `portal backup` at the morning peak: another process saves every few milliseconds
// while the copy is taken, and the backup still succeeds, its copy passes
// integrity_check, and its rows are the database's at one moment (counted in the same
// read transaction as the copy). The writer never waits long or fails: a backup does
// not hold up saves. Counting before and after the copy failed every time under this load.
import { spawn } from "node:child_process";
import { createClient } from "@libsql/client";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it, vi } from "vitest";
import { portal } from "./cli-run";
import { baseData, db } from "./helpers";

vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  // As the server runs it: readers never wait for the writer.
  await db().$client.execute("PRAGMA journal_mode=WAL");
  await baseData();
  // Enough rows that the copy takes a while (about half a second here).
  await db().$client.execute(
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) INSERT INTO audit_log (at, actor, action, detail) SELECT 1700000000000 + i, 'cli', 'old', 'rad ' || i FROM n",
  );
});

/** A process that adds a message every 2 ms until stopped; prints how many and its slowest write. */
function writer(file: string) {
  const script = `
    import { createClient } from "@libsql/client";
    const c = createClient({ url: ${JSON.stringify(`file:${file}`)}, timeout: 10000 });
    let n = 0, slowest = 0, stop = false;
    process.on("SIGTERM", () => { stop = true; });
    while (!stop) {
      const t = performance.now();
      await c.execute({ sql: "INSERT INTO messages (type, header, content, start_date, stop_date) VALUES (3, 'Last', ?, '2030-01-01', '2030-01-02')", args: ["skrivning " + n] });
      slowest = Math.max(slowest, performance.now() - t);
      n++;
      if (n === 1) process.stdout.write("started\\n");
      await new Promise((r) => setTimeout(r, 2));
    }
    process.stdout.write(JSON.stringify({ n, slowest }) + "\\n");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  const started = new Promise<void>((resolve) => child.stdout.on("data", () => out.includes("started") && resolve()));
  const stop = () =>
    new Promise<{ n: number; slowest: number }>((resolve, reject) => {
      child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!)) : reject(new Error(`writer exit ${code}: ${out}`))));
      child.kill("SIGTERM");
    });
  return { started, stop };
}

it("succeeds while another process saves every few milliseconds, with the rows of one moment, and never holds up the saves", async () => {
  const file = process.env.DATABASE_URL!.slice("file:".length);
  const messages = async () => Number((await db().$client.execute("SELECT count(*) FROM messages")).rows[0][0]);
  const w = writer(file);
  await w.started;
  const before = await messages();
  const out = join(mkdtempSync(join(tmpdir(), "backup-load-")), "morning.db");
  const r = await portal(["backup", "--out", out]);
  const after = await messages();
  const written = await w.stop();
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  // Saves went on during the copy and none failed (the writer stops with an error on one that
  // does). How long the slowest waited is a timing, for the bench, not a behaviour: logged.
  expect(after).toBeGreaterThan(before);
  console.log(`[backup] ${written.n} saves during the copy, the slowest ${Math.round(written.slowest)} ms`);
  // The copy holds the rows it says it holds: one moment between the start and the end.
  const copied = Number(/messages (\d+)/.exec(r.stdout)?.[1]);
  expect(copied).toBeGreaterThanOrEqual(before);
  expect(copied).toBeLessThanOrEqual(after);
  const copy = createClient({ url: `file:${out}` });
  try {
    expect((await copy.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    expect(Number((await copy.execute("SELECT count(*) FROM messages")).rows[0][0])).toBe(copied);
    expect(Number((await copy.execute("SELECT count(*) FROM audit_log")).rows[0][0])).toBeGreaterThanOrEqual(300_000);
    // Indexes and triggers came along, after the rows.
    const objects = async (c: typeof copy) => (await c.execute("SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name")).rows.map((x) => `${x.type} ${x.name}`);
    expect(await objects(copy)).toEqual(await objects(db().$client));
  } finally {
    copy.close();
  }
});
