// Date ranges for the staff monitoring screens: presets, and the spec's validation
// of the range picker ('Måste ha ett värde', 'Felaktig period'; one date = start and end).
import { addDays, addMonths, daysBetween, endOfMonth, isValidDate, startOfMonth } from "./dates";

export type Period = { from: string; to: string };
export type PresetId = "idag" | "senaste7" | "forramanaden" | "dennamanad";

export const PRESET_LABELS: Record<PresetId, string> = {
  idag: "Idag",
  senaste7: "Senaste 7 dagarna",
  forramanaden: "Förra månaden",
  dennamanad: "Denna månad",
};

export function preset(id: PresetId, today: string): Period {
  switch (id) {
    case "idag":
      return { from: today, to: today };
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

/** Every date of the period, oldest first. */
export function datesOf(period: Period): string[] {
  const out: string[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1)) out.push(d);
  return out;
}
