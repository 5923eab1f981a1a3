// The PDF kit every document uses (docs/architecture.md): embedded Unicode font,
// text that never throws on a character, Swedish formats, page frame, tables, barcodes.
export { A4, createPdf, type Pdf } from "./document.server";
export { fontFile, type FontFile, type Weight } from "./fonts.server";
export { BLACK, STAND_IN, drawText, fit, printable, widthOf, wrap, type Align, type KitFont, type TextOptions } from "./text.server";
export { pageFrame, type Frame } from "./frame.server";
export { GREY, rule, tableRow, type Column, type RowStyle } from "./table.server";
export { barcodeWidth, code128Modules, drawBarcode, type BarcodeStyle } from "./barcode.server";
export { formatDate, formatKr, formatMonth, formatNumber, formatOre, formatPermille } from "./format";
