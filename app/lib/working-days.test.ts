import { describe, expect, it } from "vitest";
import { addWorkingDays, isWorkingDay, swedishHolidays } from "./working-days";

describe("Swedish working days", () => {
  it("knows the moving holidays of 2026 and 2027", () => {
    const y2026 = swedishHolidays(2026);
    // Easter 2026 is 5 April: Långfredag 3 April, Annandag påsk 6 April, Kristi himmelsfärd 14 May, Pingst 24 May.
    for (const d of ["2026-04-03", "2026-04-05", "2026-04-06", "2026-05-14", "2026-05-24", "2026-06-19", "2026-06-20", "2026-10-31"]) expect(y2026.has(d), d).toBe(true);
    // Easter 2027 is 28 March; midsommarafton 25 June; Alla helgons dag 6 November.
    for (const d of ["2027-03-26", "2027-03-29", "2027-05-06", "2027-06-25", "2027-11-06"]) expect(swedishHolidays(2027).has(d), d).toBe(true);
  });

  it("counts over weekends and holidays", () => {
    expect(isWorkingDay("2026-11-27")).toBe(true); // a Friday
    expect(isWorkingDay("2026-11-28")).toBe(false); // a Saturday
    expect(addWorkingDays("2026-11-26", 2)).toBe("2026-11-30"); // Thursday + 2: Friday, Monday
    expect(addWorkingDays("2026-12-23", 2)).toBe("2026-12-29"); // past julafton, juldagen, annandag and the weekend
    expect(addWorkingDays("2026-04-02", 1)).toBe("2026-04-07"); // Skärtorsdag + 1: past Easter
  });
});
