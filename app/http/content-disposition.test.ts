// One Content-Disposition writer (RFC 6266): `filename*=UTF-8''…`
// carries the real name, `filename="…"` a safe ASCII fallback. Each header is parsed
// back the way RFC 6266 says a client does (filename* wins when it is understood, else
// filename), by a parser of the tests' own (tests/content-disposition-parse.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentDisposition } from "./content-disposition.server";
import { parseDisposition as parse, savedName } from "../../tests/content-disposition-parse";

function checkHeader(header: string) {
  // A header value the Fetch API and Node accept: visible ASCII and spaces only.
  expect(header).toMatch(/^[\x20-\x7e]+$/);
  expect(() => new Headers({ "Content-Disposition": header })).not.toThrow();
  const { fallback } = savedName(header);
  expect(fallback).toMatch(/^[A-Za-z0-9 ._()-]+$/);
  expect(fallback.startsWith(".")).toBe(false);
}

describe("contentDisposition", () => {
  it("keeps a plain name in both forms", () => {
    expect(contentDisposition("Returer.pdf")).toBe(`attachment; filename="Returer.pdf"; filename*=UTF-8''Returer.pdf`);
    expect(contentDisposition("omslag.jpg", "inline")).toBe(`inline; filename="omslag.jpg"; filename*=UTF-8''omslag.jpg`);
  });

  it("carries names with ; = quotes and non-ASCII whole, with an ASCII fallback", () => {
    const cases: [string, string][] = [
      ["Şahin Łódź.jpg", "Sahin Lodz.jpg"],
      ['omslag";filename="evil.exe.jpg', "omslag__filename__evil.exe.jpg"],
      ["v10; size=3.png", "v10_ size_3.png"],
      ["Åhléns Växjö – vecka 12.pdf", "Ahlens Vaxjo _ vecka 12.pdf"],
      ["Straße Æbleø.csv", "Strasse AEbleo.csv"],
      ["日本語.png", "___.png"],
      ["a\\b/c.pdf", "a_b_c.pdf"],
      ["..", "fil"],
    ];
    for (const [name, fallback] of cases) {
      const header = contentDisposition(name);
      checkHeader(header);
      const saved = savedName(header);
      expect(saved.fallback, name).toBe(fallback);
      expect(saved.name, name).toBe({ "a\\b/c.pdf": "a_b_c.pdf", "..": "fil" }[name] ?? name);
      expect(parse(header).type).toBe("attachment");
    }
  });

  it("cannot be split or injected: CR/LF and controls never reach the header", () => {
    const header = contentDisposition("x.pdf\r\nSet-Cookie: a=b\u0000.pdf");
    checkHeader(header);
    expect(savedName(header).name).toBe("x.pdf__Set-Cookie: a=b_.pdf");
  });

  it("any name: a header that parses back to the same name (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), fc.constantFrom("attachment" as const, "inline" as const), (name, type) => {
        const header = contentDisposition(name, type);
        checkHeader(header);
        const { name: saved } = savedName(header);
        expect(parse(header).type).toBe(type);
        // The saved name is the given one with controls, / and \ made `_` (and lone surrogates U+FFFD).
        const expected = name.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD").replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, "_");
        expect(saved).toBe(expected.replace(/^\.*$/, "") === "" ? "fil" : expected);
      }),
      { numRuns: 500 },
    );
  });
});
