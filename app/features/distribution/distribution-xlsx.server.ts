// The distribution export (back-office 3): one sheet, a frozen header row and typed
// cells, streamed with exceljs' WorkbookWriter while rows are read page by page. Text
// cells go through xlsxRow, so a name like `=HYPERLINK(…)` stays text.
import type { Writable } from "node:stream";
import { exportRows, type DistributionQuery, type DistributorScope } from "./distribution.server";
import { svCollator } from "~/lib/search-text";
import { xlsxRow } from "~/lib/spreadsheet-cells.server";

// Swedish headings in the order of the spec's export columns (back-office 3: name,
// customerId, zipCode, city, paperName, deliveryDate, deliveredAmount, receivedAmount,
// amount, price); the screen's own words where it has them (Följesedel, Mottagit).
export const EXPORT_COLUMNS = [
  { header: "Namn", key: "name", width: 32 },
  { header: "Kundnr", key: "customerId", width: 10 },
  { header: "Postnr", key: "zipCode", width: 10 },
  { header: "Ort", key: "city", width: 18 },
  { header: "Tidning", key: "paperName", width: 26 },
  { header: "Leveransdatum", key: "deliveryDate", width: 14, style: { numFmt: "yyyy-mm-dd" } },
  { header: "Följesedel", key: "deliveredAmount", width: 11 },
  { header: "Mottagit", key: "receivedAmount", width: 10 },
  { header: "Antal", key: "amount", width: 8 },
  { header: "Summa (kr)", key: "price", width: 12, style: { numFmt: "0.00" } },
  // After the spec's columns, so a file read by position keeps them where they were.
  { header: "Distributör", key: "distributorName", width: 28 },
] as const;

/** The second sheet: one row per distributor in Swedish order, then "Totalt". */
export const SUMMARY_SHEET = "Per distributör";
export const SUMMARY_COLUMNS = [
  { header: "Distributör", key: "distributor", width: 28 },
  { header: "Rader", key: "rows", width: 8 },
  { header: "Antal", key: "amount", width: 8 },
  { header: "Summa (kr)", key: "price", width: 12, style: { numFmt: "0.00" } },
] as const;

/**
 * Writes the workbook to `output` and resolves with the number of data rows once
 * the file is complete. `scope` defaults to every distributor (the CLI).
 */
export async function writeDistributionXlsx(
  output: Writable,
  query: DistributionQuery,
  scope: DistributorScope = { distributorIds: null },
): Promise<{ rows: number }> {
  // exceljs loads with the first workbook, not with the server.
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  workbook.creator = "Returportalen";
  const sheet = workbook.addWorksheet("Distribution", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ ...c }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let count = 0;
  // Per distributor while the rows stream past: rows, copies and öre (whole öre, no float drift).
  const perDistributor = new Map<string, { rows: number; amount: number; priceOre: number }>();
  for await (const page of exportRows(query, scope)) {
    for (const r of page) {
      const key = r.distributorName ?? "Utan distributör";
      let sum = perDistributor.get(key);
      if (!sum) perDistributor.set(key, (sum = { rows: 0, amount: 0, priceOre: 0 }));
      sum.rows++;
      sum.amount += r.amount;
      sum.priceOre += r.priceOre;
      sheet
        .addRow(
          xlsxRow({
            name: r.name,
            customerId: r.customerId,
            zipCode: r.zipCode,
            city: r.city,
            paperName: r.paperName,
            deliveryDate: new Date(`${r.deliveryDate}T00:00:00Z`),
            deliveredAmount: r.deliveredAmount,
            receivedAmount: r.receivedAmount,
            amount: r.amount,
            // Kronor with two decimals, as a number.
            price: r.priceOre / 100,
            distributorName: r.distributorName ?? "",
          }),
        )
        .commit();
      count++;
    }
  }
  sheet.commit();
  const summary = workbook.addWorksheet(SUMMARY_SHEET, { views: [{ state: "frozen", ySplit: 1 }] });
  summary.columns = SUMMARY_COLUMNS.map((c) => ({ ...c }));
  summary.getRow(1).font = { bold: true };
  summary.getRow(1).commit();
  const total = { rows: 0, amount: 0, priceOre: 0 };
  for (const [distributor, sum] of [...perDistributor].sort(([a], [b]) => svCollator.compare(a, b))) {
    summary.addRow(xlsxRow({ distributor, rows: sum.rows, amount: sum.amount, price: sum.priceOre / 100 })).commit();
    total.rows += sum.rows;
    total.amount += sum.amount;
    total.priceOre += sum.priceOre;
  }
  const totalRow = summary.addRow({ distributor: "Totalt", rows: total.rows, amount: total.amount, price: total.priceOre / 100 });
  totalRow.font = { bold: true };
  totalRow.commit();
  summary.commit();
  await workbook.commit();
  return { rows: count };
}
