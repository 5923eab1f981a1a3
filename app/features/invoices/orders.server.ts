// Uploaded order files (Exponeringsutrustning): one row per customer, order date,
// article and ledger. The staff upload on Fakturering and the CLI `import orders`
// both use parseOrdersFile + applyOrders, so a file obeys the same rules either way.
//   customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger
// price is öre (integer), dates YYYY-MM-DD, ledger 80 (Expressen) or 83 (Aftonbladet).
// The file may be UTF-8 (with or without BOM) or Windows-1252 (Excel on a Swedish
// Windows), with `;` or `,` between fields. Every bad line is reported at once — the
// file's own problems and the database's (unknown customers, lines already invoiced) —
// and a file is imported whole or not at all.
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { column, csvRow } from "~/lib/csv-columns";
import { decodeTextFile, parseCsv, type CsvProblem } from "~/lib/csv.server";
import { refusalDetail, refuse } from "~/lib/refusal";
import { cleanUploadName } from "~/lib/form-fields";
import { z } from "~/lib/zod";
import { portalNow } from "../../../db/clock";

export const ORDER_COLUMNS = ["customerNumber", "orderDate", "articleNumber", "articleDescription", "amount", "price", "ledger"] as const;
export const MAX_ORDER_ROWS = 50_000;

export type OrderRow = {
  line: number;
  customerId: number;
  orderDate: string;
  articleNumber: string;
  articleDescription: string;
  amount: number;
  priceOre: number;
  ledger: 80 | 83;
};

const OrderFileRow = z
  .object({
    customerNumber: column.int(1, 99999),
    orderDate: column.date(),
    articleNumber: column.text(40, true),
    articleDescription: column.text(200, true),
    amount: column.int(-99999, 99999),
    price: column.int(0, 100_000_000),
    ledger: column.oneOf([80, 83] as const, "80 eller 83"),
  })
  .transform(
    (v): Omit<OrderRow, "line"> => ({
      customerId: v.customerNumber,
      orderDate: v.orderDate,
      articleNumber: v.articleNumber,
      articleDescription: v.articleDescription,
      amount: v.amount,
      priceOre: v.price,
      ledger: v.ledger,
    }),
  );

export function parseOrdersFile(text: string): { rows: OrderRow[]; problems: CsvProblem[] } {
  const table = parseCsv(text, ORDER_COLUMNS, { delimiters: [";", ","] });
  const problems = [...table.problems];
  const rows: OrderRow[] = [];
  if (table.rows.length > MAX_ORDER_ROWS) {
    return { rows: [], problems: [{ line: MAX_ORDER_ROWS + 2, column: "-", reason: `fler än ${MAX_ORDER_ROWS} rader` }] };
  }
  const seen = new Map<string, number>();
  for (const { line, values } of table.rows) {
    const { row, problems: broken } = csvRow(OrderFileRow, values, line);
    problems.push(...broken);
    if (!row) continue;
    const key = `${row.customerId}|${row.orderDate}|${row.articleNumber}|${row.ledger}`;
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ line, column: "-", reason: `samma kund, datum, artikel och reskontra som rad ${first}` });
      continue;
    }
    seen.set(key, line);
    rows.push(row);
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows, problems };
}

/** The refusal of a file whose lines break the rules; its lines travel in `detail`. */
function ordersRefused(problems: CsvProblem[]) {
  return refuse.invalid(`Filen har felaktiga rader: ${problems.map((p) => `rad ${p.line}: ${p.column}: ${p.reason}`).join("; ")}`, { field: "file", detail: ORDER_LINES.carry(problems) });
}

/** The lines a file was refused for, carried by its refusal. */
const ORDER_LINES = refusalDetail<CsvProblem[]>("order-lines");

/** The lines applyOrders refused a file for, or null when `e` is not that refusal. */
export function refusedOrderLines(e: unknown): CsvProblem[] | null {
  return ORDER_LINES.of(e);
}

/**
 * What the database says against rows that parsed: customers that do not exist and
 * lines already invoiced, by line. Two queries per 500 customers.
 */
export async function orderRowProblems(rows: OrderRow[], db: Db | Tx = getDb()): Promise<CsvProblem[]> {
  const problems: CsvProblem[] = [];
  const ids = [...new Set(rows.map((r) => r.customerId))];
  const known = new Set<number>();
  const locked = new Set<string>();
  const o = schema.orderLines;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const found = await db.select({ id: schema.customers.id }).from(schema.customers).where(inArray(schema.customers.id, chunk));
    for (const f of found) known.add(f.id);
    const invoiced = await db
      .select({ customerId: o.customerId, orderDate: o.orderDate, articleNumber: o.articleNumber, ledger: o.ledger })
      .from(o)
      .where(and(sql`${o.invoiceId} is not null`, inArray(o.customerId, chunk)));
    for (const x of invoiced) locked.add(`${x.customerId}|${x.orderDate}|${x.articleNumber}|${x.ledger}`);
  }
  for (const r of rows) {
    if (!known.has(r.customerId)) problems.push({ line: r.line, column: "customerNumber", reason: `kund ${r.customerId} finns inte` });
    else if (locked.has(`${r.customerId}|${r.orderDate}|${r.articleNumber}|${r.ledger}`)) problems.push({ line: r.line, column: "-", reason: "raden är redan fakturerad" });
  }
  return problems.sort((a, b) => a.line - b.line);
}

export const NOT_A_CSV_FILE = "Fel: Endast CSV-filer (.csv) kan laddas upp.";

/**
 * Reads an order file's bytes and checks every line at once: the file's own rules and
 * the database's. Nothing is written. Refused (invalid, on the file): an uploaded name
 * that is not .csv or .txt, bytes that are no text file, or lines that break the rules (all of them, in `detail`, as applyOrders's
 * refusal: refusedOrderLines reads both).
 */
export async function checkOrdersFile(bytes: Uint8Array, fileName?: string): Promise<{ rows: OrderRow[]; encoding: "utf-8" | "windows-1252" }> {
  // An upload's name says what it is meant to be (the CLI reads any name); the content decides the rest.
  if (fileName !== undefined && !/\.(csv|txt)$/i.test(fileName)) throw refuse.invalid(NOT_A_CSV_FILE, { field: "file" });
  const decoded = decodeTextFile(bytes);
  if (!decoded) throw refuse.invalid(NOT_A_CSV_FILE, { field: "file" });
  const parsed = parseOrdersFile(decoded.text);
  // A header that is wrong makes every line meaningless: report it alone.
  if (parsed.problems.some((p) => p.line === 1)) throw ordersRefused(parsed.problems);
  const problems = [...parsed.problems, ...(await orderRowProblems(parsed.rows))].sort((a, b) => a.line - b.line || a.column.localeCompare(b.column));
  if (problems.length > 0) throw ordersRefused(problems);
  return { rows: parsed.rows, encoding: decoded.encoding };
}

/**
 * Applies parsed rows in one transaction as a new order file, upserting by
 * (customer, orderDate, articleNumber, ledger). Unknown customers and lines
 * already invoiced are refused by line, and then nothing is applied.
 */
export async function applyOrders(rows: OrderRow[], uploadName: string, actor: Actor): Promise<{ fileId: number; count: number }> {
  const filename = cleanUploadName(uploadName, "bestallningar.csv");
  return writeTransaction(async (tx) => {
    const o = schema.orderLines;
    const problems = await orderRowProblems(rows, tx);
    if (problems.length > 0) throw ordersRefused(problems);
    const [file] = await tx.insert(schema.orderFiles).values({ filename, rowCount: rows.length, uploadedBy: actor.id }).returning({ id: schema.orderFiles.id });
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(o)
        .values(
          rows.slice(i, i + 500).map((r) => ({
            fileId: file.id,
            customerId: r.customerId,
            orderDate: r.orderDate,
            articleNumber: r.articleNumber,
            articleDescription: r.articleDescription,
            amount: r.amount,
            priceOre: r.priceOre,
            ledger: r.ledger,
          })),
        )
        .onConflictDoUpdate({
          target: [o.customerId, o.orderDate, o.articleNumber, o.ledger],
          set: {
            fileId: sql`excluded.file_id`,
            articleDescription: sql`excluded.article_description`,
            amount: sql`excluded.amount`,
            priceOre: sql`excluded.price_ore`,
            updatedAt: portalNow(),
          },
        });
    }
    await audit({ actor, action: "orders.import", target: `order-file:${file.id}`, detail: { filename, rows: rows.length } }, tx);
    return { fileId: file.id, count: rows.length };
  });
}

/** The order lines not yet invoiced, grouped by file (newest file first). */
export async function listOrderFiles() {
  const o = schema.orderLines;
  const f = schema.orderFiles;
  const rows = await getDb()
    .select({
      fileId: f.id,
      filename: f.filename,
      uploadedAt: f.createdAt,
      id: o.id,
      customerId: o.customerId,
      orderDate: o.orderDate,
      articleNumber: o.articleNumber,
      articleDescription: o.articleDescription,
      amount: o.amount,
      priceOre: o.priceOre,
      ledger: o.ledger,
      transferredAt: o.transferredAt,
    })
    .from(o)
    .innerJoin(f, eq(f.id, o.fileId))
    .where(isNull(o.invoiceId))
    .orderBy(desc(f.id), asc(o.customerId), asc(o.orderDate), asc(o.id));
  const files: { fileId: number; filename: string; uploadedAt: number; lines: Omit<(typeof rows)[number], "fileId" | "filename" | "uploadedAt">[] }[] = [];
  for (const { fileId, filename, uploadedAt, ...line } of rows) {
    let file = files[files.length - 1];
    if (!file || file.fileId !== fileId) files.push((file = { fileId, filename, uploadedAt, lines: [] }));
    file.lines.push(line);
  }
  return files;
}

/** Hands every uploaded line not yet transferred to the next invoice run. */
export async function transferOrders(actor: Actor): Promise<number> {
  return writeTransaction(async (tx) => {
    const o = schema.orderLines;
    const done = await tx
      .update(o)
      .set({ transferredAt: portalNow(), updatedAt: portalNow() })
      .where(and(isNull(o.transferredAt), isNull(o.invoiceId)))
      .returning({ id: o.id });
    await audit({ actor, action: "orders.transfer", detail: { lines: done.length } }, tx);
    return done.length;
  });
}

export async function deleteOrderLine(id: number, actor: Actor): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const o = schema.orderLines;
    const gone = await tx.delete(o).where(and(eq(o.id, id), isNull(o.invoiceId))).returning();
    if (gone.length === 0) return false;
    await audit({ actor, action: "orders.delete-line", target: `order-line:${id}`, detail: gone[0] }, tx);
    return true;
  });
}

/** Deletes a file's lines that are not invoiced; the file row goes when no line is left. */
export async function deleteOrderFile(fileId: number, actor: Actor): Promise<number> {
  return writeTransaction(async (tx) => {
    const o = schema.orderLines;
    const gone = await tx.delete(o).where(and(eq(o.fileId, fileId), isNull(o.invoiceId))).returning({ id: o.id });
    const [left] = await tx.select({ n: sql<number>`count(*)` }).from(o).where(eq(o.fileId, fileId));
    if (Number(left.n) === 0) await tx.delete(schema.orderFiles).where(eq(schema.orderFiles.id, fileId));
    if (gone.length > 0) await audit({ actor, action: "orders.delete-file", target: `order-file:${fileId}`, detail: { lines: gone.length } }, tx);
    return gone.length;
  });
}
