import { describe, expect, it } from "vitest";
import { addSplit, applyIntent, initialLines, isSoldOut, nextSplitKey, toggleSoldOut, typedInto, withTypeBundle } from "./return-lines";

const papers = [
  { deliveryId: 1, type: 0, returns: [] },
  { deliveryId: 2, type: 0, returns: [] },
  { deliveryId: 3, type: 1, returns: [] },
];

describe("the returns form's lines", () => {
  it("Slutsåld pressed twice gives the pre-filled bundle back, with JavaScript and without", () => {
    const [line] = initialLines(papers, 1, { 0: 101, 1: null });
    const sold = toggleSoldOut(line);
    expect(isSoldOut(sold)).toBe(true);
    expect([sold.bundle, sold.amount]).toEqual(["", "0"]);
    expect(toggleSoldOut(sold)).toMatchObject({ bundle: "101", amount: "", dflt: "101", touched: false });
    const viaForm = applyIntent(applyIntent([line], "soldout:d1", new Set([1]))!, "soldout:d1", new Set([1]))!;
    expect(viaForm[0]).toMatchObject({ bundle: "101", amount: "" });
  });

  it("'Byt' gives the type's bundle only to lines nobody touched", () => {
    let lines = initialLines(papers, 1, { 0: 101, 1: null });
    lines = lines.map((l) => (l.deliveryId === 2 ? typedInto(l, "amount", "4") : l));
    lines = addSplit(lines, 1);
    const changed = withTypeBundle(lines, new Set([1, 2]), "107");
    expect(changed.map((l) => [l.key, l.bundle])).toEqual([
      ["d1", "107"],
      ["d1s1", ""],
      ["d2", "101"],
      ["d3", ""],
    ]);
    // A bundle typed into a row is the user's: Byt leaves it.
    const typed = typedInto(changed[0], "bundle", "105");
    expect(withTypeBundle([typed], new Set([1]), "109")[0].bundle).toBe("105");
  });

  it("the next split line's key is one past the paper's highest", () => {
    const lines = addSplit(addSplit(initialLines(papers, 1, { 0: 101, 1: null }), 1), 1);
    expect(nextSplitKey(lines, 1)).toBe("d1s3");
    expect(nextSplitKey(lines, 2)).toBe("d2s1");
  });
});
