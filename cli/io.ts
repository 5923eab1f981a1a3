// Small helpers shared by the CLI commands.
import { createInterface } from "node:readline";
import { Writable } from "node:stream";

export class UsageError extends Error {}

/** Reads all of standard input (for --pin-stdin and FILE "-"). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Asks on the terminal without echoing what is typed. */
export async function promptSecret(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError("Ingen terminal att fråga på: använd --pin-stdin / --password-stdin.");
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, cb) {
      if (!muted) process.stderr.write(chunk);
      cb();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

export async function readSecret(fromStdin: boolean, question: string): Promise<string> {
  return fromStdin ? (await readStdin()).split(/\r?\n/)[0] : promptSecret(question);
}

export function parseIntArg(value: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} ska vara ett heltal (${min}–${max}).`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${name} ska vara ett heltal (${min}–${max}).`);
  return n;
}

/** A file's text, or standard input for "-". Missing files are a failure (exit 1), not usage. */
export async function readInputFile(file: string): Promise<string> {
  if (file === "-") return readStdin();
  const { readFile } = await import("node:fs/promises");
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new Error(`Kan inte läsa ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export function parseDateArg(value: string, name: string): string {
  const d = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new UsageError(`${name} ska vara ett datum ÅÅÅÅ-MM-DD.`);
  }
  return value;
}

/** --from and --to as a period: both valid dates, --from not after --to. */
export function parsePeriodArgs(opts: { from: string; to: string }): { from: string; to: string } {
  const from = parseDateArg(opts.from, "--from");
  const to = parseDateArg(opts.to, "--to");
  if (from > to) throw new UsageError("--from ligger efter --to.");
  return { from, to };
}
