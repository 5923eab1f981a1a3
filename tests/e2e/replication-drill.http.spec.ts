// The disk dies mid-morning (decision 039): a production server replicates its database
// with Litestream to a file replica while retailers save; then the server, its replicator
// and Litestream are killed at once (SIGKILL to the process group) and the database
// file, its WAL and Litestream's local copy are deleted. `portal restore --from-replica`
// and a new start bring back every save acknowledged more than REPLICA_MAX_LAG before the
// kill (counted: none lost beyond it), and a point-in-time restore gives the database as it
// was at a moment in the middle of the morning. The second drill: the replica's directory
// cannot be written for a while; /readyz says not ready meanwhile, and replication
// catches up after.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openDb, prepareDb, schema, type Db } from "../../db/client";
import { createBundle, createCustomer, createDelivery, createDistributor, createLabelBlock, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, stockholmTime, today } from "../../app/lib/dates";
import { SELLER_ENV } from "../production-env";
import { expect, test } from "./fixtures";
import { client, logIn } from "./own-server";
import { serverDatabase } from "./totp-codes";
import { litestreamAlive } from "../litestream-alive";
import { postForm, returnForms, type SaveForm } from "./return-burst";
import { freePort } from "../../cli/free-port";
import { portalNow } from "../../db/clock";

test.describe.configure({ timeout: 240_000 });

const MAX_LAG_SECONDS = 5;

type Place = { dir: string; file: string; replicaDir: string; env: Record<string, string> };

function place(name: string): Place {
  const dir = resolve(`tests/.tmp/${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/portal.db`;
  const replicaDir = `${dir}/replica`;
  return {
    dir,
    file,
    replicaDir,
    env: { DATABASE_URL: `file:${file}`, REPLICA_URL: `file://${replicaDir}`, REPLICA_MAX_LAG: `${MAX_LAG_SECONDS}s`, REPLICA_SYNC_INTERVAL: "1s" },
  };
}

type Server = { baseURL: string; child: ChildProcess; log: () => string };

/** A production server (the compiled CLI) in a process group of its own, replicating. */
async function startServer(p: Place): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ["build/cli/portal.js", "serve", "--host", "127.0.0.1", "--port", String(port)], {
    env: { ...process.env, ...p.env, NODE_ENV: "production", SESSION_SECRET: "replication-drill-secret-not-for-production", PORTAL_URL: `http://127.0.0.1:${port}`, ...SELLER_ENV, PORTAL_QUIET_LOG: "1", REMIND_AT: "off", MAINTENANCE_AT: "off" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout?.on("data", (d) => (out += String(d)));
  child.stderr?.on("data", (d) => (out += String(d)));
  const baseURL = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${baseURL}/readyz`).catch(() => null))?.status === 200, 60_000, () => `server on ${p.file} not ready: ${out}`, child);
  return { baseURL, child, log: () => out };
}

/** The server, its replicator and Litestream, all at once: what a dead machine does. */
async function killGroup(s: Server, signal: NodeJS.Signals) {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once("exit", r));
  process.kill(-s.child.pid!, signal);
  await exited;
}

/** Polls `ok` every 100 ms until it holds; fails with `what` after `ms`. */
async function until(ok: () => Promise<boolean>, ms: number, what: () => string, child?: ChildProcess) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`exited: ${what()}`);
    if (await ok()) return;
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 100));
  }
}

function cli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ["build/cli/portal.js", ...args], { env: { ...process.env, ...env, NODE_ENV: "production" }, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function seed(db: Db, customers: number) {
  await prepareDb(db);
  await ensureTitlesAndEditions(db);
  await createDistributor(db, 1, "Utb Mitt");
  const on = today();
  const plan: { customerId: number; lines: { deliveryId: number; amount: number }[] }[] = [];
  for (let i = 0; i < customers; i++) {
    const customerId = 3000 + i;
    await createCustomer(db, { id: customerId, distributorId: 1, pin: "135790", name: i % 2 ? `Şahin Livs ${i}` : `Kvällsposten-kiosken Ängby ${i}` });
    await createLabelBlock(db, { customerId, type: 0, status: "Levererad", fromDate: addDays(on, -30), toDate: addDays(on, 300), fromNumber: 1, toNumber: 50 });
    await createBundle(db, { customerId, number: 1, type: 0, open: true });
    const d = await createDelivery(db, { customerId, titleId: 1 + (i % 2), editionId: 1, deliveryDate: addDays(on, -1), delivered: 20, priceOre: 2200 });
    plan.push({ customerId, lines: [{ deliveryId: d.id, amount: 1 + (i % 7) }] });
  }
  return plan;
}

type Sent = { form: SaveForm; sentAt: number; ackedAt: number | null };

/** Which of the forms' saves a database holds. */
async function stored(db: Db, sent: Sent[]): Promise<Set<number>> {
  const rows = await db.select({ customerId: schema.returns.customerId, deliveryId: schema.returns.deliveryId, amount: schema.returns.amount }).from(schema.returns);
  const have = new Set<number>();
  for (const s of sent) {
    const l = s.form.lines[0];
    if (rows.some((r) => r.customerId === s.form.customerId && r.deliveryId === l.deliveryId && r.amount === l.amount)) have.add(s.form.customerId);
  }
  return have;
}

test("the disk dies mid-morning: the replica brings back every save older than the lag, and the morning at any second", async () => {
  const p = place("replication-drill");
  const seedDb = openDb(`file:${p.file}`);
  const plan = await seed(seedDb, 120);
  seedDb.$client.close();
  const server = await startServer(p);
  let again: Server | undefined;
  try {
    const forms = await returnForms(server.baseURL, plan, "135790");
    // Steady saves, one every 80 ms, two at a time at most; the kill comes after the 100th answer.
    const sent: Sent[] = [];
    let killAt = 0;
    const inFlight = new Set<Promise<void>>();
    for (const form of forms) {
      if (killAt) break;
      const s: Sent = { form, sentAt: portalNow(), ackedAt: null };
      sent.push(s);
      const done = postForm(server.baseURL, form)
        .then((res) => {
          if (res.status === 302 && !killAt) s.ackedAt = portalNow();
        })
        .catch(() => undefined)
        .then(async () => {
          if (!killAt && sent.filter((x) => x.ackedAt).length >= 100) {
            killAt = portalNow();
            await killGroup(server, "SIGKILL");
          }
        });
      inFlight.add(done);
      void done.then(() => inFlight.delete(done));
      if (inFlight.size >= 2) await Promise.race(inFlight);
      await new Promise((r) => setTimeout(r, 80));
    }
    await Promise.all(inFlight);
    if (!killAt) {
      killAt = portalNow();
      await killGroup(server, "SIGKILL");
    }
    const acked = sent.filter((s) => s.ackedAt !== null);
    expect(acked.length).toBeGreaterThanOrEqual(100);

    // The disk is gone: the database, its WAL and Litestream's local copy of the WAL.
    for (const f of ["portal.db", "portal.db-wal", "portal.db-shm", ".portal.db-litestream", ".portal.db-replica.json"]) rmSync(`${p.dir}/${f}`, { recursive: true, force: true });

    // A server started on the new, empty disk before the restore would start the replica
    // over with an empty database, which a restore would then bring back: refused.
    const early = cli(["serve", "--host", "127.0.0.1", "--port", String(await freePort())], { ...p.env, SESSION_SECRET: "replication-drill-secret-not-for-production", PORTAL_URL: "http://127.0.0.1:1", ...SELLER_ENV });
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(/finns inte, men repliken file:\/\/.* har en kopia \(senast .*\): återställ den först med portal restore --from-replica/);
    expect(existsSync(p.file)).toBe(false);

    // Point in time: the morning as it was 2.5 s after the first save.
    const first = acked[0].ackedAt!;
    const at = Math.floor((first + 2_500) / 1000) * 1000;
    const pitFile = `${p.dir}/pit.db`;
    const pit = cli(["restore", "--from-replica", "--at", stockholmTime(at)], { ...p.env, DATABASE_URL: `file:${pitFile}` });
    expect(pit.stderr).toBe("");
    expect(pit.code).toBe(0);

    // The last state.
    const put = cli(["restore", "--from-replica"], p.env);
    expect(put.stderr).toBe("");
    expect(put.code).toBe(0);
    expect(put.stdout).toMatch(/integrity_check ok, rader: customers 120/);
    expect(put.stdout).toContain("databasen fanns inte");

    const restored = openDb(`file:${p.file}`);
    const have = await stored(restored, sent);
    restored.$client.close();
    const lostBeyondLag = acked.filter((s) => s.ackedAt! < killAt - MAX_LAG_SECONDS * 1000 && !have.has(s.form.customerId));
    const lostWithinLag = acked.filter((s) => s.ackedAt! >= killAt - MAX_LAG_SECONDS * 1000 && !have.has(s.form.customerId));
    const notAcked = sent.filter((s) => s.ackedAt === null);
    expect(lostBeyondLag.map((s) => s.form.customerId)).toEqual([]);
    // A save that was never answered may or may not be there; one that is there is whole (one line, its amount).
    console.log(
      `replication drill: ${acked.length} saves acknowledged over ${((killAt - first) / 1000).toFixed(1)} s; lost beyond the ${MAX_LAG_SECONDS} s lag: ${lostBeyondLag.length}; lost within it: ${lostWithinLag.length}; unanswered at the kill: ${notAcked.length} (${notAcked.filter((s) => have.has(s.form.customerId)).length} of them stored)`,
    );

    const pitDb = openDb(`file:${pitFile}`);
    const then = await stored(pitDb, sent);
    pitDb.$client.close();
    // Saved well before the moment (3 s: Litestream reads the WAL every second and ships it every second): there.
    for (const s of acked.filter((x) => x.ackedAt! < at - 3_000)) expect(then.has(s.form.customerId), `save of ${s.form.customerId} at the point in time`).toBe(true);
    // Sent after the moment: not there.
    for (const s of sent.filter((x) => x.sentAt > at)) expect(then.has(s.form.customerId), `save of ${s.form.customerId} sent after the point in time`).toBe(false);
    expect(then.size).toBeGreaterThan(0);
    expect(then.size).toBeLessThan(have.size);

    // A new start on the restored database: the retailer sees the save, and replication starts over.
    again = await startServer(p);
    const last = acked.filter((s) => have.has(s.form.customerId)).at(-1)!;
    const res = await fetch(`${again.baseURL}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: String(last.form.customerId), pinkod: "135790" }), redirect: "manual" });
    expect(res.status).toBe(302);
    const cookie = res.headers.get("set-cookie")!.split(";")[0];
    const page = await (await fetch(`${again.baseURL}/historik?fran=${addDays(today(), -7)}&till=${today()}`, { headers: { cookie } })).text();
    const rows = [...page.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => m[1].replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim()).filter((row) => /\d{4}-\d{2}-\d{2}/.test(row));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(` ${last.form.lines[0].amount} `);
    expect(await (await fetch(`${again.baseURL}/readyz`)).text()).toMatch(/^ready; replica \d+\.\d s behind$/);
    const status = cli(["replica", "status"], p.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/läge: ikapp/);
  } finally {
    await killGroup(server, "SIGTERM");
    if (again) await killGroup(again, "SIGTERM");
    rmSync(p.dir, { recursive: true, force: true });
  }
});

test("a replica that cannot be written for a while: /readyz says so, and replication catches up after", async () => {
  const p = place("replication-outage");
  const seedDb = openDb(`file:${p.file}`);
  const plan = await seed(seedDb, 30);
  await createStaff(seedDb, { email: "drift@replication.example", name: "Dana Drift", password: "Korrekt-Häst-Batteri-9", roles: "admin" });
  seedDb.$client.close();
  const server = await startServer(p);
  const moved = `${p.replicaDir}.away`;
  const admin = await client(server.baseURL);
  // Every Litestream the replicator ran: none may outlive the server (a hung one ignores SIGTERM).
  const litestreams = new Set<number>();
  const notePid = () => {
    try {
      const pid = (JSON.parse(readFileSync(`${p.dir}/.portal.db-replica.json`, "utf8")) as { litestreamPid?: number }).litestreamPid;
      if (pid) litestreams.add(pid);
    } catch {
      /* between writes */
    }
  };
  const adminStart = async () => {
    const res = await admin.get("/admin");
    expect(res.status()).toBe(200);
    return (await res.text()).replace(/<!-- -->/g, "");
  };
  const served = openDb(`file:${p.file}`);
  serverDatabase(server.baseURL, () => served);
  try {
    await logIn(admin, "drift@replication.example", "Korrekt-Häst-Batteri-9").finally(() => served.$client.close());
    expect(await adminStart()).not.toContain("Replikering:");
    const forms = await returnForms(server.baseURL, plan, "135790");
    expect((await postForm(server.baseURL, forms[0])).status).toBe(302);

    // The replica's disk is gone: its directory is a plain file now (root writes through chmod).
    renameSync(p.replicaDir, moved);
    writeFileSync(p.replicaDir, "not a directory");
    let next = 1;
    let notReady = "";
    await until(
      async () => {
        // Saves go on meanwhile: they are on the server's disk only.
        if (next < 20) expect((await postForm(server.baseURL, forms[next++])).status).toBe(302);
        const r = await fetch(`${server.baseURL}/readyz`);
        notePid();
        if (r.status === 503) notReady = await r.text();
        return r.status === 503;
      },
      60_000,
      () => `readyz never said not ready: ${server.log()}`,
    );
    expect(notReady).toMatch(new RegExp(`not ready: replica \\d+ s behind \\(limit ${MAX_LAG_SECONDS} s\\)`));
    // Litestream hangs on the failed write and is restarted; the restarted one cannot write
    // either, and says nothing until it tries: still not ready, never "caught up" by default.
    await until(async () => server.log().includes("Litestream startas om"), 60_000, () => `no restart of a hung Litestream: ${server.log()}`);
    await until(async () => /litestream avslutades \(SIGKILL\); startas igen/.test(server.log()), 10_000, () => server.log());
    for (let i = 0; i < 8; i++) {
      notePid();
      expect((await fetch(`${server.baseURL}/readyz`)).status, "readyz while the replica is still unwritable").toBe(503);
      await new Promise((r) => setTimeout(r, 500));
    }
    const behind = cli(["replica", "status"], p.env);
    expect(behind.code).toBe(1);
    expect(behind.stdout).toMatch(/läge: efter/);
    expect(await adminStart()).toMatch(/Replikering:<\/strong> Replikeringen ligger \d+(,\d)? s efter \(gränsen är 5 s\): det som sparats sedan dess finns bara på serverns disk\./);
    for (; next < 20; next++) expect((await postForm(server.baseURL, forms[next])).status).toBe(302);

    // The disk is back.
    rmSync(p.replicaDir);
    renameSync(moved, p.replicaDir);
    await until(
      async () => {
        notePid();
        return (await fetch(`${server.baseURL}/readyz`)).status === 200;
      },
      60_000,
      () => `readyz never ready again: ${server.log()}`,
    );
    notePid();
    expect(await adminStart()).not.toContain("Replikering:");

    // Everything saved during the outage is in the replica: checked without touching the live database.
    const check = cli(["restore", "--from-replica", "--check"], p.env);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/integrity_check ok, rader: customers 30, .*returns 20,/);
    expect(check.stdout).toContain("databasen är orörd");
    expect(existsSync(p.file)).toBe(true);
    const live = openDb(`file:${p.file}`);
    expect(await live.$count(schema.returns)).toBe(20);
    live.$client.close();

    // The server stopped as an operator stops it: no Litestream left behind.
    await admin.dispose();
    await killGroup(server, "SIGTERM");
    expect(litestreams.size).toBeGreaterThan(0);
    for (const pid of litestreams) expect(litestreamAlive(pid), `litestream ${pid} still running`).toBe(false);
  } finally {
    if (!existsSync(`${p.replicaDir}/generations`) && existsSync(moved)) {
      rmSync(p.replicaDir, { force: true });
      renameSync(moved, p.replicaDir);
    }
    await admin.dispose().catch(() => undefined);
    await killGroup(server, "SIGTERM");
    for (const pid of litestreams) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone, as it should be */
      }
    }
    rmSync(p.dir, { recursive: true, force: true });
  }
});
