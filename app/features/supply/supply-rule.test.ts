// The suggestion rule (decision 037) on made-up histories: steady sales, sold out, always
// returning half, a holiday week, too little evidence, and the limits of a move.
import { describe, expect, it } from "vitest";
import { addDays } from "~/lib/dates";
import { suggestSupply, usualDelivery, type SameWeekday } from "./supply-rule";
import { oneOffCutoff, weekdayStart } from "./supply-cutoffs";
import { stockholmTime } from "~/lib/dates";

/** Eight Saturdays back from 2026-11-21, each with [delivered, returned] (null: no delivery). */
function saturdays(days: ([number, number] | null)[]): SameWeekday[] {
  return days.flatMap((d, i) => (d === null ? [] : [{ date: addDays("2026-10-03", 7 * i), delivered: d[0], returned: d[1] }]));
}

describe("suggestSupply", () => {
  it("says nothing when sales are steady and some come back", () => {
    expect(suggestSupply(6, saturdays(Array.from({ length: 8 }, () => [10, 2] as [number, number])))).toBeNull();
  });

  it("suggests more when the paper sold out, in words", () => {
    const s = suggestSupply(6, saturdays([[10, 1], [10, 2], [10, 1], [10, 1], [10, 0], [10, 1], [10, 0], [10, 0]]));
    expect(s).toEqual({ copies: 12, reason: "Slutsålt 3 av de 8 senaste lördagarna: förslag 12 i stället för 10", soldOut: 3, days: 8 });
  });

  it("moves at most 2 copies or 20 % of the usual delivery, whichever is larger", () => {
    // Sold out every Saturday: demand 11 each and a margin of 3, but 12 at most.
    expect(suggestSupply(6, saturdays(Array.from({ length: 8 }, () => [10, 0] as [number, number])))?.copies).toBe(12);
    // 40 usual, only 10 sold: 20 % of 40 is 8, so 32, not 10.
    expect(suggestSupply(6, saturdays(Array.from({ length: 8 }, () => [40, 30] as [number, number])))?.copies).toBe(32);
    // 5 usual, 1 sold: the move is 2 (larger than 20 %), so 3.
    expect(suggestSupply(6, saturdays(Array.from({ length: 8 }, () => [5, 4] as [number, number])))?.copies).toBe(3);
  });

  it("suggests fewer when half always comes back, and says how many came back", () => {
    const s = suggestSupply(6, saturdays(Array.from({ length: 8 }, () => [10, 5] as [number, number])));
    expect(s).toEqual({ copies: 8, reason: "I snitt 5 ex i retur de 8 senaste lördagarna: förslag 8 i stället för 10", soldOut: 0, days: 8 });
  });

  it("never suggests 0", () => {
    expect(suggestSupply(2, saturdays(Array.from({ length: 8 }, () => [2, 2] as [number, number])))?.copies).toBe(1);
  });

  it("skips a holiday week without a delivery, and needs four same weekdays", () => {
    const holiday = saturdays([[10, 5], [10, 5], null, [10, 5], [10, 5], null, null, null]);
    expect(suggestSupply(6, holiday)?.reason).toBe("I snitt 5 ex i retur de 4 senaste lördagarna: förslag 8 i stället för 10");
    expect(suggestSupply(6, saturdays([[10, 5], [10, 5], null, [10, 5], null, null, null, null]))).toBeNull();
  });

  it("reads the usual delivery as the most common of the last four, the latest on a tie", () => {
    expect(usualDelivery(saturdays([[30, 0], [30, 0], [30, 0], [30, 0], [12, 0], [10, 0], [12, 0], [10, 0]]))).toBe(10);
    expect(usualDelivery(saturdays([[30, 0], [30, 0], [30, 0], [30, 0], [12, 0], [12, 0], [12, 0], [10, 0]]))).toBe(12);
    expect(usualDelivery([])).toBe(0);
  });
});

describe("cut-offs (Stockholm time)", () => {
  const c = { weekday: 3, weekdayTime: "15:00", oneOffDays: 2, oneOffTime: "12:00" };

  it("starts a weekday change the Monday after when sent by Wednesday 15:00, else the Monday after that", () => {
    // Wednesday 2026-12-02 14:59 in Stockholm (UTC+1).
    expect(weekdayStart(Date.parse("2026-12-02T13:59:00Z"), c).startDate).toBe("2026-12-07");
    expect(weekdayStart(Date.parse("2026-12-02T14:01:00Z"), c).startDate).toBe("2026-12-14");
    // Sunday evening counts to the week it ends.
    expect(weekdayStart(Date.parse("2026-12-06T20:00:00Z"), c).startDate).toBe("2026-12-14");
    // Summer time: Wednesday 2026-07-01 15:00 is 13:00 UTC.
    expect(weekdayStart(Date.parse("2026-07-01T12:59:00Z"), c).startDate).toBe("2026-07-06");
    expect(weekdayStart(Date.parse("2026-07-01T13:01:00Z"), c).startDate).toBe("2026-07-13");
  });

  it("closes a one-off change at 12:00 two working days before, public holidays not counted", () => {
    // Saturday 2026-12-12: Thursday the 10th.
    expect(stockholmTime(oneOffCutoff("2026-12-12", c))).toBe("2026-12-10 12:00:00");
    // Monday 2026-12-28: 24–26 December are not working days, so Tuesday the 22nd.
    expect(stockholmTime(oneOffCutoff("2026-12-28", c))).toBe("2026-12-22 12:00:00");
  });
});
