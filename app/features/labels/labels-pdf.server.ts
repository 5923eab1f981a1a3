// Emergency bundle labels (spec 2.7, 9): A4, one page per bundle number, six
// CODE128 barcodes per page and the bundle number padded to 4 digits in large type.
//
// The bars come from the PDF kit (bwip-js module widths drawn as rectangles). BWIPP
// picks code set C by itself for an all-digit text of even length (10 digits here);
// the unit test checks the start symbol is Start C. Text goes through the kit's
// Unicode font, so any customer name prints.
import { A4, code128Modules, barcodeWidth, createPdf, drawBarcode, drawText, type BarcodeStyle } from "~/pdf/index.server";
import { labelBarcodeText } from "./labels.server";

export { code128Modules };

const BAR: BarcodeStyle = { module: 1.8 /* 0.635 mm */, height: 90, quiet: 18 };

export async function renderLabelsPdf(input: {
  customerId: number;
  customerName: string;
  fromNumber: number;
  toNumber: number;
}): Promise<Uint8Array> {
  const pdf = await createPdf("Nödetiketter");
  const { regular, bold } = pdf;
  const [width, height] = A4;
  const cx = width / 2;

  for (let n = input.fromNumber; n <= input.toNumber; n++) {
    const page = pdf.doc.addPage(A4);
    const text = labelBarcodeText(input.customerId, n);
    const modules = await code128Modules(text);
    const symbolWidth = barcodeWidth(modules, BAR);

    drawText(page, "Nödetikett", { x: cx, y: height - 50, size: 14, font: regular, align: "center" });
    // The number as every page shows it ("101", not "0101").
    drawText(page, String(n), { x: cx, y: height - 170, size: 110, font: bold, align: "center" });
    drawText(page, `Kund ${input.customerId} – ${input.customerName}`, { x: cx, y: height - 195, size: 12, font: regular, align: "center", maxWidth: width - 80 });

    // Six barcodes: two columns, three rows.
    const colCenters = [width / 4, (3 * width) / 4];
    const rowTops = [height - 240, height - 440, height - 640];
    for (const top of rowTops) {
      for (const x of colCenters) {
        drawBarcode(page, modules, x - symbolWidth / 2, top - BAR.height, BAR);
        drawText(page, text, { x, y: top - BAR.height - 16, size: 11, font: regular, align: "center" });
      }
    }
  }
  return pdf.save();
}
