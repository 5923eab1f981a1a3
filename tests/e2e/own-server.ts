// A server of the test's own (a child process on a free port, its own database file),
// for tests that need settings the shared e2e server does not have (TRUST_PROXY, short
// throttle delays) or that compare the whole database before and after (no other test
// writes to it).
import { request as pwRequest, type APIRequestContext } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { openDb, type Db } from "../../db/client";

export type OwnServer = { baseURL: string; port: number; db: Db; stop: () => Promise<void> };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startOwnServer(name: string, env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const file = `tests/.tmp/${name}-${port}.db`;
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const child: ChildProcess = spawn("npx", ["tsx", "cli/portal.ts", "serve", "--host", "127.0.0.1", "--port", String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      SESSION_SECRET: "own-server-secret-not-for-production",
      PORTAL_QUIET_LOG: "1",
      NODE_ENV: "production",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += String(d)));
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
  return {
    baseURL,
    port,
    db,
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

/** Logs a context in through the real login form; expects the redirect. */
export async function logIn(ctx: APIRequestContext, name: string | number, secret: string, headers: Record<string, string> = {}) {
  const res = await ctx.post("/login", { form: { kundnummer: String(name), pinkod: secret }, headers, maxRedirects: 0 });
  if (res.status() !== 302) throw new Error(`login as ${name} answered ${res.status()}`);
  return res;
}
