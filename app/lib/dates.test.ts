import { describe, expect, it } from "vitest";
import { addDays, addMonths, isValidDate, isoWeek, nextMonday, today } from "./dates";

describe("dates", () => {
  it("does calendar arithmetic across month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-29", -1)).toBe("2026-03-28");
    expect(addMonths("2026-03-31", -1)).toBe("2026-02-28");
  });
  it("numbers weeks the ISO way", () => {
    expect(isoWeek("2026-01-01")).toEqual({ year: 2026, week: 1 });
    expect(isoWeek("2027-01-01")).toEqual({ year: 2026, week: 53 });
    expect(isoWeek("2026-11-23")).toEqual({ year: 2026, week: 48 });
  });
  it("finds the next Monday", () => {
    expect(nextMonday("2026-11-22")).toBe("2026-11-23");
    expect(nextMonday("2026-11-23")).toBe("2026-11-30");
  });
  it("knows today in Stockholm to the second, in winter and summer time, in any order asked", () => {
    const day = (iso: string) => today(new Date(iso));
    expect(day("2026-11-22T22:59:59Z")).toBe("2026-11-22");
    expect(day("2026-11-22T23:00:00Z")).toBe("2026-11-23");
    expect(day("2026-11-22T22:59:59.999Z")).toBe("2026-11-22");
    expect(day("2026-06-30T21:59:59Z")).toBe("2026-06-30");
    expect(day("2026-06-30T22:00:00Z")).toBe("2026-07-01");
    expect(day("2026-06-30T22:00:00.500Z")).toBe("2026-07-01");
    expect(day("2026-11-22T22:59:59Z")).toBe("2026-11-22");
  });
  it("rejects impossible dates", () => {
    expect(isValidDate("2026-02-30")).toBe(false);
    expect(isValidDate("2026-02-28")).toBe(true);
    expect(isValidDate("28/02/2026")).toBe(false);
  });
});

describe("pageParam", () => {
  it("clamps any ?sida= to a page the database can serve", async () => {
    const { pageParam } = await import("./paging");
    expect(pageParam(null)).toBe(1);
    expect(pageParam("3")).toBe(3);
    expect(pageParam("-4")).toBe(1);
    expect(pageParam("abc")).toBe(1);
    expect(pageParam("2.7")).toBe(2);
    expect(pageParam("99999999999999999999999")).toBe(1_000_000);
    expect(pageParam("Infinity")).toBe(1);
  });
});
