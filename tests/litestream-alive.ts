// Whether a Litestream the replicator started still runs. A process id alone does not
// say: this machine hands out at most 32768 of them, and a test run that starts browsers
// and servers by the hundred gives a finished Litestream's id to another process within
// minutes. Where /proc exists the id counts only while it names a Litestream.
import { readFileSync } from "node:fs";

export function litestreamAlive(pid: number): boolean {
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    // No /proc (not Linux): only whether the id is in use.
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  return command.split("\0").some((part) => /(^|\/)litestream$/.test(part));
}
