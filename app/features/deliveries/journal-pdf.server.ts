// Tidningsjournal (spec 2.10): a monthly A4 form, one page per title/edition the
// retailer had delivered that month, a row per day with delivered, returned and
// sold filled in from the portal's data; days without data are left blank to fill in
// by hand. A month without deliveries gives one blank form.
import { PDFDocument, StandardFonts, rgb, type PDFPage } from "pdf-lib";
import { addDays, endOfMonth, isoWeekday } from "~/lib/dates";
import type { JournalEdition } from "./deliveries.server";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const WEEKDAYS = ["mån", "tis", "ons", "tor", "fre", "lör", "sön"];
const monthName = new Intl.DateTimeFormat("sv-SE", { month: "long", year: "numeric", timeZone: "UTC" });

export function journalMonthLabel(month: string): string {
  return monthName.format(new Date(`${month}-01T00:00:00Z`));
}

export async function renderJournalPdf(input: {
  month: string;
  customerId: number;
  customerName: string;
  editions: JournalEdition[];
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const label = journalMonthLabel(input.month);
  doc.setTitle(`Tidningsjournal ${label}`);
  doc.setCreator("Returportalen");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [width, height] = A4;
  const first = `${input.month}-01`;
  const last = endOfMonth(first);
  const dates: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) dates.push(d);

  const cols = [
    { title: "Datum", x: MARGIN, w: 120 },
    { title: "Levererat", x: MARGIN + 120, w: 110 },
    { title: "Returer", x: MARGIN + 230, w: 110 },
    { title: "Sålda", x: MARGIN + 340, w: 155 },
  ];
  const rowH = 19;

  const pages: (JournalEdition | null)[] = input.editions.length ? input.editions : [null];
  for (const edition of pages) {
    const page: PDFPage = doc.addPage(A4);
    let y = height - MARGIN;
    page.drawText(`Tidningsjournal ${label}`, { x: MARGIN, y, size: 18, font: bold });
    y -= 20;
    page.drawText(`${input.customerName}, kundnummer ${input.customerId}`, { x: MARGIN, y, size: 10, font: regular });
    y -= 18;
    const name = edition ? (edition.description === edition.title ? edition.title : `${edition.title} – ${edition.description}`) : "Tidning: ______________________";
    page.drawText(name, { x: MARGIN, y, size: 13, font: bold });
    if (!edition) page.drawText("Inga leveranser den här månaden.", { x: MARGIN + 260, y, size: 10, font: regular });
    y -= 14;

    const drawRow = (cells: string[], font = regular, shade = false) => {
      if (shade) page.drawRectangle({ x: MARGIN, y: y - rowH, width: width - 2 * MARGIN, height: rowH, color: rgb(0.91, 0.93, 0.97) });
      cols.forEach((c, i) => {
        page.drawRectangle({ x: c.x, y: y - rowH, width: c.w, height: rowH, borderColor: rgb(0.6, 0.6, 0.6), borderWidth: 0.5 });
        const text = cells[i] ?? "";
        const tw = font.widthOfTextAtSize(text, 10);
        const tx = i === 0 ? c.x + 5 : c.x + c.w - 6 - tw;
        page.drawText(text, { x: tx, y: y - rowH + 6, size: 10, font });
      });
      y -= rowH;
    };
    drawRow(cols.map((c) => c.title), bold, true);
    let sums = { delivered: 0, returned: 0, sold: 0 };
    for (const date of dates) {
      const day = edition?.days.get(date);
      if (day) sums = { delivered: sums.delivered + day.delivered, returned: sums.returned + day.returned, sold: sums.sold + day.sold };
      drawRow([
        `${WEEKDAYS[isoWeekday(date) - 1]} ${Number(date.slice(8))}`,
        day ? String(day.delivered) : "",
        day ? String(day.returned) : "",
        day ? String(day.sold) : "",
      ]);
    }
    drawRow(["Summa", edition ? String(sums.delivered) : "", edition ? String(sums.returned) : "", edition ? String(sums.sold) : ""], bold, true);
  }
  return doc.save();
}
