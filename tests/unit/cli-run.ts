// Runs the real `portal` CLI as a child process against this test file's database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type CliResult = { code: number | null; stdout: string; stderr: string };

function env(extra: Record<string, string> = {}) {
  return { ...process.env, PORTAL_TODAY: "2026-03-10", ...extra };
}

export function cli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], {
    cwd: ROOT,
    input: opts.input,
    env: env(opts.env),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function cliSpawn(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], { cwd: ROOT, env: env(), stdio: "ignore" });
}

export function dbFile(): string {
  return process.env.DATABASE_URL!.slice("file:".length);
}
