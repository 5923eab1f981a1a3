// The invoice as an A4 PDF, rendered on demand from the stored invoice: the seller (name,
// address, organisationsnummer, momsregistreringsnummer, F-skatt), the customer, period,
// lines, VAT per rate with its base, total, due date, and where and how to pay (bankgiro
// and the OCR reference). Drawn with the PDF kit: any customer name prints as it is
// stored, amounts in Swedish format.
import { PAPER_TYPE_HEADING } from "~/catalog";
import { config, type Seller } from "~/config.server";
import { refuse } from "~/lib/refusal";
import { ocrReference } from "./ocr";
import { vatPerRate } from "~/lib/money";
import { rgb } from "~/pdf/color";
import { A4, createPdf, drawText, formatKr, formatNumber, formatOre, formatPermille, pageFrame, rule, tableRow, wrap, type Column, type KitFont } from "~/pdf/index.server";
import { getInvoiceDocument, type InvoiceDocument } from "./invoices.server";
import type { InvoiceSpecification, SpecificationPaper } from "./invoice-specification.server";
import { CREDIT_NOTE_TEXTS, getCreditNoteDocument } from "./credit-notes.server";


const MARGIN = 50;
const grey = rgb(0.35, 0.35, 0.35);

/**
 * The invoice's PDF from its stored record (decision 021): the same bytes every time it is
 * made. The seller is the one stored with the invoice; only an invoice made before sellers
 * were stored (migration 0016) prints `fallbackSeller`, the configured one.
 */
/** A credit note drawn as the invoice is, with its own title, facts and closing words (decision 032). */
type Variant = { title: string; facts: [string, string][]; total: string; closing: string[] };

export async function buildInvoicePdf(docData: InvoiceDocument, fallbackSeller: Seller | null = config.seller, variant?: Variant): Promise<Uint8Array> {
  const { invoice, customer, lines } = docData;
  const seller = invoice.seller ?? fallbackSeller;
  const credits = invoice.credits ?? [];
  // Production without SELLER_* (a tool, not the server, which refuses to start so): no invoice without its sender.
  if (!seller) throw refuse.conflict("Säljarens uppgifter (SELLER_*) saknas: fakturan kan inte skrivas ut.");
  const ocr = ocrReference(invoice.number);
  const title = variant?.title ?? "Faktura";
  const pdf = await createPdf(`${title} ${invoice.number}`, new Date(invoice.createdAt));
  const { regular, bold } = pdf;
  const cols = { desc: MARGIN, qty: 350, price: 420, vat: 470 };
  const table: Column[] = [
    { x: cols.desc, width: cols.qty - cols.desc - 40, pad: 0 },
    { x: cols.qty - 40, width: 40, align: "right", pad: 0 },
    { x: cols.price - 70, width: 70, align: "right", pad: 0 },
    { x: cols.vat - 50, width: 50, align: "right", pad: 0 },
    { x: cols.vat, width: A4[0] - MARGIN - cols.vat, align: "right", pad: 0 },
  ];
  const header = () => {
    tableRow(frame, table, ["Beskrivning", "Antal", "À-pris", "Moms", "Belopp"], { font: bold, size: 9, height: 6 });
    rule(frame, { color: grey });
    frame.y -= 13;
  };
  const frame = pageFrame(pdf, {
    margin: MARGIN,
    onNewPage: (f) => {
      drawText(f.page, `${title} ${invoice.number} (forts.)`, { x: MARGIN, y: f.y, size: 10, font: bold });
      f.y -= 24;
      continued();
    },
  });
  /** What a new page repeats under its title: the lines' header, then the appendix's. */
  let continued = header;
  const { width } = frame;
  const text = (s: string, x: number, y: number, size = 10, font: KitFont = regular) => drawText(frame.page, s, { x, y, size, font });
  const right = (s: string, xRight: number, y: number, size = 10, font: KitFont = regular) => drawText(frame.page, s, { x: xRight, y, size, font, align: "right" });

  text(title, MARGIN, frame.y - 10, 22, bold);
  right(seller.name, frame.right, frame.y - 6, 12, bold);
  right(seller.address, frame.right, frame.y - 20, 9, regular);
  frame.y -= 50;

  const facts: [string, string][] = variant?.facts ?? [
    ["Fakturanummer", String(invoice.number)],
    ["Fakturadatum", invoice.date],
    ["Förfallodatum", invoice.dueDate],
    ["Period", `${invoice.periodFrom} – ${invoice.periodTo}`],
    ["Avser", PAPER_TYPE_HEADING[invoice.paperType] ?? String(invoice.paperType)],
    ["Kundnummer", String(customer.id)],
    ["OCR-nummer", ocr],
    ["Status", invoice.status],
  ];
  let fy = frame.y;
  for (const [k, v] of facts) {
    text(k, width / 2 + 20, fy, 10, bold);
    drawText(frame.page, v, { x: width / 2 + 120, y: fy, size: 10, font: regular, maxWidth: frame.right - width / 2 - 120 });
    fy -= 14;
  }
  // The address block stops short of the facts; a long name or street wraps.
  const addressWidth = width / 2 - MARGIN;
  const address = [customer.name, customer.coAddress ? `c/o ${customer.coAddress}` : "", customer.address, `${customer.zip} ${customer.city}`.trim(), customer.orgNumber ? `Org.nr ${customer.orgNumber}` : ""].filter(Boolean);
  let ay = frame.y;
  for (const [i, line] of address.entries()) {
    const size = i === 0 ? 11 : 10;
    const font = i === 0 ? bold : regular;
    for (const part of wrap(line, font, size, addressWidth)) {
      text(part, MARGIN, ay, size, font);
      ay -= 14;
    }
  }
  frame.y = Math.min(fy, ay) - 24;

  header();
  for (const line of lines) {
    frame.ensure(120);
    // A long description (a settlement naming its period and invoice) wraps, never cut.
    const [first, ...rest] = wrap(line.description, regular, 9, table[0].width);
    tableRow(frame, table, [first ?? "", formatNumber(line.quantity), formatOre(line.unitPriceOre), formatPermille(line.vatPermille), formatOre(line.netOre)], { font: regular, size: 9, height: 11 + (rest.length === 0 ? 2 : 0) });
    rest.forEach((part, i) => tableRow(frame, table, [part], { font: regular, size: 9, height: i === rest.length - 1 ? 13 : 11 }));
  }
  frame.y -= 4;
  rule(frame, { color: grey });
  frame.y -= 16;

  // VAT per rate on the rate's base, as the run computed it (decision 030); the totals are
  // the invoice's own stored amounts.
  const total = (label: string, amountOre: number, size = 10, font: KitFont = regular, step = 14) => {
    right(label, cols.vat, frame.y, size, font);
    right(formatKr(amountOre), frame.right, frame.y, size, font);
    frame.y -= step;
  };
  total("Summa exkl. moms", invoice.netOre);
  for (const rate of vatPerRate(lines)) total(`Moms ${formatPermille(rate.vatPermille)} på ${formatKr(rate.baseOre)}`, rate.vatOre);
  total("Moms totalt", invoice.vatOre, 10, regular, 18);
  // More credited than billed: nothing to pay, the amount is the customer's to have.
  const owed = invoice.amountOre >= 0;
  if (variant) total(variant.total, invoice.amountOre, 12, bold, 30);
  else total(owed ? "Att betala" : "Att få tillgodo", owed ? invoice.amountOre : -invoice.amountOre, 12, bold, 30);
  // Where and how to pay.
  frame.ensure(90);
  text(variant ? "Kreditering" : "Betalning", MARGIN, frame.y, 11, bold);
  frame.y -= 15;
  for (const line of variant
    ? variant.closing
    : owed
      ? [`Betala ${formatKr(invoice.amountOre)} till bankgiro ${seller.bankgiro} senast ${invoice.dueDate}.`, `Ange OCR-nummer ${ocr} som referens vid betalningen.`]
      : [`Ingenting att betala: ${formatKr(-invoice.amountOre)} är ert tillgodo.`]) {
    drawText(frame.page, line, { x: MARGIN, y: frame.y, size: 10, font: regular, maxWidth: frame.right - MARGIN });
    frame.y -= 14;
  }
  // The seller's registration, as every invoice must state it.
  frame.y -= 10;
  const registration = [seller.name, seller.address, `Org.nr ${seller.orgNumber}`, `Momsreg.nr ${seller.vatNumber}`, seller.fSkatt ? "Godkänd för F-skatt" : ""].filter(Boolean).join(" · ");
  for (const part of wrap(registration, regular, 8, frame.right - MARGIN)) {
    drawText(frame.page, part, { x: MARGIN, y: frame.y, size: 8, font: regular, color: grey });
    frame.y -= 11;
  }

  // The returned copies this invoice credited, per bundle (the lines above
  // are already net of them), so a retailer can tick off each bundle sent back.
  if (credits.length > 0) {
    frame.y -= 30;
    frame.ensure(80);
    text("Krediterade returer per bunt", MARGIN, frame.y, 11, bold);
    frame.y -= 18;
    const creditCols: Column[] = [
      { x: MARGIN, width: 120, pad: 0 },
      { x: MARGIN + 120, width: 80, align: "right", pad: 0 },
      { x: MARGIN + 200, width: 110, align: "right", pad: 0 },
    ];
    tableRow(frame, creditCols, ["Bunt", "Exemplar", "Värde exkl. moms"], { font: bold, size: 9, height: 13 });
    for (const c of credits) {
      frame.ensure(40);
      tableRow(frame, creditCols, [`Bunt ${c.bundle}`, formatNumber(c.copies), formatOre(c.valueOre)], { font: regular, size: 9, height: 13 });
    }
    const copies = credits.reduce((sum, c) => sum + c.copies, 0);
    const value = credits.reduce((sum, c) => sum + c.valueOre, 0);
    tableRow(frame, creditCols, ["Totalt", formatNumber(copies), formatOre(value)], { font: bold, size: 9, height: 13 });
  }
  if (docData.specification) drawSpecification(docData.specification);
  return pdf.save();

  /**
   * What the sold lines are made of (decision 038): per paper and price the copies delivered,
   * returned, claimed and sold; then, on pages of their own, day by day as on the delivery
   * notes, and the returns of earlier periods this invoice settles.
   */
  function drawSpecification(spec: InvoiceSpecification) {
    const heading = (s: string) => {
      frame.ensure(80);
      text(s, MARGIN, frame.y, 11, bold);
      frame.y -= 18;
    };
    /** Columns from x0: the first `words` of them text, the rest numbers. */
    const numbersAt = (x0: number, labels: string[], widths: number[], words = 1): Column[] => {
      let x = x0;
      return labels.map((_, i) => {
        const col: Column = { x, width: widths[i], align: i < words ? "left" : "right", pad: 0 };
        x += widths[i];
        return col;
      });
    };
    frame.y -= 30;
    heading("Specifikation per tidning");
    const perPaper = ["Tidning", "À-pris", "Levererat", "Returer", ...(spec.claims ? ["Reklamerat"] : []), "Sålda"];
    const paperCols = numbersAt(MARGIN, perPaper, [170, 60, 70, 60, ...(spec.claims ? [70] : []), 60]);
    tableRow(frame, paperCols, perPaper, { font: bold, size: 9, height: 13 });
    for (const p of spec.papers) {
      frame.ensure(40);
      tableRow(frame, paperCols, [p.paper, formatOre(p.priceOre), formatNumber(p.delivered), formatNumber(p.returned), ...(spec.claims ? [formatNumber(p.claimed)] : []), formatNumber(p.sold)], { font: regular, size: 9, height: 13 });
    }
    const sum = (f: (p: SpecificationPaper) => number) => formatNumber(spec.papers.reduce((s, p) => s + f(p), 0));
    tableRow(frame, paperCols, ["Totalt", "", sum((p) => p.delivered), sum((p) => p.returned), ...(spec.claims ? [sum((p) => p.claimed)] : []), sum((p) => p.sold)], { font: bold, size: 9, height: 13 });
    if (spec.claims) {
      drawText(frame.page, "Reklamerade exemplar krediteras på egna rader ovan.", { x: MARGIN, y: frame.y - 4, size: 8, font: regular, color: grey });
      frame.y -= 16;
    }

    // The days on a page of their own: the appendix a shop lays beside its delivery notes.
    const perDay = ["Datum", "Tidning", "À-pris", "Levererat", "Returer", "Sålda"];
    const dayCols = numbersAt(MARGIN, perDay, [80, 170, 60, 70, 60, 60], 2);
    continued = () => tableRow(frame, dayCols, perDay, { font: bold, size: 9, height: 13 });
    frame.newPage();
    heading(`Bilaga till ${title.toLowerCase()} ${invoice.number}: dag för dag ${invoice.periodFrom} – ${invoice.periodTo}`);
    tableRow(frame, dayCols, perDay, { font: bold, size: 9, height: 13 });
    for (const d of spec.days) {
      frame.ensure(40);
      tableRow(frame, dayCols, [d.date, d.paper, formatOre(d.priceOre), formatNumber(d.delivered), formatNumber(d.returned), formatNumber(d.sold)], { font: regular, size: 9, height: 13 });
    }
    if (spec.days.length === 0) tableRow(frame, dayCols, ["Inga leveranser under perioden."], { font: regular, size: 9, height: 13 });
    if (spec.later.length > 0) {
      frame.y -= 20;
      heading("Returer från tidigare perioder som krediteras på denna faktura");
      const laterHead = ["Utgivningsdag", "Tidning", "Bunt", "Exemplar"];
      const laterCols = numbersAt(MARGIN, laterHead, [80, 170, 60, 70], 3);
      continued = () => tableRow(frame, laterCols, laterHead, { font: bold, size: 9, height: 13 });
      tableRow(frame, laterCols, laterHead, { font: bold, size: 9, height: 13 });
      for (const x of spec.later) {
        frame.ensure(40);
        tableRow(frame, laterCols, [x.date, x.paper, `Bunt ${x.bundle}`, formatNumber(x.copies)], { font: regular, size: 9, height: 13 });
      }
    }
  }
}

/**
 * The PDF of invoice `invoiceNumber` if it belongs to `customerId`, else null.
 * Refuses ("conflict") when the stored invoice cannot be printed.
 */
export async function renderInvoicePdf(invoiceNumber: number, customerId: number): Promise<Uint8Array | null> {
  const data = await getInvoiceDocument(invoiceNumber, customerId);
  if (!data) return null;
  return buildInvoicePdf(data);
}

/**
 * Credit note `number` of the customer's as a PDF (decision 032), or null: drawn as the
 * invoice is, titled Kreditfaktura, naming the invoice it credits and its date, from the
 * stored record only.
 */
export async function renderCreditNotePdf(number: number, customerId: number): Promise<Uint8Array | null> {
  const doc = await getCreditNoteDocument(number, customerId);
  if (!doc) return null;
  const { note, invoice } = doc;
  const asInvoice = {
    invoice: { ...note, dueDate: note.date, periodFrom: invoice.periodFrom, periodTo: invoice.periodTo, status: "Kreditfaktura", credits: [] },
    customer: doc.customer,
    lines: doc.lines,
  } as unknown as InvoiceDocument;
  const creditOf = CREDIT_NOTE_TEXTS.creditOf(invoice.number, invoice.date);
  return buildInvoicePdf({ ...asInvoice, invoice: { ...asInvoice.invoice, seller: doc.seller } }, config.seller, {
    title: "Kreditfaktura",
    facts: [
      ["Kreditfaktura nr", String(note.number)],
      ["Datum", note.date],
      ["Avser faktura", `${invoice.number} (${invoice.date})`],
      ["Period", `${invoice.periodFrom} – ${invoice.periodTo}`],
      ["Avser", PAPER_TYPE_HEADING[note.paperType] ?? String(note.paperType)],
      ["Kundnummer", String(doc.customer.id)],
    ],
    total: "Att kreditera",
    closing: [`${creditOf}.`, `Orsak: ${note.reason}`, `${formatKr(-note.amountOre)} krediteras er; ingenting att betala.`],
  });
}
