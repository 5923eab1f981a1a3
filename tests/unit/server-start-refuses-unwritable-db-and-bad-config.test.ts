// `portal serve` as a real process: it refuses to start on a database it cannot write
// (before, it started and failed every save), on a bad configuration and on a database
// whose staff still have a published demo password, with one line that says why and a
// non-zero exit. A production start on an empty database hands out no account; only the
// explicit demo (`serve --demo`, `npm start`) fills it, with logins printed once.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openDb } from "../../db/client";
import { createStaff } from "../../cli/seed/factories";
import { SELLER_ENV } from "../production-env";
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
  const base: NodeJS.ProcessEnv = { ...process.env, PORTAL_QUIET_LOG: "1", NODE_ENV: "production", SESSION_SECRET: STRONG, PORTAL_URL: "https://retur.example.se", ...SELLER_ENV };
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
    [{ PORTAL_URL: undefined }, /^portal: PORTAL_URL saknas: i drift krävs portalens publika adress/],
    [{ SELLER_ORG_NUMBER: undefined }, /^portal: Säljarens uppgifter för fakturorna saknas: SELLER_ORG_NUMBER/],
    // Read elsewhere with a silent default before: 100 wrong logins per network, a 4 s wait.
    [{ THROTTLE_IP_LIMIT: "abc" }, /^portal: THROTTLE_IP_LIMIT ska vara ett heltal från 1 till 1000000 \(utan värde: 100\)\.\n$/],
    [{ PORTAL_WRITE_WAIT_MS: "0" }, /^portal: PORTAL_WRITE_WAIT_MS ska vara ett heltal millisekunder från 1 till 60000/],
  ] as const)("stops a production start on %o with one line and exit 1", async (env, message) => {
    const file = join(dir, `config-${Math.random().toString(36).slice(2)}.db`);
    const r = serve({ DATABASE_URL: `file:${file}`, ...env }, await freePort());
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.code).toBe(1);
    // Nothing was opened or created.
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a production start while a staff account still has a published demo password", async () => {
    const file = migrated("published.db");
    const conn = openDb(`file:${file}`);
    const admin = await createStaff(conn, { email: "admin@returportalen.example", name: "Anna Admin", password: "demo-admin-2026", roles: "admin", totpSecret: null });
    conn.$client.close();
    const r = serve({ DATABASE_URL: `file:${file}` }, await freePort());
    expect(r.stderr).toBe(
      "portal: admin@returportalen.example har fortfarande demolösenordet som stått i README; servern startar inte i drift. Byt det med portal staff set-password admin@returportalen.example, eller stäng av kontot.\n",
    );
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("Returportalen: http://");
    expect(admin.id).toBeGreaterThan(0);
  });

  it("starts production on an empty database without creating a single account", async () => {
    const file = join(dir, "empty-production.db");
    const s = await startServe({ DATABASE_URL: `file:${file}`, SESSION_SECRET: STRONG, PORTAL_URL: "https://retur.example.se", ...SELLER_ENV }, []);
    try {
      expect(s.stdout()).not.toMatch(/Demo|pinkod|lösenord/i);
      // The logins of every earlier demo find nobody.
      // (Staff on their own page, a shop in the retailers' box.)
      for (const [path, form] of [
        ["/personal/logga-in", { epost: "admin@returportalen.example", losenord: "demo-admin-2026" }],
        ["/login", { kundnummer: "1001", pinkod: "1234" }],
      ] as const) {
        const login = await fetch(`http://127.0.0.1:${s.port}${path}`, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
        expect(login.status).toBe(400);
      }
      // Kept-alive connections outlive a client's or balancer's idle timer (Node's 5 s made
      // a reused connection die with ECONNRESET in CI).
      const health = await fetch(`http://127.0.0.1:${s.port}/healthz`);
      expect(health.headers.get("keep-alive")).toBe("timeout=65");
      const conn = openDb(`file:${file}`);
      const counts = await conn.$client.execute("select (select count(*) from staff_users) staff, (select count(*) from customers) customers");
      conn.$client.close();
      expect(counts.rows[0]).toMatchObject({ staff: 0, customers: 0 });
    } finally {
      await s.stop();
    }
  });

  it("starts the npm start demo (serve --demo) without SESSION_SECRET, with new logins printed once", async () => {
    const file = join(dir, "demo.db");
    const first = await startServe({ DATABASE_URL: `file:${file}` }, ["--demo"]);
    let printed: RegExpMatchArray | null;
    try {
      expect(first.stderr()).toContain("portal: DEMO (--demo): påhittade kunder och personal, inte för riktiga returer.");
      expect(first.stderr()).toContain("SESSION_SECRET saknas; demon använder en slumpad");
      printed = /kundnummer 1001–1040, pinkod (\d{6})[\s\S]*admin@returportalen\.example \/ (\S{16}) /.exec(first.stdout());
      expect(printed, first.stdout()).not.toBeNull();
      expect(first.stdout()).not.toMatch(/demo-admin-2026|pinkod 1234\b/);
      // The printed PIN logs in; the published one does not.
      const login = (pin: string) =>
        fetch(`http://127.0.0.1:${first.port}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: "1001", pinkod: pin }), redirect: "manual" }).then((r) => r.status);
      expect(await login(printed![1])).toBe(302);
      expect(await login("1234")).toBe(400);
      expect((await fetch(`http://127.0.0.1:${first.port}/readyz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
    // Started again on the filled database: nothing new, nothing printed again.
    const second = await startServe({ DATABASE_URL: `file:${file}` }, ["--demo"]);
    try {
      expect(second.stdout()).toContain("Databasen har redan data; demoinloggningarna skrevs ut när den fylldes.");
      expect(second.stdout()).not.toContain(printed![2]);
    } finally {
      await second.stop();
    }
  });
});

/** `portal serve ARGS` in production as a child process, once it answers /healthz. */
async function startServe(env: Record<string, string>, args: string[]) {
  const port = await freePort();
  const full: NodeJS.ProcessEnv = { ...process.env, PORTAL_QUIET_LOG: "1", NODE_ENV: "production", MAINTENANCE_AT: "off", REMIND_AT: "off", ...env };
  if (!("SESSION_SECRET" in env)) delete full.SESSION_SECRET;
  if (!("PORTAL_URL" in env)) delete full.PORTAL_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "serve", ...args, "--host", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: full,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += String(d)));
  child.stderr.on("data", (d) => (stderr += String(d)));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
  };
  let status = 0;
  for (let i = 0; i < 300 && status !== 200 && child.exitCode === null; i++) {
    status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  if (status !== 200) {
    await stop();
    throw new Error(`portal serve did not start: ${stderr}`);
  }
  return { port, stdout: () => stdout, stderr: () => stderr, stop };
}
