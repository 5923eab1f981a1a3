// One shape for every staff Excel export: Swedish column headings, a bold
// frozen header row, dates as dates (yyyy-mm-dd), amounts as numbers with two decimals,
// counts as whole numbers, and text through xlsxRow so a name like `=HYPERLINK(…)`
// stays text. Rows may come from an async generator, so a large export is written page
// by page (exceljs' streaming WorkbookWriter) while it is sent.
import { PassThrough, Readable, type Writable } from "node:stream";
import { stockholmWallClock } from "./dates";
import { xlsxRow } from "./spreadsheet-cells.server";

export type XlsxColumn<R> = {
  /** The Swedish heading. */
  header: string;
  width?: number;
  /**
   * text (default), date (a `YYYY-MM-DD` text or a Date), datetime (epoch ms, shown as
   * Stockholm's wall-clock time: Excel has no time zones), count, or amount (kronor, 2 decimals).
   */
  type?: "text" | "date" | "datetime" | "count" | "amount";
  value: (row: R) => string | number | Date | null | undefined;
};

function cell<R>(column: XlsxColumn<R>, row: R): unknown {
  const v = column.value(row);
  if (v === null || v === undefined || v === "") return null;
  if (column.type === "datetime" && typeof v === "number") {
    return stockholmWallClock(v);
  }
  if ((column.type === "date" || column.type === "datetime") && typeof v === "string") {
    const iso = v.length === 10 ? `${v}T00:00:00Z` : `${v.replace(" ", "T")}${/Z|[+-]\d\d:?\d\d$/.test(v) ? "" : "Z"}`;
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? v : d;
  }
  return v;
}

export async function writeXlsx<R>(
  output: Writable,
  sheetName: string,
  columns: readonly XlsxColumn<R>[],
  rows: Iterable<R> | AsyncIterable<R>,
): Promise<{ rows: number }> {
  // exceljs loads with the first workbook, not with the server.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Returportalen";
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: `c${i}`,
    width: c.width ?? Math.max(10, c.header.length + 2),
    style:
      c.type === "date"
        ? { numFmt: "yyyy-mm-dd" }
        : c.type === "datetime"
          ? { numFmt: "yyyy-mm-dd hh:mm" }
          : c.type === "amount"
            ? { numFmt: "0.00" }
            : c.type === "count"
              ? { numFmt: "0" }
              : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let count = 0;
  for await (const row of rows) {
    const values: Record<string, unknown> = {};
    columns.forEach((c, i) => (values[`c${i}`] = cell(c, row)));
    sheet.addRow(xlsxRow(values)).commit();
    count++;
  }
  sheet.commit();
  await workbook.commit();
  return { rows: count };
}

/** The workbook as a web stream for `fileResponse` (written while it is sent). */
export function xlsxStream<R>(sheetName: string, columns: readonly XlsxColumn<R>[], rows: Iterable<R> | AsyncIterable<R>): ReadableStream<Uint8Array> {
  const pass = new PassThrough();
  writeXlsx(pass, sheetName, columns, rows).catch((error) => pass.destroy(error as Error));
  return Readable.toWeb(pass) as ReadableStream<Uint8Array>;
}
