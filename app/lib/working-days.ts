// Swedish working days: not a Saturday or Sunday, and not a public holiday (lag (1989:253)
// om allmänna helgdagar), nor midsommarafton, julafton or nyårsafton, which the trade and
// the banks keep closed.

/** Easter Sunday of a year (the Gregorian computus, Meeus/Jones/Butcher). */
function easter(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function shift(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The first date from `from` (inclusive) that falls on ISO weekday `weekday` (1 = Monday). */
function firstWeekday(from: string, weekday: number): string {
  const wd = new Date(`${from}T00:00:00Z`).getUTCDay() || 7;
  return shift(from, (weekday - wd + 7) % 7);
}

const cache = new Map<number, Set<string>>();

/** The year's days off that are not weekends by themselves, as dates. */
export function swedishHolidays(year: number): Set<string> {
  let days = cache.get(year);
  if (days) return days;
  const e = easter(year);
  const y = String(year);
  days = new Set([
    `${y}-01-01`, // Nyårsdagen
    `${y}-01-06`, // Trettondedag jul
    shift(e, -2), // Långfredagen
    e, // Påskdagen
    shift(e, 1), // Annandag påsk
    `${y}-05-01`, // Första maj
    shift(e, 39), // Kristi himmelsfärds dag
    shift(e, 49), // Pingstdagen
    `${y}-06-06`, // Sveriges nationaldag
    firstWeekday(`${y}-06-19`, 5), // Midsommarafton
    firstWeekday(`${y}-06-20`, 6), // Midsommardagen
    firstWeekday(`${y}-10-31`, 6), // Alla helgons dag
    `${y}-12-24`, // Julafton
    `${y}-12-25`, // Juldagen
    `${y}-12-26`, // Annandag jul
    `${y}-12-31`, // Nyårsafton
  ]);
  cache.set(year, days);
  return days;
}

export function isWorkingDay(date: string): boolean {
  const wd = new Date(`${date}T00:00:00Z`).getUTCDay();
  return wd !== 0 && wd !== 6 && !swedishHolidays(Number(date.slice(0, 4))).has(date);
}

/** The date `n` working days after `date` (the days after it, not counting it). */
export function addWorkingDays(date: string, n: number): string {
  let d = date;
  for (let left = n; left > 0; ) {
    d = shift(d, 1);
    if (isWorkingDay(d)) left--;
  }
  return d;
}

/** The date `n` working days before `date` (the days before it, not counting it). */
export function subtractWorkingDays(date: string, n: number): string {
  let d = date;
  for (let left = n; left > 0; ) {
    d = shift(d, -1);
    if (isWorkingDay(d)) left--;
  }
  return d;
}
