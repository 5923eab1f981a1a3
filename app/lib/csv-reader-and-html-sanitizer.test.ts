import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv.server";
import { messageHtml, sanitizeHtml } from "./html.server";

describe("parseCsv", () => {
  it("reads columns by name in any order, with a BOM and CRLF", () => {
    const t = parseCsv("\uFEFFb;a\r\n2;1\r\n\"x;y\";\"say \"\"hi\"\"\"\r\n", ["a", "b"]);
    expect(t.problems).toEqual([]);
    expect(t.rows).toEqual([
      { line: 2, values: { a: "1", b: "2" } },
      { line: 3, values: { a: 'say "hi"', b: "x;y" } },
    ]);
  });
  it("reports missing, unknown and duplicated columns on line 1", () => {
    const t = parseCsv("a;c;c\n1;2;3", ["a", "b"]);
    expect(t.problems.map((p) => `${p.line}:${p.column}:${p.reason}`)).toEqual([
      "1:c:kolumnen finns två gånger",
      "1:b:kolumnen saknas",
      "1:c:okänd kolumn",
      "1:c:okänd kolumn",
    ]);
  });
  it("reports rows with the wrong field count or an open quote by line", () => {
    const t = parseCsv('a;b\n1;2\n1\n"1;2', ["a", "b"]);
    expect(t.rows).toHaveLength(1);
    expect(t.problems.map((p) => p.line)).toEqual([3, 4]);
  });
  it("reads a quoted field with `;`, quotes and a line break (Alt+Enter in Excel) as one field on one line, and counts the file's own lines", () => {
    const t = parseCsv('a;b\r\n1;"Storgatan 1;\r\nLgh ""1102"""\r\n\r\n2;x\r\n3\r\n', ["a", "b"]);
    expect(t.rows).toEqual([
      { line: 2, values: { a: "1", b: 'Storgatan 1;, Lgh "1102"' } },
      { line: 5, values: { a: "2", b: "x" } },
    ]);
    expect(t.problems).toEqual([{ line: 6, column: "-", reason: "1 fält, rubriken har 2" }]);
    // A quote left open: reported on the line its record starts, and nothing after it is read.
    const open = parseCsv('a;b\n1;2\n3;"open\n4;5\n', ["a", "b"]);
    expect(open.rows.map((r) => r.line)).toEqual([2]);
    expect(open.problems).toEqual([{ line: 3, column: "-", reason: "citattecken som inte avslutas" }]);
  });
});

describe("sanitizeHtml", () => {
  it("keeps the safe subset and drops scripts and handlers", () => {
    const out = sanitizeHtml('<p onclick="x()">Hej <strong>du</strong><script>alert(1)</script><a href="javascript:alert(1)">l</a></p>');
    expect(out).toBe("<p>Hej <strong>du</strong><a rel=\"noopener noreferrer\" target=\"_blank\">l</a></p>");
  });
  it("turns plain text with line breaks into paragraphs, escaped", () => {
    expect(messageHtml("Rad 1\nRad <2>\n\nStycke")).toBe("<p>Rad 1<br>Rad &lt;2&gt;</p><p>Stycke</p>");
  });
});
