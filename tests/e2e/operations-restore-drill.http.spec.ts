// "Operations lose nothing": the restore drill. A server of its own
// holds a retailer's returns; `portal backup` copies the live database (and says it
// checked the copy), `portal restore` puts the copy in place of a fresh database file,
// a second server starts on it, and the retailer finds every return there. On the way:
// /healthz and /readyz for a load balancer, and /readyz saying 503 when the database
// file cannot be written.
import { spawnSync } from "node:child_process";
import { chmodSync, rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createBundle, createCustomer, createDelivery, createDistributor, createReturn, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { expect, test } from "./fixtures";
import { client, logIn, startOwnServer, type OwnServer } from "./own-server";
import { portalNow } from "../../db/clock";

test.describe.configure({ timeout: 180_000 });

function cli(args: string[], databaseFile: string) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], {
    env: { ...process.env, DATABASE_URL: `file:${databaseFile}` },
    encoding: "utf8",
    timeout: 90_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The history table's rows as text, one line per row. */
async function historyRows(server: OwnServer, from: string): Promise<string[]> {
  const ctx = await client(server.baseURL);
  await logIn(ctx, 4711, "4711");
  const res = await ctx.get(`/historik?fran=${from}&till=${today()}`);
  expect(res.status(), res.headers()["location"]).toBe(200);
  const html = await res.text();
  await ctx.dispose();
  return [...html.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((m) => m[1].replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim())
    .filter((row) => /\d{4}-\d{2}-\d{2}/.test(row));
}

/** Makes the file unwritable, for root too (chattr +i); answers the undo. */
function readOnly(file: string): () => void {
  chmodSync(file, 0o444);
  if (process.getuid?.() === 0) {
    const r = spawnSync("chattr", ["+i", file]);
    if (r.status !== 0) {
      chmodSync(file, 0o644);
      throw new Error("chattr +i failed: root writes a read-only file, so the test cannot make one");
    }
  }
  return () => {
    if (process.getuid?.() === 0) spawnSync("chattr", ["-i", file]);
    chmodSync(file, 0o644);
  };
}

test("a backup of the live database, restored into a fresh server, has every return", async () => {
  // The request log on: /healthz and /readyz must not be in it.
  const a = await startOwnServer("restore-drill-a", { PORTAL_QUIET_LOG: "" });
  const restored = `tests/.tmp/restore-drill-b-${a.port}.db`;
  const backup = `tests/.tmp/restore-drill-${a.port}.backup.db`;
  let b: OwnServer | undefined;
  try {
    // --- the load balancer's probes
    const health = await fetch(`${a.baseURL}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    expect(health.headers.get("cache-control")).toBe("no-store");
    expect(health.headers.get("set-cookie")).toBeNull();
    const ready = await fetch(`${a.baseURL}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");

    const file = `tests/.tmp/restore-drill-a-${a.port}.db`;
    const undo = readOnly(file);
    try {
      const notReady = await fetch(`${a.baseURL}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.text()).toMatch(/not writable/);
    } finally {
      undo();
    }
    expect((await fetch(`${a.baseURL}/readyz`)).status).toBe(200);
    await fetch(`${a.baseURL}/login`);
    expect(a.log()).toContain('"path":"/login"');
    expect(a.log()).not.toContain("healthz");
    expect(a.log()).not.toContain("readyz");

    // --- a retailer with returns on server A
    await createDistributor(a.db, 1);
    await ensureTitlesAndEditions(a.db);
    await createCustomer(a.db, { id: 4711, distributorId: 1, pin: "4711", name: "Şahin Livs" });
    const returned: number[] = [];
    const bundle = await createBundle(a.db, { customerId: 4711, number: 501, type: 0, open: true, closedDate: null });
    for (let i = 1; i <= 6; i++) {
      const d = await createDelivery(a.db, {
        customerId: 4711,
        titleId: 1,
        editionId: 1,
        deliveryDate: addDays(today(), -i - 1),
        delivered: 20,
        priceOre: 2200,
        reportedAt: portalNow(),
        received: null,
      });
      await createReturn(a.db, { customerId: 4711, bundleId: bundle.id, deliveryId: d.id, amount: i + 2 });
      returned.push(i + 2);
    }
    const from = addDays(today(), -20);
    const before = await historyRows(a, from);
    expect(before).toHaveLength(6);
    for (const n of returned) expect(before.filter((row) => row.includes(` 501 ${n} `))).toHaveLength(1);

    // --- backup while A runs, verified
    rmSync(backup, { force: true });
    const made = cli(["backup", "--out", backup], file);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("integrity_check ok");
    expect(made.stdout).toMatch(/samma antal rader som databasen: .*customers 1, .*returns 6/);

    // --- restore into a fresh database file; refused over live data without --force
    for (const suffix of ["", "-wal", "-shm"]) rmSync(restored + suffix, { force: true });
    const put = cli(["restore", backup], restored);
    expect(put.stderr).toBe("");
    expect(put.code).toBe(0);
    expect(put.stdout).toMatch(/integrity_check ok, rader: .*returns 6/);
    const again = cli(["restore", backup], restored);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("--force");

    // --- a fresh server on the restored file: every return is there
    b = await startOwnServer("restore-drill-b", {}, { file: restored });
    expect((await fetch(`${b.baseURL}/readyz`)).status).toBe(200);
    const after = await historyRows(b, from);
    expect(after).toEqual(before);
    const rows = await b.db.select().from(schema.returns).where(eq(schema.returns.customerId, 4711));
    expect(rows.map((r) => r.amount).sort((x, y) => x - y)).toEqual(returned);
  } finally {
    await b?.stop();
    await a.stop();
    for (const f of [backup, restored]) for (const suffix of ["", "-wal", "-shm"]) rmSync(f + suffix, { force: true });
  }
});
