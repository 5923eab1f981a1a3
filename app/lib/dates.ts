// Calendar helpers. Delivery dates are `YYYY-MM-DD` local dates in Europe/Stockholm;
// arithmetic is done on UTC midnight so no daylight-saving hour can shift a day.
import { portalNow } from "../../db/clock";

/** The portal's one time zone: dates, deadlines and the daily jobs follow Stockholm's clock. */
export const STOCKHOLM_ZONE = "Europe/Stockholm";

const stockholm = new Intl.DateTimeFormat("sv-SE", {
  timeZone: STOCKHOLM_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

const stockholmClock = new Intl.DateTimeFormat("sv-SE", { timeZone: STOCKHOLM_ZONE, dateStyle: "short", timeStyle: "medium" });

/** A moment (ms) as staff read it: "2026-03-29 02:30:00" in Stockholm time, summer time or not. */
export function stockholmTime(ms: number): string {
  return stockholmClock.format(new Date(ms));
}

/** The Stockholm date of a moment ("2026-10-25"), whatever PORTAL_TODAY says. */
export function stockholmDate(moment: Date | number): string {
  return stockholm.format(moment);
}

/**
 * A moment's Stockholm wall-clock time as a Date whose UTC fields read it (for files
 * without time zones, such as Excel's): 2026-07-01T10:00Z becomes 2026-07-01T12:00Z.
 */
export function stockholmWallClock(moment: Date | number): Date {
  return new Date(`${stockholmClock.format(moment).replace(" ", "T")}Z`);
}

/** Midnight at the start of a Stockholm date, as epoch ms (that day's offset, summer time or not). */
export function stockholmMidnight(date: string): number {
  return stockholmMoment(date, "00:00");
}

/** A Stockholm wall-clock time ("12:00") on a date, as epoch ms, summer time or not. */
export function stockholmMoment(date: string, time: string): number {
  const utc = Date.parse(`${date}T${time}:00Z`);
  // The offset at the guess is the moment's offset (Stockholm's clock changes at 02:00/03:00).
  const offset = (at: number) => stockholmWallClock(at).getTime() - at;
  return utc - offset(utc - offset(utc));
}

// A page asks for today several times; Intl formatting is the slow part, and the
// answer cannot change within one second.
let lastSecond = Number.NaN;
let lastDay = "";

/**
 * Today's date in Stockholm, or PORTAL_TODAY when set (demo and tests of fixed data). Read
 * here because this module also runs in the browser; readConfig refuses a PORTAL_TODAY
 * that is not a real date at start, so a bad one never runs as "ignored".
 */
export function today(now: Date = new Date(portalNow())): string {
  const fixed = typeof process !== "undefined" ? process.env.PORTAL_TODAY?.trim() : undefined;
  if (fixed && /^\d{4}-\d{2}-\d{2}$/.test(fixed)) return fixed;
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastSecond) {
    lastDay = stockholm.format(now);
    lastSecond = second;
  }
  return lastDay;
}

export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isValidDate(s: string): boolean {
  if (!ISO_DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function addMonths(date: string, months: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
  return wd === 0 ? 7 : wd;
}

export function isoWeek(date: string): { year: number; week: number } {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 4 - isoWeekday(date));
  const year = d.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  const week = Math.ceil(((d.getTime() - jan1) / 86_400_000 + 1) / 7);
  return { year, week };
}

/** The Monday after `date` (a Monday gives the next week's Monday). */
export function nextMonday(date: string): string {
  return addDays(date, 8 - isoWeekday(date));
}

export function startOfMonth(date: string): string {
  return `${date.slice(0, 8)}01`;
}

export function endOfMonth(date: string): string {
  return addDays(addMonths(startOfMonth(date), 1), -1);
}

const longDate = new Intl.DateTimeFormat("sv-SE", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });

/** "måndag 23 november" */
export function formatLongDate(date: string): string {
  return longDate.format(new Date(`${date}T00:00:00Z`));
}
