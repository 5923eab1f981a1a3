// `portal serve` as a real process: it refuses to start on a database it cannot write
// (before, it started and failed every save) and on a bad configuration, with one line
// that says why and a non-zero exit; the `npm start` demo (`serve --setup`, no
// SESSION_SECRET) still starts.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { ROOT } from "./cli-run";

vi.setConfig({ testTimeout: 90_000 });

const dir = mkdtempSync(join(ROOT, "tests/.tmp/server-start-"));
const STRONG = "3a9e1f0c7b2d4e6f8a1c3e5f7b9d0a2c4e6f8a1c";

afterAll(() => {
  if (process.getuid?.() === 0) spawnSync("chattr", ["-R", "-i", dir]);
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** `portal serve` with `env`; a server that starts instead of refusing is stopped after 25 s (status null). */
function serve(env: Record<string, string | undefined>, port: number, args: string[] = []) {
  const base: NodeJS.ProcessEnv = { ...process.env, PORTAL_QUIET_LOG: "1", NODE_ENV: "production", SESSION_SECRET: STRONG };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "serve", "--host", "127.0.0.1", "--port", String(port), ...args], {
    cwd: ROOT,
    env: base,
    encoding: "utf8",
    timeout: 25_000,
    killSignal: "SIGKILL",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function migrated(name: string): string {
  const file = join(dir, name);
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", "db", "migrate"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `file:${file}` },
    encoding: "utf8",
  });
  expect(r.status, r.stderr).toBe(0);
  return file;
}

describe("portal serve", () => {
  it("refuses to start on a database file it cannot write, with one line and exit 1", async () => {
    const file = migrated("readonly.db");
    chmodSync(file, 0o444);
    // Root writes a 0444 file anyway; the immutable flag stops it. A file system without
    // the flag (some container overlays) cannot make a file root cannot write: say so.
    if (process.getuid?.() === 0 && spawnSync("chattr", ["+i", file]).status !== 0) {
      console.warn("chattr +i is not supported on this file system: the read-only start is not tested here");
      return;
    }
    const r = serve({ DATABASE_URL: `file:${file}` }, await freePort());
    expect(r.stderr).toMatch(/^portal: Databasen .*readonly\.db går inte att skriva i \(SQLITE_READONLY: attempt to write a readonly database\); servern startar inte\.\n$/);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("Returportalen: http://");
  });

  it.each([
    [{ SESSION_SECRET: undefined }, /^portal: SESSION_SECRET saknas: i drift \(NODE_ENV=production\) krävs/],
    [{ SESSION_SECRET: "e2e-secret-not-for-production" }, /^portal: SESSION_SECRET är för svag \(29 tecken\)/],
    [{ SESSION_SECRET: "<long random string, the same everywhere>" }, /^portal: SESSION_SECRET är ett känt demovärde/],
    [{ DATABASE_URL: "postgres://localhost/portal" }, /^portal: DATABASE_URL "postgres:\/\/localhost\/portal" har ett okänt schema/],
    [{ TRUST_PROXY: "yes" }, /^portal: TRUST_PROXY "yes" går inte att tolka/],
  ] as const)("stops a production start on %o with one line and exit 1", async (env, message) => {
    const file = join(dir, `config-${Math.random().toString(36).slice(2)}.db`);
    const r = serve({ DATABASE_URL: `file:${file}`, ...env }, await freePort());
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.code).toBe(1);
    // Nothing was opened or created.
    expect(existsSync(file)).toBe(false);
  });

  it("still starts the npm start demo (serve --setup) without SESSION_SECRET, and says it uses a random one", async () => {
    const file = join(dir, "demo.db");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORTAL_QUIET_LOG: "1", NODE_ENV: "production", DATABASE_URL: `file:${file}`, PORTAL_MAINTENANCE: "off" };
    delete env.SESSION_SECRET;
    const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "serve", "--setup", "--host", "127.0.0.1", "--port", String(port)], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += String(d)));
    try {
      let status = 0;
      for (let i = 0; i < 300 && status !== 200 && child.exitCode === null; i++) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status, stderr).toBe(200);
      expect(stderr).toContain("SESSION_SECRET saknas; demoservern (--setup) använder en slumpad");
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
    }
  });
});
