// PDF underlag for guarantee payouts: A4, one block per customer (address, org
// number, bank details, amount per title, payout date) and a total at the end.
// Drawn with the PDF kit: any name prints, and a negative amount keeps its minus sign.
import { createPdf, drawText, formatDate, formatKr, pageFrame, widthOf, type KitFont } from "~/pdf/index.server";
import type { Refund } from "./refund";

const MARGIN = 50;

export async function renderUnderlagPdf(heading: string, refunds: Refund[]): Promise<Uint8Array> {
  const pdf = await createPdf(heading);
  const { regular, bold } = pdf;
  const frame = pageFrame(pdf, { margin: MARGIN });
  const text = (t: string, font: KitFont = regular, size = 10, x = MARGIN) => drawText(frame.page, t, { x, y: frame.y, size, font, maxWidth: frame.right - x });
  const right = (t: string, font: KitFont, size: number) => drawText(frame.page, t, { x: frame.right, y: frame.y, size, font, align: "right" });

  text(heading, bold, 16);
  frame.y -= 28;
  let total = 0;
  for (const r of refunds) {
    frame.ensure(40 + r.amounts.length * 14 + 70);
    text(`Kund ${r.customerId}: ${r.name}`, bold, 11);
    frame.y -= 15;
    const address = [r.address, r.coAddress ? `c/o ${r.coAddress}` : "", `${r.zip} ${r.city}`.trim()].filter(Boolean).join(", ");
    for (const line of [
      `Adress: ${address}`,
      `Organisationsnummer: ${r.orgNumber}`,
      `Bankgiro: ${r.bankgiro || "-"}    Bankkonto: ${r.bankAccount || "-"}`,
      `Utbetalningsdatum: ${formatDate(r.refundDate)}`,
    ]) {
      text(line);
      frame.y -= 14;
    }
    for (const a of r.amounts) {
      const amount = formatKr(a.amountOre);
      drawText(frame.page, `Garantibelopp ${a.paper}`, { x: MARGIN + 10, y: frame.y, size: 10, font: regular, maxWidth: frame.right - MARGIN - 10 - widthOf(amount, regular, 10) - 10 });
      right(amount, regular, 10);
      total += a.amountOre;
      frame.y -= 14;
    }
    frame.y -= 12;
  }
  frame.ensure(30);
  right(`Summa: ${formatKr(total)}`, bold, 11);
  return pdf.save();
}
