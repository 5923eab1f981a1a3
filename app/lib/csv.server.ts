// The `;`-separated files of docs/formats.md: UTF-8 (a BOM is accepted), one header
// row naming the columns (any order), `"` quoting with `""` inside quotes. Used by the
// CLI imports and the staff uploads alike, so both read a file the same way. Files that
// people save from Excel (the order file) may also come as Windows-1252 and with `,`
// between the fields: decodeTextFile and `delimiters` read those (issue 16).

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

/**
 * Parses `text` against the exact set of `columns`. Problems are reported per line
 * (1-based, the header is line 1); rows with a structural problem are left out.
 * `delimiters`: the field separators the file may use (default `;` only); the header
 * line decides which one it does.
 */
export function parseCsv(text: string, columns: readonly string[], options: { delimiters?: readonly string[] } = {}): CsvTable {
  const problems: CsvProblem[] = [];
  const rows: CsvRow[] = [];
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  if (lines.length === 0) return { rows, problems: [{ line: 1, column: "-", reason: "filen är tom (rubrikraden saknas)" }] };

  const delimiter = pickDelimiter(lines[0], columns, options.delimiters ?? [";"]);
  const header = splitLine(lines[0], delimiter) ?? [];
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (index.has(name)) problems.push({ line: 1, column: name, reason: "kolumnen finns två gånger" });
    index.set(name, i);
  });
  for (const c of columns) if (!index.has(c)) problems.push({ line: 1, column: c, reason: "kolumnen saknas" });
  for (const name of header) if (!columns.includes(name)) problems.push({ line: 1, column: name, reason: "okänd kolumn" });
  if (problems.length > 0) return { rows, problems };

  if (lines.length - 1 > CSV_LIMITS.maxRows) {
    return { rows, problems: [{ line: CSV_LIMITS.maxRows + 2, column: "-", reason: `fler än ${CSV_LIMITS.maxRows} rader` }] };
  }
  for (let n = 1; n < lines.length; n++) {
    const line = n + 1;
    const raw = lines[n];
    if (raw.trim() === "") continue;
    if (raw.length > CSV_LIMITS.maxLineLength) {
      problems.push({ line, column: "-", reason: `raden är längre än ${CSV_LIMITS.maxLineLength} tecken` });
      continue;
    }
    const fields = splitLine(raw, delimiter);
    if (!fields) {
      problems.push({ line, column: "-", reason: "citattecken som inte avslutas" });
      continue;
    }
    if (fields.length !== header.length) {
      problems.push({ line, column: "-", reason: `${fields.length} fält, rubriken har ${header.length}` });
      continue;
    }
    const values: Record<string, string> = {};
    for (const c of columns) values[c] = fields[index.get(c)!];
    const unsafe = columns.filter((c) => UNSAFE_TEXT.test(values[c]));
    if (unsafe.length > 0) {
      for (const c of unsafe) problems.push({ line, column: c, reason: "osynliga styr- eller riktningstecken" });
      continue;
    }
    rows.push({ line, values });
  }
  return { rows, problems };
}

export function formatProblem(p: CsvProblem): string {
  return `line ${p.line}: ${p.column}: ${p.reason}`;
}

/** Field checks shared by the file formats. Each returns a reason or null. */
export const check = {
  int(value: string, min: number, max: number): string | null {
    if (!/^-?\d+$/.test(value)) return "ska vara ett heltal";
    const n = Number(value);
    return n < min || n > max ? `ska vara mellan ${min} och ${max}` : null;
  },
  required(value: string, maxLength = 200): string | null {
    if (value === "") return "saknas";
    return value.length > maxLength ? `längre än ${maxLength} tecken` : null;
  },
};
