// The `;`-separated files of docs/formats.md: UTF-8 (a BOM is accepted), one header
// row naming the columns (any order), `"` quoting with `""` and line breaks inside quotes
// (read by csv-parse). Used by the
// CLI imports and the staff uploads alike, so both read a file the same way. Files that
// people save from Excel (the order file) may also come as Windows-1252 and with `,`
// between the fields: decodeTextFile and `delimiters` read those.

import { CsvError, parse, type InfoRecord } from "csv-parse/sync";
import { UNSAFE_TEXT } from "./form-fields";

export type CsvRow = { line: number; values: Record<string, string> };
export type CsvProblem = { line: number; column: string; reason: string };
export type CsvTable = { rows: CsvRow[]; problems: CsvProblem[] };

export const CSV_LIMITS = { maxLineLength: 10_000, maxRows: 2_000_000 };

/**
 * The text of an uploaded file: UTF-8 (with or without a BOM) when the bytes are valid
 * UTF-8, otherwise Windows-1252 (what Excel on a Swedish Windows writes for "CSV
 * (semikolonavgränsad)"). Null for a binary file (a NUL byte), which is no text at all.
 */
export function decodeTextFile(bytes: Uint8Array): { text: string; encoding: "utf-8" | "windows-1252" } | null {
  if (bytes.includes(0)) return null;
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("windows-1252").decode(bytes), encoding: "windows-1252" };
  }
}

/** Splits one physical line into fields; null when a quote is left open. */
function splitLine(line: string, delimiter = ";"): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      fields.push(value);
      if (i < line.length && line[i] !== delimiter) return null;
    } else {
      const end = line.indexOf(delimiter, i);
      fields.push((end === -1 ? line.slice(i) : line.slice(i, end)).trim());
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i++; // the delimiter
    if (i === line.length) {
      fields.push("");
      return fields;
    }
  }
}

/**
 * The delimiter of a file among `delimiters`: the one whose header line splits into the
 * expected columns, else the one that splits it into the most fields.
 */
function pickDelimiter(headerLine: string, columns: readonly string[], delimiters: readonly string[]): string {
  let best = delimiters[0];
  let bestCount = -1;
  for (const d of delimiters) {
    const fields = splitLine(headerLine, d) ?? [];
    if (fields.length === columns.length && fields.every((f) => columns.includes(f))) return d;
    if (fields.length > bestCount) {
      best = d;
      bestCount = fields.length;
    }
  }
  return best;
}

/** A field's line breaks (an address on two lines, Alt+Enter in Excel) as ", ": every stored field is one line. */
function oneLine(value: string): string {
  return /[\r\n]/.test(value) ? value.split(/\s*\r?\n\s*/).filter((part) => part !== "").join(", ") : value;
}

/**
 * Parses `text` against the exact set of `columns` with csv-parse: a quoted field may hold
 * `;`, `""` and line breaks. Problems are reported by the file's own line number (1-based,
 * the header is line 1; a record over several lines by its first); rows with a structural
 * problem are left out, and a quote left open or an over-long record ends the reading.
 * `delimiters`: the field separators the file may use (default `;` only); the header line
 * decides which one it does.
 */
export function parseCsv(text: string, columns: readonly string[], options: { delimiters?: readonly string[] } = {}): CsvTable {
  const problems: CsvProblem[] = [];
  const rows: CsvRow[] = [];
  // One kind of line break (Windows' CRLF as LF), so lines are counted one way.
  const body = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n");
  if (body.trim() === "") return { rows, problems: [{ line: 1, column: "-", reason: "filen är tom (rubrikraden saknas)" }] };
  const firstLine = /^[^\r\n]*/.exec(body)![0];
  const delimiter = pickDelimiter(firstLine, columns, options.delimiters ?? [";"]);

  // Each record with the line it starts on: the line its previous record ended on, plus one,
  // plus the blank lines between them.
  const records: { fields: string[]; line: number }[] = [];
  let lastEnd = 0;
  // With `raw`, each record comes with its text, from the end of the one before (blank lines
  // included) to its own line break (csv-parse's types leave `raw` out of on_record's
  // record): counting the line breaks says on which line each starts.
  const withRaw = ({ record, raw }: { record: string[]; raw: string }): null => {
    const blank = /^\n*/.exec(raw)![0].length;
    records.push({ fields: record, line: lastEnd + blank + 1 });
    lastEnd += raw.split("\n").length - 1;
    return null;
  };
  try {
    parse(body, {
      delimiter,
      record_delimiter: "\n",
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      raw: true,
      max_record_size: CSV_LIMITS.maxLineLength,
      // One more than allowed, to know there are too many.
      to: CSV_LIMITS.maxRows + 2,
      on_record: withRaw as unknown as (record: string[], context: InfoRecord) => null,
    });
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const line = lastEnd + 1;
    const reason =
      e.code === "CSV_QUOTE_NOT_CLOSED"
        ? "citattecken som inte avslutas"
        : e.code === "CSV_MAX_RECORD_SIZE"
          ? `raden är längre än ${CSV_LIMITS.maxLineLength} tecken`
          : e.code === "CSV_INVALID_CLOSING_QUOTE" || e.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"
            ? "tecken direkt efter ett avslutande citattecken"
            : "raden kan inte läsas som CSV";
    // The records before the one that could not be read are checked too: every problem at once.
    problems.push({ line, column: "-", reason });
  }
  if (records.length === 0) return { rows, problems: problems.length > 0 ? problems : [{ line: 1, column: "-", reason: "filen är tom (rubrikraden saknas)" }] };

  const header = records[0].fields;
  const index = new Map<string, number>();
  const headerProblems: CsvProblem[] = [];
  header.forEach((name, i) => {
    if (index.has(name)) headerProblems.push({ line: 1, column: name, reason: "kolumnen finns två gånger" });
    index.set(name, i);
  });
  for (const c of columns) if (!index.has(c)) headerProblems.push({ line: 1, column: c, reason: "kolumnen saknas" });
  for (const name of header) if (!columns.includes(name)) headerProblems.push({ line: 1, column: name, reason: "okänd kolumn" });
  if (headerProblems.length > 0) return { rows, problems: headerProblems };

  if (records.length - 1 > CSV_LIMITS.maxRows) {
    return { rows, problems: [{ line: records[CSV_LIMITS.maxRows + 1].line, column: "-", reason: `fler än ${CSV_LIMITS.maxRows} rader` }] };
  }
  for (const { fields, line } of records.slice(1)) {
    if (fields.length !== header.length) {
      problems.push({ line, column: "-", reason: `${fields.length} fält, rubriken har ${header.length}` });
      continue;
    }
    const values: Record<string, string> = {};
    for (const c of columns) values[c] = oneLine(fields[index.get(c)!]);
    const unsafe = columns.filter((c) => UNSAFE_TEXT.test(values[c]));
    if (unsafe.length > 0) {
      for (const c of unsafe) problems.push({ line, column: c, reason: "osynliga styr- eller riktningstecken" });
      continue;
    }
    rows.push({ line, values });
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows, problems };
}

export function formatProblem(p: CsvProblem): string {
  return `line ${p.line}: ${p.column}: ${p.reason}`;
}
