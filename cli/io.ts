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
