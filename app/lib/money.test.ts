// VAT per rate (decision 030): over thousands of generated invoices, the VAT charged is the
// sum of the per-rate amounts printed, each rate's VAT is its base's, and a credit's VAT is
// the charge's with the sign turned.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { vatOnBase, vatPerRate } from "./money";

const line = fc.record({
  quantity: fc.integer({ min: -40, max: 999 }),
  unitPriceOre: fc.integer({ min: 1, max: 250_000 }),
  vatPermille: fc.constantFrom(0, 60, 120, 250),
});

describe("VAT per rate", () => {
  it("adds up to the öre on 5,000 generated invoices", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (raw) => {
        const lines = raw.map((l) => ({ ...l, netOre: l.quantity * l.unitPriceOre }));
        const rates = vatPerRate(lines);
        // One row per rate, its base the sum of its lines.
        expect(rates.map((r) => r.vatPermille)).toEqual([...new Set(lines.map((l) => l.vatPermille))].sort((a, b) => a - b));
        for (const r of rates) {
          expect(r.baseOre).toBe(lines.filter((l) => l.vatPermille === r.vatPermille).reduce((s, l) => s + l.netOre, 0));
          // Never more than half an öre from the exact VAT.
          expect(Math.abs(r.vatOre - (r.baseOre * r.vatPermille) / 1000)).toBeLessThanOrEqual(0.5);
        }
        // The charge and its credit note cancel to the öre.
        const credit = vatPerRate(lines.map((l) => ({ ...l, netOre: -l.netOre })));
        expect(credit.map((r) => r.vatOre)).toEqual(rates.map((r) => -r.vatOre + 0));
      }),
      { numRuns: 5000 },
    );
  });

  it("rounds half away from zero: 1 035,50 kr at 6 % is 62,13 kr, and a credit of it −62,13 kr", () => {
    expect(vatOnBase(103_550, 60)).toBe(6213);
    expect(vatOnBase(-103_550, 60)).toBe(-6213);
    expect(vatOnBase(-15_141, 60)).toBe(-908);
  });
});
