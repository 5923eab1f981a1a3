// The PIN letter: the customer's new PIN on paper, to post or hand over, with
// how to log in. Drawn with the PDF kit, so any name prints. The PIN is never stored in
// the clear: the letter is made from the PIN the staff member has just been shown.
import { createPdf, drawText, formatDate, pageFrame, type KitFont } from "~/pdf/index.server";

const MARGIN = 60;

export type PinLetter = { customerId: number; name: string; address: string; coAddress: string; zip: string; city: string; pin: string; date: string; loginUrl: string };

export async function renderPinLetterPdf(letter: PinLetter): Promise<Uint8Array> {
  const pdf = await createPdf(`Pinkod för kund ${letter.customerId}`);
  const { regular, bold } = pdf;
  const frame = pageFrame(pdf, { margin: MARGIN });
  const line = (t: string, font: KitFont = regular, size = 11, gap = 16) => {
    drawText(frame.page, t, { x: MARGIN, y: frame.y, size, font, maxWidth: frame.right - MARGIN });
    frame.y -= gap;
  };
  line("Returportalen", bold, 14, 40);
  line(letter.name, bold);
  if (letter.coAddress) line(`c/o ${letter.coAddress}`);
  if (letter.address) line(letter.address);
  line(`${letter.zip} ${letter.city}`.trim(), regular, 11, 48);
  line(formatDate(letter.date), regular, 10, 30);
  line("Din pinkod till Returportalen", bold, 16, 28);
  line(`Kundnummer: ${letter.customerId}`, regular, 12, 20);
  line(`Pinkod: ${letter.pin}`, bold, 20, 36);
  for (const text of [
    `Logga in på ${letter.loginUrl} med ditt kundnummer och pinkoden ovan.`,
    "Pinkoden ersätter din tidigare pinkod, som inte längre fungerar.",
    "Förvara brevet så att ingen annan kan läsa det, och lämna aldrig ut pinkoden.",
    "Har du frågor? Kontakta kundtjänst.",
  ]) line(text);
  return pdf.save();
}
