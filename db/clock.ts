// The portal's one clock. Every instant the portal stores or decides by (a session's age, a
// save's updated_at, the supply cut-offs, today's date in Stockholm) comes from `portalNow()`,
// never from Date.now() directly (ESLint refuses that in app/, cli/ and db/). It is the
// machine's clock, shifted by PORTAL_CLOCK_OFFSET_MS where that is set: the e2e run sets one
// offset for its server, the servers its tests start and the test workers, so the whole run
// lives at one Stockholm morning whatever the hour it is started at
// (docs/decisions/040-one-clock.md). A server whose clock is shifted says so when it starts.
// It lives in db/ because the schema's default timestamps read it too, and db/ imports
// nothing from app/. In the browser there is no offset: no page computes a date there.
// What is agreed with a clock outside (a TOTP code and the phone that makes it; Litestream's
// stamps, converted where they are read) keeps the machine's time.

import { settingProblem } from "./setting-problem";

const LIMIT_MS = 100 * 366 * 86_400_000;

/** What is wrong with a PORTAL_CLOCK_OFFSET_MS value (whole milliseconds, negative allowed), or undefined. */
export function clockOffsetProblem(value: string | undefined): string | undefined {
  const v = (value ?? "").trim();
  if (v === "" || (/^-?\d{1,13}$/.test(v) && Math.abs(Number(v)) <= LIMIT_MS)) return undefined;
  return "PORTAL_CLOCK_OFFSET_MS ska vara ett heltal millisekunder som portalens klocka går före (minus: efter) datorns, högst 100 år (bara för test och demo).";
}

let offset: number | undefined;

function readOffset(): number {
  const value = typeof process !== "undefined" ? process.env.PORTAL_CLOCK_OFFSET_MS : undefined;
  // A bad value never runs as "no offset": readConfig stops the server's start on it, and a
  // tool that reads the clock without readConfig stops here.
  const problem = clockOffsetProblem(value);
  if (problem) throw settingProblem(problem);
  return (value ?? "").trim() === "" ? 0 : Number(value);
}

/** How far the portal's clock runs ahead of the machine's, ms (negative: behind); 0 unless PORTAL_CLOCK_OFFSET_MS is set. */
export function clockOffset(): number {
  offset ??= readOffset();
  return offset;
}

/**
 * The machine's own clock, for what is agreed with the world outside the portal: a TOTP
 * code, which the staff member's phone computes from real time. Everything the portal
 * stores or decides by reads portalNow().
 */
export function machineNow(): number {
  return Date.now();
}

/** The portal's time, epoch milliseconds. */
export function portalNow(): number {
  offset ??= readOffset();
  // The one place the machine's clock is read (ESLint's clock rule leaves this file out).
  return Date.now() + offset;
}
