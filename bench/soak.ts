// `npm run soak` (not in CI): mixed retailer and staff traffic
// against the production build on 127.0.0.1 and a generated national database.
// Measures capacity with the same mix for a few seconds, then runs 60 s at 80 % of
// it; reports errors, the server's RSS (start/end/max, sampled every second from
// /proc) and whether every acknowledged return save is stored exactly once.
//   npm run soak -- [--customers 6500] [--seconds 60] [--share 0.8]
import { createClient } from "@libsql/client";
import { createCookie } from "@remix-run/node";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { openDb } from "../db/client";
import { createStaff } from "../cli/seed/factories";
import { checkStored, DATA, ensureDb, log, startServer } from "./lib";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CUSTOMERS = arg("customers", 6500);
const SECONDS = arg("seconds", 60);
const SHARE = arg("share", 0.8);
const PORT = 3960;
const CONNECTIONS = 16;

type Form = { customerId: number; body: string; lines: { id: number; amount: number }[]; acked: number };

async function prepare(dbFile: string) {
  const client = createClient({ url: `file:${dbFile}` });
  const cookie = createCookie("rp_session", { httpOnly: true, sameSite: "lax", secure: false, path: "/", secrets: ["bench-session-secret-not-for-production"] });
  const now = Date.now();
  // The form token each session holds; the soak's posts send it.
  const formToken = (customerId: number) => `soak-form-token-${customerId}`;
  const sessionRow = async (customerId: number | null, staffId: number | null) => {
    const sid = randomBytes(32).toString("base64url");
    await client.execute({
      sql: "insert into sessions (id, customer_id, staff_id, data, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)",
      args: [sid, customerId, staffId, JSON.stringify(customerId ? { customerId, csrf: formToken(customerId) } : { staffId, csrf: `soak-staff-${staffId}` }), now, now, now + 12 * 3600_000],
    });
    return (await cookie.serialize(sid)).split(";")[0];
  };
  // 5 unreported papers with an open bundle of their type, per customer: one form each.
  const papers = (
    await client.execute(`
      select d.id, d.customer_id as customerId, d.delivered,
        (select b.number from bundles b where b.customer_id = d.customer_id and b.open = 1 and b.type = e.type order by b.number desc limit 1) as bundle
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where d.reported_at is null and d.delivery_date >= date('now', '-13 days')
      order by d.customer_id, d.id`)
  ).rows as unknown as { id: number; customerId: number; delivered: number; bundle: number | null }[];
  const byCustomer = new Map<number, typeof papers>();
  for (const p of papers) if (p.bundle !== null && p.delivered > 0) byCustomer.set(p.customerId, [...(byCustomer.get(p.customerId) ?? []), p]);
  const forms: Form[] = [];
  for (const [customerId, ps] of byCustomer) {
    if (ps.length < 5) continue;
    const form = new URLSearchParams({ csrf: formToken(customerId), intent: "save", token: randomUUID() });
    const lines = ps.slice(0, 5).map((p) => ({ id: p.id, amount: 1 + (p.id % Math.min(5, p.delivered)), bundle: p.bundle! }));
    for (const l of lines) {
      form.append("line", `d${l.id}`);
      form.append(`d${l.id}.delivery`, String(l.id));
      form.append(`d${l.id}.bundle`, String(l.bundle));
      form.append(`d${l.id}.amount`, String(l.amount));
      form.append(`d${l.id}.dflt`, "");
    }
    forms.push({ customerId, body: form.toString(), lines, acked: 0 });
  }
  const readers = Array.from({ length: 300 }, (_, i) => 1 + Math.floor((i * CUSTOMERS) / 300));
  const cookies = new Map<number, string>();
  for (const id of new Set([...readers, ...forms.map((f) => f.customerId)])) cookies.set(id, await sessionRow(id, null));
  const staffDb = openDb(`file:${dbFile}`);
  const email = `soak-${Date.now()}@bench.example`;
  await createStaff(staffDb, { email, name: "Soak admin", password: "soak-password-123", roles: "admin", distributorId: null });
  staffDb.$client.close();
  const staff = (await client.execute({ sql: "select id from staff_users where email = ?", args: [email] })).rows[0];
  const staffCookie = await sessionRow(null, Number(staff.id));
  client.close();
  return { forms, readers, cookies, staffCookie };
}

type Stats = { sent: number; errors: number; byKind: Record<string, number>; statuses: Record<string, number> };

async function drive(url: string, ctx: Awaited<ReturnType<typeof prepare>>, opts: { seconds: number; rps: number | null; formsFrom: { next: number } }): Promise<Stats & { rps: number }> {
  const stats: Stats = { sent: 0, errors: 0, byKind: {}, statuses: {} };
  const acked: Form[] = [];
  const end = Date.now() + opts.seconds * 1000;
  const started = Date.now();
  let scheduled = 0;
  const pick = (): { kind: string; path: string; init: RequestInit; form?: Form } => {
    const r = Math.random();
    const reader = ctx.readers[Math.floor(Math.random() * ctx.readers.length)];
    const rc = ctx.cookies.get(reader)!;
    if (r < 0.1 && opts.formsFrom.next < ctx.forms.length) {
      const form = ctx.forms[opts.formsFrom.next++];
      return { kind: "save", path: "/rapportering/1", form, init: { method: "POST", body: form.body, headers: { cookie: ctx.cookies.get(form.customerId)!, "content-type": "application/x-www-form-urlencoded" } } };
    }
    if (r < 0.12 && acked.length) {
      // A double submit of an acknowledged form: must not double anything.
      const form = acked[Math.floor(Math.random() * acked.length)];
      return { kind: "resubmit", path: "/rapportering/1", form, init: { method: "POST", body: form.body, headers: { cookie: ctx.cookies.get(form.customerId)!, "content-type": "application/x-www-form-urlencoded" } } };
    }
    const gets: [number, string, string, string][] = [
      [0.45, "returns", "/rapportering/1", rc],
      [0.55, "start", "/", rc],
      [0.65, "delivery-note", "/foljesedel", rc],
      [0.72, "history", "/historik", rc],
      [0.8, "staff-start", "/admin", ctx.staffCookie],
      [0.9, "staff-bundles", `/admin/bundles?kund=${reader}`, ctx.staffCookie],
      [0.96, "staff-complaints", "/admin/leveransreklamation", ctx.staffCookie],
      [1.01, "staff-distribution", "/admin/distribution", ctx.staffCookie],
    ];
    const [, kind, path, cookie] = gets.find(([p]) => r < p)!;
    return { kind, path, init: { headers: { cookie } } };
  };
  const worker = async () => {
    while (Date.now() < end) {
      if (opts.rps) {
        // Open-loop pacing: request n goes out at started + n / rps.
        const slot = started + (scheduled++ / opts.rps) * 1000;
        const wait = slot - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        if (Date.now() >= end) break;
      }
      const req = pick();
      stats.sent++;
      stats.byKind[req.kind] = (stats.byKind[req.kind] ?? 0) + 1;
      try {
        const res = await fetch(url + req.path, { ...req.init, redirect: "manual" });
        await res.arrayBuffer();
        stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
        const ok = req.form ? res.status === 302 : res.status === 200;
        if (!ok) stats.errors++;
        if (req.form && res.status === 302) {
          req.form.acked++;
          if (req.kind === "save") acked.push(req.form);
        }
      } catch {
        stats.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.rps ? CONNECTIONS * 2 : CONNECTIONS }, worker));
  return { ...stats, rps: stats.sent / ((Date.now() - started) / 1000) };
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

async function main() {
  const national = ensureDb(CUSTOMERS);
  const dbFile = `${DATA}/soak.db`;
  for (const s of ["", "-wal", "-shm"]) rmSync(dbFile + s, { force: true });
  copyFileSync(national, dbFile);
  const ctx = await prepare(dbFile);
  log(`soak: ${CUSTOMERS} customers, ${ctx.forms.length} return forms available, ${ctx.readers.length} readers`);
  const server = await startServer(dbFile, PORT);
  const formsFrom = { next: 0 };
  try {
    const cap = await drive(server.url, ctx, { seconds: 5, rps: null, formsFrom });
    const target = Math.max(1, Math.round(cap.rps * SHARE));
    log(`capacity (mix, ${CONNECTIONS} connections, 5 s): ${cap.rps.toFixed(0)} req/s, ${cap.errors} errors; soak target ${target} req/s for ${SECONDS} s`);
    const samples: number[] = [rssMb(server.child.pid!)];
    const timer = setInterval(() => samples.push(rssMb(server.child.pid!)), 1000);
    const soak = await drive(server.url, ctx, { seconds: SECONDS, rps: target, formsFrom });
    clearInterval(timer);
    samples.push(rssMb(server.child.pid!));

    // Every acknowledged form stored exactly once (resubmits included).
    const used = ctx.forms.slice(0, formsFrom.next);
    const { lost, doubled, unacked, integrity } = await checkStored(dbFile, used);
    // Memory flat: RSS saws up and down with garbage collection, so compare the troughs:
    // the lowest RSS of the last third must be within 10 % (at least 30 MB) of the lowest
    // of the middle third (after warm-up: JIT, SQLite page cache). A leak lifts the troughs.
    const start = samples[0];
    const end = samples[samples.length - 1];
    const max = Math.max(...samples);
    const third = Math.floor(samples.length / 3);
    const warm = Math.min(...samples.slice(third, 2 * third));
    const late = Math.min(...samples.slice(2 * third));
    const flat = late - warm <= Math.max(30, warm * 0.1);
    const pass = cap.errors === 0 && soak.errors === 0 && lost === 0 && doubled === 0 && unacked === 0 && integrity === "ok" && flat;
    const report = {
      capacityRps: Math.round(cap.rps),
      targetRps: target,
      achievedRps: Math.round(soak.rps),
      seconds: SECONDS,
      requests: soak.sent + cap.sent,
      soakRequests: soak.sent,
      byKind: soak.byKind,
      statuses: soak.statuses,
      errors: cap.errors + soak.errors,
      formsSaved: used.length,
      lost,
      doubled,
      unacknowledged: unacked,
      integrity,
      rssMb: { start: Math.round(start), end: Math.round(end), max: Math.round(max), middleThirdLow: Math.round(warm), lastThirdLow: Math.round(late), flat },
      pass,
    };
    console.log(JSON.stringify(report, null, 2));
    process.exitCode = pass ? 0 : 1;
  } finally {
    await server.stop();
  }
}

await main();
