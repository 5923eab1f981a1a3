// Runs the `portal` CLI against this test file's database: in-process through
// runPortal (cli/program.ts) for almost every test, and as a real child process for the
// few that prove what only a process shows (exit codes, stdin, a kill).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { runPortal } from "../../cli/program";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export type CliResult = { code: number | null; stdout: string; stderr: string };

/** The date the CLI runs on in tests (fixed, so fixtures keep their meaning). */
const CLI_ENV = { PORTAL_TODAY: "2026-03-10" };

/**
 * `portal ARGS` in this process: the same program, the same database connection as the
 * test, standard input from `input`; answers the exit code and what was written.
 */
export async function portal(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env: Record<string, string> = { ...CLI_ENV, ...opts.env };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const code = await runPortal(args, {
      stdin: Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]),
      stdout: { write: (text: string) => stdout.push(text) },
      stderr: { write: (text: string) => stderr.push(text), isTTY: false },
    });
    return { code, stdout: stdout.join(""), stderr: stderr.join("") };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

function env(extra: Record<string, string> = {}) {
  return { ...process.env, ...CLI_ENV, ...extra };
}

/** `portal ARGS` as a real child process (tsx), waited for. */
export function spawnCli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], {
    cwd: ROOT,
    input: opts.input,
    env: env(opts.env),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `portal ARGS` as a real child process, not waited for (to kill it). */
export function spawnCliChild(args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", ...args], { cwd: ROOT, env: env(), stdio: "ignore" });
}

export function dbFile(): string {
  return process.env.DATABASE_URL!.slice("file:".length);
}
