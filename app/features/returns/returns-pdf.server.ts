// The 'Skriv ut' document of the returns page: an A4 PDF named Returer of the list
// the page shows, with empty boxes to write in for papers not yet reported.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { Paper, ReportState } from "./returns.server";

export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const ROW = 18;

type Col = { title: string; x: number; width: number; text: (p: Paper) => string };

export async function returnsPdf(input: {
  customer: { id: number; name: string };
  state: ReportState;
  date: string;
  papers: Paper[];
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("Returer");
  doc.setCreator("Returportalen");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage(A4);
  let y = A4[1] - MARGIN;

  const text = (p: PDFPage, s: string, x: number, yy: number, f: PDFFont = font, size = 10) =>
    p.drawText(fit(s, f, size, A4[0] - MARGIN - x), { x, y: yy, size, font: f, color: rgb(0, 0, 0) });

  text(page, "Returer", MARGIN, y, bold, 18);
  y -= 22;
  text(page, `${input.customer.name}, kundnummer ${input.customer.id}`, MARGIN, y);
  y -= 14;
  text(page, `${input.state === 1 ? "Orapporterade" : "Rapporterade"} tidningar, utskrivet ${input.date}`, MARGIN, y);
  y -= 24;

  const returnsText = (p: Paper) => p.returns.map((r) => `${r.amount} (bunt ${r.bundle})`).join(", ");
  const cols: Col[] = [
    { title: "Titel", x: MARGIN, width: 90, text: (p) => p.title },
    { title: "Utgåva", x: MARGIN + 90, width: 120, text: (p) => (p.type === 1 ? p.edition : "") },
    { title: "Utgivningsdag", x: MARGIN + 210, width: 80, text: (p) => p.deliveryDate },
    { title: "Levererat", x: MARGIN + 290, width: 55, text: (p) => String(p.delivered) },
    { title: "Bunt", x: MARGIN + 345, width: 60, text: (p) => (input.state === 1 ? "" : [...new Set(p.returns.map((r) => r.bundle))].join(", ")) },
    { title: "Retur", x: MARGIN + 405, width: A4[0] - 2 * MARGIN - 405, text: (p) => (input.state === 1 ? "" : returnsText(p)) },
  ];

  for (const type of [0, 1] as const) {
    const list = input.papers.filter((p) => p.type === type);
    const header = () => {
      for (const c of cols) text(page, c.title, c.x + 2, y, bold, 9);
      y -= 6;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.8 });
      y -= ROW - 6;
    };
    if (y < MARGIN + 4 * ROW) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
    text(page, type === 0 ? "Huvudtidningar" : "Bilagor", MARGIN, y, bold, 13);
    y -= 20;
    if (list.length === 0) {
      text(page, "Inget att rapportera", MARGIN, y);
      y -= 2 * ROW;
      continue;
    }
    header();
    for (const p of list) {
      if (y < MARGIN + ROW) {
        page = doc.addPage(A4);
        y = A4[1] - MARGIN;
        header();
      }
      for (const c of cols) {
        const s = c.text(p);
        if (s) text(page, s, c.x + 2, y, font, 9);
      }
      if (input.state === 1) {
        // Boxes to write the bundle number and the returns in.
        for (const c of cols.slice(4)) page.drawRectangle({ x: c.x + 2, y: y - 4, width: 50, height: 14, borderWidth: 0.6, borderColor: rgb(0.3, 0.3, 0.3) });
      }
      y -= ROW;
    }
    y -= ROW;
  }
  return doc.save();
}

/** Cuts a text to the width available (the standard fonts cannot wrap). */
function fit(s: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(s, size) <= width) return s;
  let cut = s;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
