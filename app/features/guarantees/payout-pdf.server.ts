// PDF underlag for guarantee payouts: A4, one block per customer (address, org
// number, bank details, amount per title, payout date) and a total at the end.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import type { Refund } from "./refund";
import { formatKr } from "~/lib/money";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

export async function renderUnderlagPdf(heading: string, refunds: Refund[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(heading);
  doc.setCreator("Returportalen");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (t: string, f: PDFFont = font, size = 10, x = MARGIN) => {
    page.drawText(t, { x, y, size, font: f, color: rgb(0, 0, 0) });
  };
  const newPageIfNeeded = (needed: number) => {
    if (y - needed < MARGIN) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
  };
  text(heading, bold, 16);
  y -= 28;
  let total = 0;
  for (const r of refunds) {
    newPageIfNeeded(40 + r.amounts.length * 14 + 70);
    text(`Kund ${r.customerId}: ${r.name}`, bold, 11);
    y -= 15;
    const address = [r.address, r.coAddress ? `c/o ${r.coAddress}` : "", `${r.zip} ${r.city}`.trim()].filter(Boolean).join(", ");
    for (const line of [
      `Adress: ${address}`,
      `Organisationsnummer: ${r.orgNumber}`,
      `Bankgiro: ${r.bankgiro || "-"}    Bankkonto: ${r.bankAccount || "-"}`,
      `Utbetalningsdatum: ${r.refundDate}`,
    ]) {
      text(line);
      y -= 14;
    }
    for (const a of r.amounts) {
      text(`Garantibelopp ${a.paper}`, font, 10, MARGIN + 10);
      const amount = formatKr(a.amountOre);
      page.drawText(amount, { x: A4[0] - MARGIN - font.widthOfTextAtSize(amount, 10), y, size: 10, font });
      total += a.amountOre;
      y -= 14;
    }
    y -= 12;
  }
  newPageIfNeeded(30);
  const sum = `Summa: ${formatKr(total)}`;
  page.drawText(sum, { x: A4[0] - MARGIN - bold.widthOfTextAtSize(sum, 11), y, size: 11, font: bold });
  return doc.save();
}
