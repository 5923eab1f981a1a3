// Small helpers shared by the CLI commands, and the CLI's input and output. Every
// command reads and writes through a CliIo, never process.stdin/stdout/stderr itself,
// so the tests run the same program in-process (tests/unit/cli-run.ts).
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { CommanderError } from "commander";
import type { ZodType, output } from "zod";
import { decodeTextFile } from "../app/lib/csv.server";
import { refuse } from "../app/lib/refusal";

/** Where a command reads standard input and writes its output and its problems. */
export type CliStreams = {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown; isTTY?: boolean };
};

export type CliIo = Required<CliStreams> & {
  /** One line to standard out. */
  out(line: string): void;
  /** One line to standard error. */
  err(line: string): void;
};

export function cliIo(streams: CliStreams = {}): CliIo {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const stderr = streams.stderr ?? process.stderr;
  return { stdin, stdout, stderr, out: (line) => void stdout.write(`${line}\n`), err: (line) => void stderr.write(`${line}\n`) };
}

/** The code of the usage errors our own checks raise (commander's own start with "commander."). */
export const USAGE = "portal.usage";

/**
 * A usage error: the command line itself is wrong. Commander's own error type, so a wrong
 * argument found in an action exits 2 exactly like one commander finds while parsing.
 */
export function usage(message: string): CommanderError {
  return new CommanderError(2, USAGE, message);
}

/** Reads all of standard input (for --pin-stdin and FILE "-"). */
export async function readStdin(io: CliIo): Promise<string> {
  return (await readStdinBytes(io)).toString("utf8");
}

async function readStdinBytes(io: CliIo): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A file's bytes (or standard in's, for `-`), for files whose encoding is detected. */
export async function readInputBytes(io: CliIo, file: string): Promise<Uint8Array> {
  if (file === "-") return readStdinBytes(io);
  const { readFile } = await import("node:fs/promises");
  try {
    return await readFile(file);
  } catch (e) {
    throw refuse.invalid(`Kan inte läsa ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Asks on the terminal without echoing what is typed. */
export async function promptSecret(io: CliIo, question: string): Promise<string> {
  if (!io.stdin.isTTY) throw usage("Ingen terminal att fråga på: använd --pin-stdin / --password-stdin.");
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, cb) {
      if (!muted) io.stderr.write(String(chunk));
      cb();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      io.stderr.write("\n");
      resolve(answer);
    });
    muted = true;
  });
}

export async function readSecret(io: CliIo, fromStdin: boolean, question: string): Promise<string> {
  return fromStdin ? (await readStdin(io)).split(/\r?\n/)[0] : promptSecret(io, question);
}

export function parseIntArg(value: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw usage(`${name} ska vara ett heltal (${min}–${max}).`);
  const n = Number(value);
  if (n < min || n > max) throw usage(`${name} ska vara ett heltal (${min}–${max}).`);
  return n;
}

/**
 * A file's text, or standard input's for "-", decoded as every import is (decodeTextFile):
 * UTF-8 with or without a BOM, else Windows-1252 (Excel's "CSV (semikolonavgränsad)" on a
 * Swedish Windows), so no letter is ever stored as U+FFFD. A binary file is refused. Missing
 * files are a failure (exit 1), not usage.
 */
export async function readInputFile(io: CliIo, file: string): Promise<string> {
  const decoded = decodeTextFile(await readInputBytes(io, file));
  if (!decoded) throw refuse.invalid(`${file === "-" ? "Standard in" : file} är ingen textfil: spara den som CSV (semikolonavgränsad).`);
  return decoded.text;
}

export function parseDateArg(value: string, name: string): string {
  const d = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw usage(`${name} ska vara ett datum ÅÅÅÅ-MM-DD.`);
  }
  return value;
}

/** --from and --to as a period: both valid dates, --from not after --to. */
export function parsePeriodArgs(opts: { from: string; to: string }): { from: string; to: string } {
  const from = parseDateArg(opts.from, "--from");
  const to = parseDateArg(opts.to, "--to");
  if (from > to) throw usage("--from ligger efter --to.");
  return { from, to };
}

/**
 * Command-line options checked by the screen's own form schema: the same rules and words as
 * the form, each message after the option it is about ("--zip: Postnumret är fem siffror…").
 * `flags` names the option of each form field. Refused as invalid input (exit 1).
 */
export function checkedOptions<S extends ZodType>(schema: S, values: Record<string, unknown>, flags: Record<string, string>): output<S> {
  const r = schema.safeParse(values);
  if (r.success) return r.data;
  const lines = r.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? "");
    return `${flags[field] ?? field}: ${issue.message}`;
  });
  throw refuse.invalid([...new Set(lines)].join(" "));
}
