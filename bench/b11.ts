// B11: retailers' 5-line saves and logins while a national invoice run works, against the
// same traffic with no run, and /healthz throughout. The run works in a process of its own
// (`portal invoice run`), as the web server's child process works a run started in the
// browser (`portal invoice work`): the same chunked writes to the same database file.
import { createClient } from "@libsql/client";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { SELLER_ENV } from "../tests/production-env";
import { yieldCpu } from "../cli/server-jobs";
import { log, SMOKE } from "./lib";

/** Morning traffic at a national peak: saves and logins a second, each from its own retailer. */
const SAVES_PER_SECOND = 20;
const LOGINS_PER_SECOND = 2;
const HEALTH_EVERY_MS = 100;
const IDLE_SECONDS = SMOKE ? 1 : 8;

type Sample = { ms: number; ok: boolean };
export type Traffic = { saves: Sample[]; logins: Sample[]; health: Sample[] };

export function p95(samples: Sample[]): number {
  const s = samples.map((x) => x.ms).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}
export const failures = (samples: Sample[]) => samples.filter((x) => !x.ok).length;
export const slowest = (samples: Sample[]) => Math.max(0, ...samples.map((x) => x.ms));

type Save = { customerId: number; cookie: string; body: string };

/** Retailers with five unreported papers in open bundles, each with a session and a 5-line form. */
async function saveForms(dbFile: string, makeSessions: (dbFile: string, ids: number[]) => Promise<Map<number, string>>, formToken: (id: number) => string, count: number): Promise<Save[]> {
  const client = createClient({ url: `file:${dbFile}` });
  const papers = (
    await client.execute(`
      select d.id, d.customer_id as customerId, d.delivered,
        (select b.number from bundles b where b.customer_id = d.customer_id and b.open = 1 and b.type = e.type order by b.number desc limit 1) as bundle
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where d.reported_at is null
      order by d.customer_id, d.id`)
  ).rows as unknown as { id: number; customerId: number; delivered: number; bundle: number | null }[];
  client.close();
  const byCustomer = new Map<number, typeof papers>();
  for (const p of papers) if (p.bundle !== null) byCustomer.set(p.customerId, [...(byCustomer.get(p.customerId) ?? []), p]);
  const chosen = [...byCustomer.entries()].filter(([, ps]) => ps.length >= 5).slice(0, count);
  const cookies = await makeSessions(dbFile, chosen.map(([id]) => id));
  return chosen.map(([customerId, ps]) => {
    const form = new URLSearchParams({ csrf: formToken(customerId), intent: "save", token: randomUUID() });
    for (const p of ps.slice(0, 5)) {
      form.append("line", `d${p.id}`);
      form.append(`d${p.id}.delivery`, String(p.id));
      form.append(`d${p.id}.bundle`, String(p.bundle));
      form.append(`d${p.id}.amount`, String(1 + (p.id % Math.min(5, p.delivered))));
      form.append(`d${p.id}.dflt`, "");
    }
    return { customerId, cookie: cookies.get(customerId)!, body: form.toString() };
  });
}

async function timed(fn: () => Promise<boolean>): Promise<Sample> {
  const started = performance.now();
  const ok = await fn().catch(() => false);
  return { ms: performance.now() - started, ok };
}

/**
 * Sends the morning's traffic at a steady rate (open loop: a slow answer never slows the
 * sending) until `done` settles: saves from `saves` (each retailer once), logins of the
 * retailers in `logins` (national seed PIN 1234), /healthz every 100 ms.
 */
async function traffic(url: string, saves: Save[], logins: number[], done: Promise<unknown>): Promise<Traffic> {
  const out: Traffic = { saves: [], logins: [], health: [] };
  const pending: Promise<void>[] = [];
  const every = (ms: number, fire: (i: number) => Promise<void> | null) => {
    let i = 0;
    const timer = setInterval(() => {
      const p = fire(i++);
      if (p) pending.push(p);
    }, ms);
    return () => clearInterval(timer);
  };
  const stops = [
    every(1000 / SAVES_PER_SECOND, () => {
      const s = saves.shift();
      if (!s) return null;
      return timed(async () => {
        const res = await fetch(`${url}/rapportering/1`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: s.cookie }, body: s.body, redirect: "manual" });
        await res.arrayBuffer();
        return res.status === 302;
      }).then((x) => void out.saves.push(x));
    }),
    every(1000 / LOGINS_PER_SECOND, () => {
      const id = logins.shift();
      if (id === undefined) return null;
      return timed(async () => {
        const res = await fetch(`${url}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: String(id), pinkod: "1234" }), redirect: "manual" });
        await res.arrayBuffer();
        return res.status === 302;
      }).then((x) => void out.logins.push(x));
    }),
    every(HEALTH_EVERY_MS, () =>
      timed(async () => {
        const res = await fetch(`${url}/healthz`);
        await res.arrayBuffer();
        return res.ok;
      }).then((x) => void out.health.push(x)),
    ),
  ];
  await done;
  for (const stop of stops) stop();
  await Promise.all(pending);
  return out;
}

export type B11 = { customers: number; idle: Traffic; run: Traffic; runSeconds: number; invoices: number; ranOutOfRetailers: boolean };

export async function b11(
  url: string,
  dbFile: string,
  customers: number,
  period: { from: string; to: string },
  makeSessions: (dbFile: string, ids: number[]) => Promise<Map<number, string>>,
  formToken: (id: number) => string,
): Promise<B11> {
  // Enough retailers for the idle phase and a run of up to two minutes (the smoke's small
  // database: ten seconds, leaving retailers for the logins).
  const forms = await saveForms(dbFile, makeSessions, formToken, SAVES_PER_SECOND * (IDLE_SECONDS + (SMOKE ? 10 : 120)));
  const idleForms = forms.splice(0, SAVES_PER_SECOND * IDLE_SECONDS);
  // Logins by retailers the saves do not use (each logs in once).
  const used = new Set([...idleForms, ...forms].map((f) => f.customerId));
  const loginIds = Array.from({ length: customers }, (_, i) => i + 1).filter((id) => !used.has(id));
  const idleLogins = loginIds.splice(0, LOGINS_PER_SECOND * IDLE_SECONDS);
  // Warm up (JIT, page cache), then the idle measure.
  await fetch(`${url}/login`).then((r) => r.arrayBuffer());
  log(`B11 ${customers}: idle traffic, ${IDLE_SECONDS} s`);
  const idle = await traffic(url, idleForms, idleLogins, new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000)));
  log(`B11 ${customers}: invoice run ${period.from}..${period.to} with the same traffic`);
  const started = performance.now();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "invoice", "run", "--from", period.from, "--to", period.to], {
    env: { ...process.env, DATABASE_URL: `file:${dbFile}`, NODE_ENV: "production", ...SELLER_ENV },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // At the priority the web server gives its child.
  yieldCpu(child);
  child.stdout.on("data", (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const run = await traffic(url, forms, loginIds, exited);
  const runSeconds = (performance.now() - started) / 1000;
  if ((await exited) !== 0) throw new Error(`B11: invoice run failed: ${output}`);
  const invoices = Number(/: (\d+) new/.exec(output)?.[1] ?? NaN);
  return { customers, idle, run, runSeconds, invoices, ranOutOfRetailers: forms.length === 0 };
}
