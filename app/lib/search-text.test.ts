import { describe, expect, it } from "vitest";
import { foldText, svCollator, textMatcher } from "./search-text";

describe("foldText and textMatcher", () => {
  it("ignores case and diacritics the way staff type names", () => {
    expect(foldText("  Şahin   Livs ")).toBe("sahin livs");
    expect(foldText("Kiosk Łódź")).toBe("kiosk lodz");
    expect(foldText("NGUYỄN")).toBe("nguyen");
    const m = textMatcher("sahin LIVS");
    expect(m("Şahin Livs AB", "Malmö")).toBe(true);
    expect(m("Sahin Kiosk", "Livsmedel")).toBe(true);
    expect(m("Pressbyrån", "Livs")).toBe(false);
    expect(textMatcher("lodz")("Kiosk Łódź")).toBe(true);
    expect(textMatcher("malmo")("x", "Malmö")).toBe(true);
  });
  it("matches numbers as text and everything when empty", () => {
    expect(textMatcher("0123")(123)).toBe(false);
    expect(textMatcher("123")(40123)).toBe(true);
    expect(textMatcher("   ")("anything")).toBe(true);
  });
  it("does not match across two fields glued together", () => {
    expect(textMatcher("ab")("a", "b")).toBe(false);
  });
  it("sorts Swedish names with å, ä, ö after z", () => {
    expect(["Örebro", "Ånge", "Zinkgruvan", "Arboga", "Ähus"].sort(svCollator.compare)).toEqual(["Arboga", "Zinkgruvan", "Ånge", "Ähus", "Örebro"]);
  });
});
