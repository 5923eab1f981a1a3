import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseId } from "./ids";

describe("parseId", () => {
  it("takes plain positive whole numbers and nothing else", () => {
    for (const bad of ["NaN", "1e309", "Infinity", "-1", "0", "-0", "0x1F", " 7", "7 ", "1.5", "1e3", "99999999999999999999", "9007199254740993", "", "０１", null, undefined]) {
      expect(parseId(bad), String(bad)).toBeNull();
    }
    expect(parseId(new File(["1"], "1"))).toBeNull();
    expect(parseId("1")).toBe(1);
    expect(parseId("9007199254740991")).toBe(9007199254740991);
  });

  it("any string: null, or a safe integer ≥ 1 written exactly as given", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String), fc.double().map(String)), (s) => {
        const id = parseId(s);
        if (id !== null) expect(Number.isSafeInteger(id) && id >= 1 && String(id) === s).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
