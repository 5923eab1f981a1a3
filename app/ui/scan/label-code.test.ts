import { describe, expect, it } from "vitest";
import { parseLabelCode } from "./label-code";

describe("a bundle label's barcode text", () => {
  it("is the customer number and the bundle number, five digits each", () => {
    expect(parseLabelCode("0100100042")).toEqual({ customerId: 1001, bundle: 42 });
    expect(parseLabelCode(" 9999900001 ")).toEqual({ customerId: 99999, bundle: 1 });
  });
  it("is nothing else", () => {
    for (const text of ["", "100100042", "01001000420", "01001ABCDE", "0000000042", "0100100000", "7388000123456"]) expect(parseLabelCode(text)).toBeNull();
  });
});
