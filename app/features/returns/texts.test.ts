// The start page's words for the day's work.
import { describe, expect, it } from "vitest";
import { dayWord, reportButtonText } from "./texts";

describe("the start page's way to the returns form", () => {
  it("says a last return day as a newsagent says it", () => {
    expect(dayWord("2026-11-26", "2026-11-26")).toBe("i dag");
    expect(dayWord("2026-11-27", "2026-11-26")).toBe("i morgon");
    expect(dayWord("2026-11-28", "2026-11-26")).toBe("lör 28/11");
    // Across a month and a year, and the day summer time ends.
    expect(dayWord("2027-01-01", "2026-12-31")).toBe("i morgon");
    expect(dayWord("2026-10-25", "2026-10-23")).toBe("sön 25/10");
  });

  it("counts papers in Swedish", () => {
    expect(reportButtonText(1)).toBe("Rapportera returer – 1 tidning");
    expect(reportButtonText(8)).toBe("Rapportera returer – 8 tidningar");
  });
});
