// Text search that matches the way staff type: case and diacritics do not matter, so
// "sahin" finds "Şahin Livs", "lodz" finds "Kiosk Łódź" and "NGUYEN" finds "Nguyễn".
// (SQLite's LIKE folds only ASCII; lists already in memory are matched with this.)

// Letters that are not a base letter plus a combining mark, so NFD alone leaves them.
const SPECIAL: Record<string, string> = { ł: "l", đ: "d", ø: "o", æ: "ae", œ: "oe", ß: "ss", ı: "i", þ: "th", ð: "d" };

/** `text` lower-cased (Swedish rules), without diacritics, with runs of whitespace as one space. */
export function foldText(text: string): string {
  return text
    .toLocaleLowerCase("sv-SE")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[łđøæœßıþð]/g, (ch) => SPECIAL[ch] ?? ch)
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A matcher for a search box: every word of `query` must occur in one of the texts.
 * An empty query matches everything.
 */
export function textMatcher(query: string): (...texts: (string | number | null | undefined)[]) => boolean {
  const words = foldText(query).split(" ").filter(Boolean);
  if (words.length === 0) return () => true;
  return (...texts) => {
    const haystack = foldText(texts.filter((t) => t !== null && t !== undefined).join(" \u0000 "));
    return words.every((w) => haystack.includes(w));
  };
}

/** Swedish collation for sorting names and places (å, ä, ö after z). */
export const svCollator = new Intl.Collator("sv-SE", { sensitivity: "base", numeric: true });
