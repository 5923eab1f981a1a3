// After the whole run: no error line in the shared server's log, from any test (the
// request-level specs use no fixtures, so their errors are caught here).
import { existsSync } from "node:fs";
import { SERVER_LOG, serverErrorsSince } from "./server-log";

export default async function globalTeardown() {
  // The log is written from the server's start (tests/playwright.config.ts): without it the
  // check would be off without a word.
  if (!existsSync(SERVER_LOG)) throw new Error(`${SERVER_LOG} is missing: the server's errors were not read`);
  const errors = serverErrorsSince(0);
  if (errors.length > 0) throw new Error(`the e2e server logged ${errors.length} error line(s):\n${errors.slice(0, 20).join("\n")}`);
}
