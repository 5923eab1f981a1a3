// The one Content-Disposition writer (RFC 6266): `filename*=UTF-8''…` (RFC 8187) carries
// the real name, `filename="…"` an ASCII fallback for clients that do not read
// filename*. Written by hand, a cover named `Şahin Łódź.jpg` or `v10; size=3.png`
// broke the header (or, with a `"`, changed its meaning).

// Letters NFKD does not take apart.
const FOLD: Record<string, string> = { ß: "ss", Æ: "AE", æ: "ae", Ø: "O", ø: "o", Ł: "L", ł: "l", Đ: "D", đ: "d", Þ: "Th", þ: "th", Œ: "OE", œ: "oe", ı: "i" };

/** Controls and path separators never reach a saved name; lone surrogates become U+FFFD. */
function cleanName(filename: string): string {
  const name = filename
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, "_");
  return /^\.*$/.test(name) ? "fil" : name;
}

/** Å -> A, Ł -> L, ß -> ss; anything else outside a small safe set -> `_`. */
function asciiFallback(name: string): string {
  const folded = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/gu, (c) => FOLD[c] ?? "_")
    .replace(/[^A-Za-z0-9 ._()-]/g, "_")
    .replace(/^\.+/, "");
  return folded === "" ? "fil" : folded;
}

/** RFC 8187 value-chars: what encodeURIComponent leaves alone, less ' ( ) *. */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function contentDisposition(filename: string, type: "attachment" | "inline" = "attachment"): string {
  const name = cleanName(filename);
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
