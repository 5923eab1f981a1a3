// The page frame: an A4 page with margins and a cursor `y` that runs down the page.
// `ensure(h)` starts a new page when fewer than `h` points are left above the bottom
// margin, and runs the document's continuation header (`onNewPage`) there.
import type { PDFPage } from "pdf-lib";
import { A4, type Pdf } from "./document.server";

export type Frame = {
  readonly pdf: Pdf;
  page: PDFPage;
  /** The cursor: the baseline or top of what is drawn next, in points from the bottom. */
  y: number;
  readonly margin: number;
  readonly width: number;
  readonly height: number;
  /** x of the left and right margin. */
  readonly left: number;
  readonly right: number;
  /** Top of the writing area (the height less the top margin). */
  readonly top: number;
  newPage(): PDFPage;
  /** A new page (with the continuation header) unless `needed` points fit above the bottom margin. */
  ensure(needed: number): void;
};

export function pageFrame(pdf: Pdf, options: { margin: number; size?: [number, number]; onNewPage?: (frame: Frame) => void }): Frame {
  const [width, height] = options.size ?? A4;
  const { margin } = options;
  const frame: Frame = {
    pdf,
    page: pdf.doc.addPage([width, height]),
    y: height - margin,
    margin,
    width,
    height,
    left: margin,
    right: width - margin,
    top: height - margin,
    newPage() {
      frame.page = pdf.doc.addPage([width, height]);
      frame.y = height - margin;
      return frame.page;
    },
    ensure(needed) {
      if (frame.y - needed < margin) {
        frame.newPage();
        options.onNewPage?.(frame);
      }
    },
  };
  return frame;
}
