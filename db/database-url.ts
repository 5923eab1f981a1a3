// The database's own settings (README, Configuration): which DATABASE_URL the libSQL
// client is used with, and how long a write waits for a lock (PORTAL_WRITE_WAIT_MS).
// db/ reads them itself (it imports nothing from app/); readConfig checks the same values
// with these same functions at start, so a bad value stops `portal serve` with this line.
import { resolve } from "node:path";
import { settingProblem } from "./setting-problem";

/** The database URL schemes the libSQL client is used with. */
export function databaseUrlProblem(url: string): string | undefined {
  if (url === ":memory:" || /^(file|libsql|https?):/i.test(url)) return undefined;
  return `DATABASE_URL ${JSON.stringify(url.length > 60 ? url.slice(0, 60) + "…" : url)} har ett okänt schema; använd file:, libsql:, http:, https: eller :memory:.`;
}

/** The local file behind a `file:` URL, as an absolute path, or undefined (remote, or in memory). */
export function databaseFile(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const path = url.slice("file:".length).split("?")[0];
  return path && path !== ":memory:" ? resolve(path) : undefined;
}

/** How long a write waits for a database another process holds when PORTAL_WRITE_WAIT_MS is unset. */
export const WRITE_WAIT_DEFAULT_MS = 4_000;

/** What is wrong with a PORTAL_WRITE_WAIT_MS value (whole milliseconds, 1 to 60000), or undefined. */
export function writeWaitProblem(value: string | undefined): string | undefined {
  const v = (value ?? "").trim();
  if (v === "" || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 60_000)) return undefined;
  return `PORTAL_WRITE_WAIT_MS ska vara ett heltal millisekunder från 1 till 60000 (utan värde: ${WRITE_WAIT_DEFAULT_MS}).`;
}

/** PORTAL_WRITE_WAIT_MS in milliseconds; a bad value is an error, never the default. */
export function writeWaitMsOf(value: string | undefined): number {
  const problem = writeWaitProblem(value);
  if (problem) throw settingProblem(problem);
  return (value ?? "").trim() === "" ? WRITE_WAIT_DEFAULT_MS : Number(value);
}
