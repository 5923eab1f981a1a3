// Shared pieces of the benchmark: databases, the server, logins, load runs.
import { createClient } from "@libsql/client";
import autocannon from "autocannon";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { SELLER_ENV } from "../tests/production-env";

export const DATA = "bench/data";

/**
 * `npm run bench -- --smoke` (npm test runs it): every figure measured once, on a small
 * database, with no targets, so a screen change that breaks a benchmark's way through the
 * portal fails the build. Its figures mean nothing.
 */
export const SMOKE = process.argv.includes("--smoke");

/**
 * Points the app's modules, used in this process, at `file`: the app's client is opened
 * once and kept, so the one an earlier benchmark opened is closed first (the smoke runs
 * B15, B16 and B17 in one process; each wrote into the one before's database).
 */
export async function useAppDatabase(file: string) {
  process.env.DATABASE_URL = `file:${file}`;
  (await import("../db/client")).closeDb();
}

export function log(msg: string) {
  process.stderr.write(`[bench] ${msg}\n`);
}

/** A national-style database with `customers` customers, generated once and kept. */
export function ensureDb(customers: number, days = 90): string {
  mkdirSync(DATA, { recursive: true });
  const file = `${DATA}/national-${customers}.db`;
  if (!existsSync(file)) {
    log(`generating ${file} (${customers} customers, ${days} days)`);
    const started = Date.now();
    const r = spawnSync(
      "npx",
      ["tsx", "cli/portal.ts", "seed", "--scale", "national", "--customers", String(customers), "--days", String(days)],
      {
        env: { ...process.env, DATABASE_URL: `file:${file}` },
        stdio: ["ignore", "inherit", "inherit"],
      }
    );
    if (r.status !== 0) throw new Error(`seed failed for ${file}`);
    log(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return file;
}

export type Server = { url: string; child: ChildProcess; startMs: number; stop: () => Promise<void> };

// Every server this bench started, stopped when the bench ends however it ends: a crashed
// run left one on its port, and the next run refused to start.
const running = new Set<ChildProcess>();
const stopAll = () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
};
process.once("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}
process.once("uncaughtException", (error) => {
  stopAll();
  throw error;
});
process.once("unhandledRejection", (error) => {
  stopAll();
  throw error;
});

export async function startServer(dbFile: string, port: number): Promise<Server> {
  // A server left over from an interrupted run would answer for this one, from its own copy.
  const stale = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => true,
    () => false,
  );
  if (stale) throw new Error(`port ${port} is taken (a server left over from an interrupted bench run?): stop it first`);
  const started = performance.now();
  const child = spawn(
    "node",
    // The compiled CLI, as production starts it (README).
    ["build/cli/portal.js", "serve", "--host", "127.0.0.1", "--port", String(port)],
    {
      env: {
        ...process.env,
        DATABASE_URL: `file:${dbFile}`,
        NODE_ENV: "production",
        PORTAL_QUIET_LOG: "1",
        SESSION_SECRET: "bench-session-secret-not-for-production",
        PORTAL_URL: `http://127.0.0.1:${port}`,
        ...SELLER_ENV,
        THROTTLE_IP_LIMIT: "1000000",
      },
      stdio: ["ignore", "ignore", "inherit"],
    }
  );
  running.add(child);
  child.once("exit", () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error("server exited");
    try {
      const res = await fetch(`${url}/login`);
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const startMs = performance.now() - started;
  return {
    url,
    child,
    startMs,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function login(url: string, name: string, secret: string): Promise<string> {
  // Staff log in on their own page; a customer number in the retailers' box.
  const staff = name.includes("@");
  const res = await fetch(`${url}${staff ? "/personal/logga-in" : "/login"}`, {
    method: "POST",
    body: new URLSearchParams(staff ? { epost: name, losenord: secret } : { kundnummer: name, pinkod: secret }),
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`login ${name}: ${res.status}`);
  return res.headers.get("set-cookie")!.split(";")[0];
}

export async function loginMany(url: string, ids: number[], pin = "1234"): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < ids.length; i += 8) {
    cookies.push(...(await Promise.all(ids.slice(i, i + 8).map((id) => login(url, String(id), pin)))));
  }
  return cookies;
}

export type Load = { rps: number; p50: number; p99: number; errors: number; non2xx: number; total: number };

/** A bounded GET load: each connection keeps one of the cookies. */
export async function getLoad(
  url: string,
  path: string,
  opts: { connections: number; seconds: number; cookies?: string[] }
): Promise<Load> {
  let next = 0;
  const result = await autocannon({
    url: url + path,
    connections: opts.connections,
    duration: opts.seconds,
    setupClient: (client: autocannon.Client) => {
      if (opts.cookies?.length) client.setHeaders({ cookie: opts.cookies[next++ % opts.cookies.length] });
    },
  });
  return summarize(result);
}

export function summarize(result: autocannon.Result): Load {
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

export function gzipSize(body: string | Uint8Array): number {
  return gzipSync(typeof body === "string" ? Buffer.from(body) : body, { level: 9 }).length;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function timeIt(fn: () => Promise<unknown>, runs: number): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** A returns form sent under load: its lines, and how many times it was acknowledged (302). */
export type SentForm = { lines: { id: number; amount: number }[]; acked: number };

/**
 * What is stored against what was acknowledged: a line of an acknowledged form stored
 * short is lost, one stored more than once is doubled (resubmits included).
 */
export async function checkStored(dbFile: string, forms: SentForm[]) {
  const check = createClient({ url: `file:${dbFile}` });
  let lost = 0;
  let doubled = 0;
  let unacked = 0;
  for (const form of forms) {
    const ids = form.lines.map((l) => l.id);
    const stored = (
      await check.execute({
        sql: `select delivery_id as id, sum(amount) as amount from returns where delivery_id in (${ids.map(() => "?").join(",")}) group by delivery_id`,
        args: ids,
      })
    ).rows;
    const byId = new Map(stored.map((s) => [Number(s.id), Number(s.amount)]));
    for (const l of form.lines) {
      const got = byId.get(l.id) ?? 0;
      if (form.acked > 0 && got < l.amount) lost++;
      if (got > l.amount) doubled++;
    }
    if (form.acked === 0) unacked++;
  }
  const integrity = String((await check.execute("PRAGMA integrity_check")).rows[0][0]);
  check.close();
  return { lost, doubled, unacked, integrity };
}
