// A server of the test's own (a child process on a free port, its own database file),
// for tests that need settings the shared e2e server does not have (TRUST_PROXY, short
// throttle delays) or that compare the whole database before and after (no other test
// writes to it).
import { request as pwRequest, type APIRequestContext } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { openDb, type Db } from "../../db/client";
import { SELLER_ENV } from "../production-env";
import { loginPost } from "./login-post";
import { databaseOf, serverDatabase, unusedCode } from "./totp-codes";
import { freePort } from "../../cli/free-port";

export type OwnServer = {
  baseURL: string;
  port: number;
  db: Db;
  /** What the server has written to stdout and stderr so far. */
  log: () => string;
  stop: () => Promise<void>;
};

/** `options.file`: serve this database file as it is (e.g. a restored backup) instead of a fresh one. */
export async function startOwnServer(name: string, env: Record<string, string> = {}, options: { file?: string } = {}): Promise<OwnServer> {
  const port = await freePort();
  const file = options.file ?? `tests/.tmp/${name}-${port}.db`;
  if (!options.file) for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const child: ChildProcess = spawn("npx", ["tsx", "cli/portal.ts", "serve", "--host", "127.0.0.1", "--port", String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      SESSION_SECRET: "own-server-session-secret-not-for-production",
      PORTAL_URL: `http://127.0.0.1:${port}`,
      ...SELLER_ENV,
      PORTAL_QUIET_LOG: "1",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stderr = "";
  let stdout = "";
  child.stderr?.on("data", (d) => (stderr += String(d)));
  child.stdout?.on("data", (d) => (stdout += String(d)));
  const baseURL = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`own server exited: ${stderr}`);
    try {
      const res = await fetch(`${baseURL}/login`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) throw new Error(`own server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const db = openDb(`file:${file}`);
  serverDatabase(baseURL, () => db);
  return {
    baseURL,
    port,
    db,
    log: () => stdout + stderr,
    stop: async () => {
      db.$client.close();
      // The whole process group: npx, tsx and node.
      if (child.pid) process.kill(-child.pid, "SIGTERM");
      await new Promise((r) => child.once("exit", r));
      for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
    },
  };
}

/** A request context of its own (its own cookie jar) against `baseURL`. */
export function client(baseURL: string, headers: Record<string, string> = {}): Promise<APIRequestContext> {
  return pwRequest.newContext({ baseURL, extraHTTPHeaders: headers, maxRedirects: 0 });
}

export { formToken } from "./fixtures";

/** The form token of the session behind `cookie` (a `name=value` pair), for fetch-based posts. */
export async function formTokenOf(baseURL: string, cookie: string): Promise<string> {
  const html = await (await fetch(`${baseURL}/logout`, { headers: { cookie } })).text();
  return /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? "";
}

/**
 * Logs a context in through the real login form; expects the redirect. Staff made by
 * createStaff are enrolled with TEST_TOTP_SECRET: the code step is answered with a code
 * read from the server's database (startOwnServer and the e2e server tell it; another
 * server's test calls serverDatabase).
 */
export async function logIn(ctx: APIRequestContext, name: string | number, secret: string, headers: Record<string, string> = {}) {
  const { path, form } = loginPost(name, secret);
  const res = await ctx.post(path, { form, headers, maxRedirects: 0 });
  if (res.status() !== 302) throw new Error(`login as ${name} answered ${res.status()}`);
  if (res.headers()["location"] !== "/login/kod") return res;
  const db = databaseOf(res.url());
  if (!db) throw new Error(`no database known for ${res.url()}: call serverDatabase(origin, () => db) first`);
  const kod = await unusedCode(db, String(name));
  const code = await ctx.post("/login/kod", { form: { kod }, headers, maxRedirects: 0 });
  if (code.status() !== 302) throw new Error(`code step for ${name} answered ${code.status()}`);
  return code;
}
