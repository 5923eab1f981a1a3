// Date ranges for the staff monitoring screens: presets, and the spec's validation
// of the range picker ('Måste ha ett värde', 'Felaktig period'; one date = start and end).
import { addDays, addMonths, daysBetween, endOfMonth, isoWeekday, isValidDate, startOfMonth } from "./dates";

export type Period = { from: string; to: string };
// The spec's four (today, last7days, lastmonth, thismonth) and the week a distribution
// office works in: yesterday, this week, last week (ISO weeks, Monday to Sunday).
export type PresetId = "idag" | "igar" | "dennavecka" | "forraveckan" | "senaste7" | "dennamanad" | "forramanaden";

export const PRESET_LABELS: Record<PresetId, string> = {
  idag: "Idag",
  igar: "Igår",
  dennavecka: "Denna vecka",
  forraveckan: "Förra veckan",
  senaste7: "Senaste 7 dagarna",
  dennamanad: "Denna månad",
  forramanaden: "Förra månaden",
};

export function preset(id: PresetId, today: string): Period {
  const monday = addDays(today, 1 - isoWeekday(today));
  switch (id) {
    case "idag":
      return { from: today, to: today };
    case "igar":
      return { from: addDays(today, -1), to: addDays(today, -1) };
    case "dennavecka":
      // As "Denna månad": the days still to come have no deliveries.
      return { from: monday, to: today };
    case "forraveckan":
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case "senaste7":
      return { from: addDays(today, -6), to: today };
    case "forramanaden": {
      const from = startOfMonth(addMonths(startOfMonth(today), -1));
      return { from, to: endOfMonth(from) };
    }
    case "dennamanad":
      // The days still to come have no deliveries; the range stops today.
      return { from: startOfMonth(today), to: today };
  }
}

// Decision: a range is at most 93 days, so one request never aggregates more than
// a quarter of the national delivery rows.
export const MAX_PERIOD_DAYS = 93;

export type PeriodResult = { period: Period; errors?: undefined } | { period?: undefined; errors: { from?: string; to?: string } };

export function parsePeriod(fromText: string | null | undefined, toText: string | null | undefined): PeriodResult {
  const from = (fromText ?? "").trim();
  let to = (toText ?? "").trim();
  if (!from) return { errors: { from: "Måste ha ett värde" } };
  if (!isValidDate(from)) return { errors: { from: "Felaktig period" } };
  if (!to) to = from;
  if (!isValidDate(to) || from > to) return { errors: { to: "Felaktig period" } };
  if (daysBetween(from, to) >= MAX_PERIOD_DAYS) return { errors: { to: `Felaktig period (högst ${MAX_PERIOD_DAYS} dagar)` } };
  return { period: { from, to } };
}

/**
 * The range picker's period as the URL gives it (`param.period`, app/lib/search-params.ts),
 * checked; when the URL names none, the screen's default. `raw` is what the picker shows again.
 */
export function checkedPeriod(asked: Period | null, defaults: Period): PeriodResult & { raw: Period } {
  const raw = asked ?? defaults;
  return { raw, ...parsePeriod(raw.from, raw.to) };
}

/** Every date of the period, oldest first. */
export function datesOf(period: Period): string[] {
  const out: string[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) out.push(d);
  return out;
}
