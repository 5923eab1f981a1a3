// The 'Skriv ut' document of the returns page: an A4 PDF named Returer of the list
// the page shows, with empty boxes to write in for papers not yet reported. Drawn
// with the PDF kit (Unicode font, page frame, table).
import { PAPER_TYPE_HEADING, paperName } from "~/catalog";
import { rgb } from "~/pdf/color";
import { A4, createPdf, drawText, formatDate, formatNumber, pageFrame, rule, tableRow, type Column } from "~/pdf/index.server";
import type { Paper, ReportState } from "./returns.server";

export { A4 };
const MARGIN = 40;
const ROW = 18;

type Col = Column & { title: string; text: (p: Paper) => string };

export async function returnsPdf(input: {
  customer: { id: number; name: string };
  state: ReportState;
  date: string;
  papers: Paper[];
}): Promise<Uint8Array> {
  const pdf = await createPdf("Returer");
  const { regular, bold } = pdf;
  let continued: (() => void) | null = null;
  const frame = pageFrame(pdf, { margin: MARGIN, onNewPage: () => continued?.() });
  const line = (s: string, font = regular, size = 10) => drawText(frame.page, s, { x: MARGIN, y: frame.y, size, font, maxWidth: frame.right - MARGIN });

  line("Returer", bold, 18);
  frame.y -= 22;
  line(`${input.customer.name}, kundnummer ${input.customer.id}`);
  frame.y -= 14;
  line(`${input.state === 1 ? "Orapporterade" : "Rapporterade"} tidningar, utskrivet ${formatDate(input.date)}`);
  frame.y -= 24;

  const returnsText = (p: Paper) => p.returns.map((r) => `${formatNumber(r.amount)} (bunt ${r.bundle})`).join(", ");
  const cols: Col[] = [
    // A main paper's edition with a name of its own (Kvällsposten) in the Utgåva column, as
    // for an insert: the paper as printed (paperName), in the columns the page has room for.
    { title: "Titel", x: MARGIN, width: 90, text: (p) => p.title },
    { title: "Utgåva", x: MARGIN + 90, width: 120, text: (p) => (paperName(p.title, p.edition) === p.title ? "" : p.edition) },
    { title: "Utgivningsdag", x: MARGIN + 210, width: 80, text: (p) => formatDate(p.deliveryDate) },
    { title: "Levererat", x: MARGIN + 290, width: 55, text: (p) => formatNumber(p.delivered) },
    { title: "Bunt", x: MARGIN + 345, width: 60, text: (p) => (input.state === 1 ? "" : [...new Set(p.returns.map((r) => r.bundle))].join(", ")) },
    { title: "Retur", x: MARGIN + 405, width: A4[0] - 2 * MARGIN - 405, text: (p) => (input.state === 1 ? "" : returnsText(p)) },
  ];
  const header = () => {
    tableRow(frame, cols, cols.map((c) => c.title), { font: bold, size: 9, height: 6 });
    rule(frame, { thickness: 0.8 });
    frame.y -= ROW - 6;
  };

  for (const type of [0, 1] as const) {
    const list = input.papers.filter((p) => p.type === type);
    continued = null;
    frame.ensure(4 * ROW);
    line(PAPER_TYPE_HEADING[type], bold, 13);
    frame.y -= 20;
    if (list.length === 0) {
      line("Inget att rapportera");
      frame.y -= 2 * ROW;
      continue;
    }
    header();
    continued = header;
    for (const p of list) {
      frame.ensure(ROW);
      if (input.state === 1) {
        // Boxes to write the bundle number and the returns in.
        for (const c of cols.slice(4)) frame.page.drawRectangle({ x: c.x + 2, y: frame.y - 4, width: 50, height: 14, borderWidth: 0.6, borderColor: rgb(0.3, 0.3, 0.3) });
      }
      tableRow(frame, cols, cols.map((c) => c.text(p)), { font: regular, size: 9, height: ROW });
    }
    frame.y -= ROW;
  }
  return pdf.save();
}

/** One bundle's lines on a slip: the copies of each paper in it. */
export type SlipBundle = { number: number; type: number; open: boolean; total: number; lines: { date: string; title: string; edition: string; amount: number }[] };

/**
 * What was reported, printed (decision 038): the returns slip of a day (every bundle
 * reported into that day) or one bundle's content. Per bundle its papers with publication
 * day and copies, and the bundle's total: what a shop lays in the bundle or keeps as proof.
 */
export async function returnsSlipPdf(input: { customer: { id: number; name: string }; title: string; subtitle: string; bundles: SlipBundle[] }): Promise<Uint8Array> {
  const pdf = await createPdf(input.title);
  const { regular, bold } = pdf;
  let continued: (() => void) | null = null;
  const frame = pageFrame(pdf, { margin: MARGIN, onNewPage: () => continued?.() });
  const line = (s: string, font = regular, size = 10) => drawText(frame.page, s, { x: MARGIN, y: frame.y, size, font, maxWidth: frame.right - MARGIN });
  line(input.title, bold, 18);
  frame.y -= 22;
  line(`${input.customer.name}, kundnummer ${input.customer.id}`);
  frame.y -= 14;
  line(input.subtitle);
  frame.y -= 24;
  const cols: Column[] = [
    { x: MARGIN, width: 90 },
    { x: MARGIN + 90, width: 260 },
    { x: MARGIN + 350, width: 80, align: "right" },
  ];
  const header = () => {
    tableRow(frame, cols, ["Utgivningsdag", "Tidning", "Exemplar"], { font: bold, size: 9, height: 6 });
    rule(frame, { thickness: 0.8 });
    frame.y -= ROW - 6;
  };
  for (const bundle of input.bundles) {
    continued = null;
    frame.ensure(4 * ROW);
    line(`Bunt ${bundle.number} – ${PAPER_TYPE_HEADING[bundle.type] ?? ""}, ${bundle.open ? "öppen" : "stängd"}`, bold, 12);
    frame.y -= 18;
    header();
    continued = header;
    for (const l of bundle.lines) {
      frame.ensure(ROW);
      tableRow(frame, cols, [formatDate(l.date), paperName(l.title, l.edition), formatNumber(l.amount)], { font: regular, size: 9, height: ROW });
    }
    tableRow(frame, cols, ["Totalt", "", formatNumber(bundle.total)], { font: bold, size: 9, height: ROW });
    frame.y -= ROW;
  }
  if (input.bundles.length === 0) line("Inga returer rapporterade.");
  return pdf.save();
}
