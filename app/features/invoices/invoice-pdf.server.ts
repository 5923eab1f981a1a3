// The invoice as an A4 PDF, rendered on demand from the stored invoice (DESIGN.md
// "Invoicing"): customer, period, lines, VAT per rate, total and due date.
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { getInvoiceDocument, PAPER_TYPE_NAMES, type InvoiceDocument } from "./invoices.server";
import { formatKr, formatOre } from "~/lib/money";


const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const black = rgb(0, 0, 0);
const grey = rgb(0.35, 0.35, 0.35);

function percent(vatPermille: number): string {
  return `${(vatPermille / 10).toLocaleString("sv-SE")} %`;
}

/** Cuts text to fit `width` (descriptions are one line each). */
function fit(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let t = text;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

// pdf-lib's standard fonts use WinAnsi: replace what it cannot encode (e.g. "–" is fine, "−" is not).
function safe(text: string): string {
  return text.replace(/\u2212/g, "-").replace(/[\u202f\u2009]/g, " ").replace(/[^\u0000-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u20ac]/g, "?");
}

export async function buildInvoicePdf(docData: InvoiceDocument): Promise<Uint8Array> {
  const { invoice, customer, lines } = docData;
  const doc = await PDFDocument.create();
  doc.setTitle(`Faktura ${invoice.number}`);
  doc.setCreator("Returportalen");
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [width, height] = A4;

  let page: PDFPage = doc.addPage(A4);
  let y = height - MARGIN;
  const text = (s: string, x: number, yy: number, size = 10, font = regular, color = black) =>
    page.drawText(safe(s), { x, y: yy, size, font, color });
  const right = (s: string, xRight: number, yy: number, size = 10, font = regular) =>
    text(s, xRight - font.widthOfTextAtSize(safe(s), size), yy, size, font);

  text("Faktura", MARGIN, y - 10, 22, bold);
  text("Returportalen", width - MARGIN - bold.widthOfTextAtSize("Returportalen", 12), y - 6, 12, bold);
  y -= 50;

  const facts: [string, string][] = [
    ["Fakturanummer", String(invoice.number)],
    ["Fakturadatum", invoice.date],
    ["Förfallodatum", invoice.dueDate],
    ["Period", `${invoice.periodFrom} – ${invoice.periodTo}`],
    ["Avser", PAPER_TYPE_NAMES[invoice.paperType] ?? String(invoice.paperType)],
    ["Kundnummer", String(customer.id)],
    ["Status", invoice.status],
  ];
  let fy = y;
  for (const [k, v] of facts) {
    text(k, width / 2 + 20, fy, 10, bold);
    text(v, width / 2 + 120, fy);
    fy -= 14;
  }
  const address = [customer.name, customer.coAddress ? `c/o ${customer.coAddress}` : "", customer.address, `${customer.zip} ${customer.city}`.trim(), customer.orgNumber ? `Org.nr ${customer.orgNumber}` : ""].filter(Boolean);
  let ay = y;
  for (const [i, line] of address.entries()) {
    text(line, MARGIN, ay, i === 0 ? 11 : 10, i === 0 ? bold : regular);
    ay -= 14;
  }
  y = Math.min(fy, ay) - 24;

  const cols = { desc: MARGIN, qty: 350, price: 420, vat: 470, net: width - MARGIN };
  const header = () => {
    text("Beskrivning", cols.desc, y, 9, bold);
    right("Antal", cols.qty, y, 9, bold);
    right("À-pris", cols.price, y, 9, bold);
    right("Moms", cols.vat, y, 9, bold);
    right("Belopp", cols.net, y, 9, bold);
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: width - MARGIN, y }, thickness: 0.5, color: grey });
    y -= 13;
  };
  header();
  for (const line of lines) {
    if (y < MARGIN + 120) {
      page = doc.addPage(A4);
      y = height - MARGIN;
      text(`Faktura ${invoice.number} (forts.)`, MARGIN, y, 10, bold);
      y -= 24;
      header();
    }
    text(fit(safe(line.description), regular, 9, cols.qty - cols.desc - 40), cols.desc, y, 9);
    right(String(line.quantity), cols.qty, y, 9);
    right(formatOre(line.unitPriceOre), cols.price, y, 9);
    right(percent(line.vatPermille), cols.vat, y, 9);
    right(formatOre(line.netOre), cols.net, y, 9);
    y -= 13;
  }
  y -= 4;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: width - MARGIN, y }, thickness: 0.5, color: grey });
  y -= 16;

  // VAT per rate, from the lines; the totals are the invoice's own stored amounts.
  const perRate = new Map<number, number>();
  for (const l of lines) perRate.set(l.vatPermille, (perRate.get(l.vatPermille) ?? 0) + l.netOre);
  right("Summa exkl. moms", cols.vat, y, 10);
  right(formatKr(invoice.netOre), cols.net, y, 10);
  y -= 14;
  for (const [rate, net] of [...perRate.entries()].sort((a, b) => a[0] - b[0])) {
    right(`Moms ${percent(rate)} på ${formatKr(net)}`, cols.vat, y, 10);
    right(formatKr(Math.round((net * rate) / 1000)), cols.net, y, 10);
    y -= 14;
  }
  right("Moms totalt", cols.vat, y, 10);
  right(formatKr(invoice.vatOre), cols.net, y, 10);
  y -= 18;
  right("Att betala", cols.vat, y, 12, bold);
  right(formatKr(invoice.amountOre), cols.net, y, 12, bold);
  y -= 30;
  text(`Betala senast ${invoice.dueDate}. Ange fakturanummer ${invoice.number} vid betalning.`, MARGIN, y, 10);
  return doc.save();
}

/**
 * The PDF of invoice `invoiceNumber` if it belongs to `customerId`, else null.
 * Refuses ("conflict") when the stored invoice cannot be printed.
 */
export async function renderInvoicePdf(invoiceNumber: number, customerId: number): Promise<Uint8Array | null> {
  const data = await getInvoiceDocument(invoiceNumber, customerId);
  return data ? buildInvoicePdf(data) : null;
}
