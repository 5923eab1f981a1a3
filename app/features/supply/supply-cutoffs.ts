// When a change starts (decision 037), in Stockholm time: a weekday change sent by the
// week's cut-off (by default Wednesday 15:00) starts the Monday after; later, the Monday
// after that. A one-off change closes at a time some working days before its date (by
// default 12:00 two working days before; Swedish public holidays are not working days).
import { config } from "~/config.server";
import { addDays, isoWeekday, stockholmDate, stockholmMoment } from "~/lib/dates";
import { subtractWorkingDays } from "~/lib/working-days";
import type { SupplyCutoffs } from "~/config.server";

export type { SupplyCutoffs };

export const DEFAULT_SUPPLY_CUTOFFS: SupplyCutoffs = { weekday: 3, weekdayTime: "15:00", oneOffDays: 2, oneOffTime: "12:00" };

/** The cut-off for the week that starts on `monday`: in the week before it. */
export function weekCutoff(monday: string, c: SupplyCutoffs): number {
  return stockholmMoment(addDays(monday, -7 + c.weekday - 1), c.weekdayTime);
}

/** The start (a Monday) of a weekday change sent at `now`, and the cut-off it met. */
export function weekdayStart(now: number, c: SupplyCutoffs = config.supplyCutoffs): { startDate: string; cutoffAt: number } {
  const date = stockholmDate(now);
  let monday = addDays(date, 8 - isoWeekday(date));
  while (weekCutoff(monday, c) < now) monday = addDays(monday, 7);
  return { startDate: monday, cutoffAt: weekCutoff(monday, c) };
}

/** The last moment a one-off change for `date` may be sent. */
export function oneOffCutoff(date: string, c: SupplyCutoffs): number {
  return stockholmMoment(subtractWorkingDays(date, c.oneOffDays), c.oneOffTime);
}
