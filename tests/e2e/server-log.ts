// The shared e2e server's log (tests/playwright.config.ts tees its output here), read the
// same way by the fixture that fails a test on an error line, by the global teardown and by
// server-log.http.spec.ts.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";

export const SERVER_LOG = `tests/.tmp/e2e-${process.env.E2E_PORT || 3100}.log`;

const isError = (line: string) => line.includes('"level":"error"');

/** The log's size now: where a later `serverErrorsSince` starts reading. 0 when there is none yet. */
export function logSize(): number {
  return existsSync(SERVER_LOG) ? statSync(SERVER_LOG).size : 0;
}

/** The error lines written after byte `from` (all of them from 0). */
export function serverErrorsSince(from = 0): string[] {
  const size = logSize();
  if (size <= from) return [];
  const fd = openSync(SERVER_LOG, "r");
  try {
    const bytes = Buffer.alloc(size - from);
    readSync(fd, bytes, 0, bytes.length, from);
    return bytes.toString("utf8").split("\n").filter(isError);
  } finally {
    closeSync(fd);
  }
}
