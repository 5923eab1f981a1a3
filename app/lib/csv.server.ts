// The `;`-separated files of docs/formats.md: UTF-8 (a BOM is accepted), one header
// row naming the columns (any order), `"` quoting with `""` inside quotes. Used by the
// CLI imports and the staff uploads alike, so both read a file the same way.

export type CsvRow = { line: number; values: Record<string, string> };
export type CsvProblem = { line: number; column: string; reason: string };
export type CsvTable = { rows: CsvRow[]; problems: CsvProblem[] };

export const CSV_LIMITS = { maxLineLength: 10_000, maxRows: 2_000_000 };

/** Splits one physical line into fields; null when a quote is left open. */
function splitLine(line: string): string[] | null {
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
      if (i < line.length && line[i] !== ";") return null;
    } else {
      const end = line.indexOf(";", i);
      fields.push((end === -1 ? line.slice(i) : line.slice(i, end)).trim());
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i++; // the ;
    if (i === line.length) {
      fields.push("");
      return fields;
    }
  }
}

/**
 * Parses `text` against the exact set of `columns`. Problems are reported per line
 * (1-based, the header is line 1); rows with a structural problem are left out.
 */
export function parseCsv(text: string, columns: readonly string[]): CsvTable {
  const problems: CsvProblem[] = [];
  const rows: CsvRow[] = [];
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  if (lines.length === 0) return { rows, problems: [{ line: 1, column: "-", reason: "filen är tom (rubrikraden saknas)" }] };

  const header = splitLine(lines[0]) ?? [];
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
    const fields = splitLine(raw);
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
