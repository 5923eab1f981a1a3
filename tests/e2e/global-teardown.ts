// After the whole run: no error line in the shared server's log, from any test (the
// request-level specs use no fixtures, so their errors are caught here).
import { existsSync, readFileSync } from "node:fs";

export default async function globalTeardown() {
  const log = `tests/.tmp/e2e-${process.env.E2E_PORT || 3100}.log`;
  // The log is written from the server's start (tests/playwright.config.ts): without it the
  // check would be off without a word.
  if (!existsSync(log)) throw new Error(`${log} is missing: the server's errors were not read`);
  const errors = readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"level":"error"'));
  if (errors.length > 0) throw new Error(`the e2e server logged ${errors.length} error line(s):\n${errors.slice(0, 20).join("\n")}`);
}
