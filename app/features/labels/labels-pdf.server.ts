// Emergency bundle labels (spec 2.7, 9): A4, one page per bundle number, six
// CODE128 barcodes per page and the bundle number padded to 4 digits in large type.
//
// The bars come from bwip-js (BWIPP's encoder) as module widths and are drawn as
// PDF rectangles, so they stay sharp at any printer resolution. BWIPP picks code
// set C by itself for an all-digit text of even length (10 digits here); the
// unit test checks the start symbol is Start C.
import bwipjs from "bwip-js/node";
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { labelBarcodeText } from "./labels.server";

const A4: [number, number] = [595.28, 841.89];
const MODULE = 1.8; // points per narrow bar (0.635 mm)
const BAR_HEIGHT = 90;
const QUIET = 10 * MODULE;

/** Module widths (bar, space, bar, …) of the CODE128 symbol for `text`. */
export function code128Modules(text: string): number[] {
  const [symbol] = bwipjs.raw("code128", text, {}) as Array<{ sbs: number[] }>;
  return symbol.sbs;
}

function drawBarcode(page: PDFPage, modules: number[], x: number, y: number) {
  let cursor = x + QUIET;
  modules.forEach((width, i) => {
    if (i % 2 === 0) page.drawRectangle({ x: cursor, y, width: width * MODULE, height: BAR_HEIGHT, color: rgb(0, 0, 0) });
    cursor += width * MODULE;
  });
  return cursor + QUIET - x;
}

function centered(page: PDFPage, text: string, font: PDFFont, size: number, cx: number, y: number) {
  page.drawText(text, { x: cx - font.widthOfTextAtSize(text, size) / 2, y, size, font, color: rgb(0, 0, 0) });
}

export async function renderLabelsPdf(input: {
  customerId: number;
  customerName: string;
  fromNumber: number;
  toNumber: number;
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("Nödetiketter");
  doc.setCreator("Returportalen");
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const [width, height] = A4;

  for (let n = input.fromNumber; n <= input.toNumber; n++) {
    const page = doc.addPage(A4);
    const text = labelBarcodeText(input.customerId, n);
    const modules = code128Modules(text);
    const symbolWidth = modules.reduce((a, b) => a + b, 0) * MODULE + 2 * QUIET;

    centered(page, "Nödetikett", regular, 14, width / 2, height - 50);
    centered(page, String(n).padStart(4, "0"), bold, 110, width / 2, height - 170);
    centered(page, `Kund ${input.customerId} – ${input.customerName}`, regular, 12, width / 2, height - 195);

    // Six barcodes: two columns, three rows.
    const colCenters = [width / 4, (3 * width) / 4];
    const rowTops = [height - 240, height - 440, height - 640];
    for (const top of rowTops) {
      for (const cx of colCenters) {
        drawBarcode(page, modules, cx - symbolWidth / 2, top - BAR_HEIGHT);
        centered(page, text, regular, 11, cx, top - BAR_HEIGHT - 16);
      }
    }
  }
  return doc.save();
}
