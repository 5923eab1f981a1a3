// The server's daily reminder time (REMIND_AT) is Stockholm's clock, winter and summer.
import { describe, expect, it } from "vitest";
import { msUntilStockholm } from "../../cli/serve";

const H = 3_600_000;

describe("msUntilStockholm", () => {
  it("counts to the next HH:MM in Stockholm, in winter (UTC+1) and summer (UTC+2) time", () => {
    expect(msUntilStockholm("07:00", new Date("2027-01-15T05:00:00Z"))).toBe(1 * H);
    expect(msUntilStockholm("07:00", new Date("2027-07-15T05:30:00Z"))).toBe(23.5 * H);
    expect(msUntilStockholm("07:00", new Date("2027-07-15T04:59:30.250Z"))).toBe(29_750);
  });

  it("waits a whole day when the time is now", () => {
    expect(msUntilStockholm("07:00", new Date("2027-01-15T06:00:00Z"))).toBe(24 * H);
  });
});
