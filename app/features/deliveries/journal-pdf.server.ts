// Tidningsjournal (spec 2.10): a monthly A4 form, one page per title/edition the
// retailer had delivered that month, a row per day with delivered, returned and
// sold filled in from the portal's data; days without data are left blank to fill in
// by hand. A month without deliveries gives one blank form. Drawn with the PDF kit.
import { rgb } from "~/pdf/color";
import { GREY, createPdf, drawText, formatMonth, formatNumber, pageFrame, tableRow, type Column } from "~/pdf/index.server";
import { addDays, endOfMonth, isoWeekday } from "~/lib/dates";
import type { JournalEdition } from "./deliveries.server";

const MARGIN = 50;
const ROW = 19;
const WEEKDAYS = ["mån", "tis", "ons", "tor", "fre", "lör", "sön"];
const SHADE = rgb(0.91, 0.93, 0.97);

/** "2026-02" -> "februari 2026" */
export function journalMonthLabel(month: string): string {
  return formatMonth(month);
}

export async function renderJournalPdf(input: {
  month: string;
  customerId: number;
  customerName: string;
  editions: JournalEdition[];
}): Promise<Uint8Array> {
  const label = journalMonthLabel(input.month);
  const pdf = await createPdf(`Tidningsjournal ${label}`);
  const { regular, bold } = pdf;
  const first = `${input.month}-01`;
  const last = endOfMonth(first);
  const dates: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) dates.push(d);

  const cols: (Column & { title: string })[] = [
    { title: "Datum", x: MARGIN, width: 120, pad: 5 },
    { title: "Levererat", x: MARGIN + 120, width: 110, align: "right", pad: 6 },
    { title: "Returer", x: MARGIN + 230, width: 110, align: "right", pad: 6 },
    { title: "Sålda", x: MARGIN + 340, width: 155, align: "right", pad: 6 },
  ];
  const cell = { size: 10, height: ROW, baseline: ROW - 6, border: GREY };
  const count = (n: number | undefined) => (n === undefined ? "" : formatNumber(n));

  const pages: (JournalEdition | null)[] = input.editions.length ? input.editions : [null];
  const f = pageFrame(pdf, { margin: MARGIN });
  for (const [i, edition] of pages.entries()) {
    if (i > 0) f.newPage();
    const line = (s: string, font = regular, size = 10, x = MARGIN) => drawText(f.page, s, { x, y: f.y, size, font, maxWidth: f.right - x });

    line(`Tidningsjournal ${label}`, bold, 18);
    f.y -= 20;
    line(`${input.customerName}, kundnummer ${input.customerId}`);
    f.y -= 18;
    const name = edition ? (edition.description === edition.title ? edition.title : `${edition.title} – ${edition.description}`) : "Tidning: ______________________";
    drawText(f.page, name, { x: MARGIN, y: f.y, size: 13, font: bold, maxWidth: edition ? f.right - MARGIN : 250 });
    if (!edition) line("Inga leveranser den här månaden.", regular, 10, MARGIN + 260);
    f.y -= 14;

    tableRow(f, cols, cols.map((c) => c.title), { ...cell, font: bold, shade: SHADE });
    const sums = { delivered: 0, returned: 0, sold: 0 };
    for (const date of dates) {
      const day = edition?.days.get(date);
      if (day) {
        sums.delivered += day.delivered;
        sums.returned += day.returned;
        sums.sold += day.sold;
      }
      tableRow(f, cols, [`${WEEKDAYS[isoWeekday(date) - 1]} ${Number(date.slice(8))}`, count(day?.delivered), count(day?.returned), count(day?.sold)], { ...cell, font: regular });
    }
    const total = (n: number) => (edition ? formatNumber(n) : "");
    tableRow(f, cols, ["Summa", total(sums.delivered), total(sums.returned), total(sums.sold)], { ...cell, font: bold, shade: SHADE });
  }
  return pdf.save();
}
