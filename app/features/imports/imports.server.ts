// Batch imports of the operators' files (docs/formats.md): distributors, customers,
// editions, deliveries, guarantees and products. Each file is validated as a whole, then
// applied in ONE write transaction, upserting by natural key, so a re-run changes
// nothing and a killed import leaves the database as it was. Existing rows are read
// in bulk and written with multi-row INSERT … ON CONFLICT DO UPDATE in chunks: a
// national day of deliveries is ~23,000 rows. This is the flow; each kind's row, checks
// and writes are its own module (import-<kind>.server.ts), what they share import-rows.server.ts.
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { formatProblem, parseCsv, type CsvProblem } from "~/lib/csv.server";
import { hashSecret } from "~/features/auth/passwords.server";
import { distributorsHandler } from "./import-distributors.server";
import { customersHandler, newPin, type IssuedPin } from "./import-customers.server";
import { editionsHandler } from "./import-editions.server";
import { productsHandler } from "./import-products.server";
import { deliveriesHandler } from "./import-deliveries.server";
import { guaranteesHandler } from "./import-guarantees.server";
import { chunks, inJson, type Handler, type Line } from "./import-rows.server";
import { csvRow } from "~/lib/csv-columns";

export { KNOWN_TITLES } from "./import-editions.server";
export { newPin, type IssuedPin };

export const IMPORT_KINDS = ["distributors", "customers", "editions", "deliveries", "guarantees", "products"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const IMPORT_COLUMNS: Record<ImportKind, readonly string[]> = {
  distributors: ["distributor_id", "name"],
  customers: ["customer_id", "name", "address", "zip", "city", "distributor_id", "phone", "email"],
  editions: ["title_id", "edition_id", "type", "description", "code"],
  deliveries: ["customer_id", "title_id", "edition_id", "delivery_date", "delivered", "price_ore"],
  guarantees: ["customer_id", "ledger", "amount_ore"],
  // Dagens produkter: what is for sale, from when to when, at what price. The only way a
  // daily product is made or priced (a description never does it).
  products: ["title_id", "edition_id", "start_date", "end_date", "heading", "description", "price_ore", "ean_code"],
};


export type ImportOptions = {
  /** "cli", "staff:7": written to the audit row. */
  actor: Actor;
  /** The file name, for the audit row. */
  source: string;
  dryRun?: boolean;
  skipInvalid?: boolean;
  /** customers only: new customers get a random 6-digit PIN. */
  issuePins?: boolean;
  /**
   * Called inside the transaction with the PINs just issued, before commit; if it
   * throws, nothing is applied (so the PINs are never lost while the hashes stay).
   */
  onPinsIssued?: (pins: IssuedPin[]) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
};


export type ImportResult = {
  kind: ImportKind;
  rows: number;
  created: number;
  changed: number;
  unchanged: number;
  skipped: number;
  problems: CsvProblem[];
  /** False when a bad row (without --skip-invalid), a header problem or --dry-run kept the file out. */
  applied: boolean;
  pinsIssued: number;
};

export { formatProblem };


/** Hashes in small concurrent batches: scrypt runs on libuv's thread pool. */
async function hashPins(ids: number[], onProgress?: (done: number, total: number) => void) {
  const out = new Map<number, { pin: string; hash: string }>();
  for (const part of chunks(ids, 8)) {
    await Promise.all(
      part.map(async (id) => {
        const pin = newPin();
        out.set(id, { pin, hash: await hashSecret(pin) });
      }),
    );
    onProgress?.(out.size, ids.length);
  }
  return out;
}

/**
 * Validates and applies one file. Bad rows come back as problems with line numbers;
 * with any problem nothing is applied unless `skipInvalid` (a header problem always
 * stops the file).
 */
export async function importFile(kind: ImportKind, text: string, options: ImportOptions): Promise<ImportResult> {
  const table = parseCsv(text, IMPORT_COLUMNS[kind]);
  const result: ImportResult = { kind, rows: table.rows.length, created: 0, changed: 0, unchanged: 0, skipped: 0, problems: [...table.problems], applied: false, pinsIssued: 0 };
  if (table.problems.some((p) => p.line === 1)) return result;
  result.rows = table.rows.length + new Set(table.problems.map((p) => p.line)).size;

  const pins: IssuedPin[] = [];
  let pinHashes = new Map<number, { pin: string; hash: string }>();
  if (kind === "customers" && options.issuePins && !options.dryRun) {
    // Hash outside the write transaction (scrypt is slow by design); customers that
    // turn out to exist by then simply don't use theirs.
    const ids = [...new Set(table.rows.map((r) => Number(r.values.customer_id)).filter((n) => Number.isInteger(n) && n >= 1 && n <= 99999))];
    const existing = new Set<number>();
    for (const c of await getDb().select({ id: schema.customers.id }).from(schema.customers).where(inJson(schema.customers.id, ids))) existing.add(c.id);
    pinHashes = await hashPins(
      ids.filter((id) => !existing.has(id)),
      options.onProgress,
    );
  }

  const handler = (
    kind === "distributors"
      ? distributorsHandler
      : kind === "customers"
        ? customersHandler(pinHashes, pins, Boolean(options.issuePins))
        : kind === "editions"
          ? editionsHandler
          : kind === "deliveries"
            ? deliveriesHandler
            : kind === "products"
              ? productsHandler
              : guaranteesHandler()
  ) as Handler<unknown>;

  const parsed: (Line & Record<string, unknown>)[] = [];
  const seen = new Map<string, number>();
  for (const { line, values } of table.rows) {
    const { row, problems } = csvRow(handler.row, values, line);
    result.problems.push(...problems);
    if (!row) continue;
    const key = handler.key(row);
    const first = seen.get(key);
    if (first !== undefined) {
      result.problems.push({ line, column: handler.keyColumns, reason: `samma nyckel som rad ${first}` });
      continue;
    }
    seen.set(key, line);
    parsed.push(row as Line & Record<string, unknown>);
  }

  await writeTransaction(async (tx) => {
    const plan = await handler.plan(tx, parsed, result.problems);
    result.problems.sort((a, b) => a.line - b.line);
    result.skipped = new Set(result.problems.map((p) => p.line)).size;
    Object.assign(result, { created: plan.created, changed: plan.changed, unchanged: plan.unchanged });
    if (result.problems.length > 0 && !options.skipInvalid) return;
    if (options.dryRun) return;
    let done = 0;
    await handler.apply(
      tx,
      plan.write as never,
      (n) => {
        done += n;
        options.onProgress?.(done, plan.write.length);
      },
      options.actor,
    );
    await audit(
      {
        actor: options.actor,
        action: `import.${kind}`,
        target: options.source,
        detail: { new: plan.created, changed: plan.changed, unchanged: plan.unchanged, skipped: result.skipped, pinsIssued: pins.length },
      },
      tx,
    );
    if (pins.length > 0) {
      if (!options.onPinsIssued) throw new Error("issuePins needs onPinsIssued");
      await options.onPinsIssued(pins);
    }
    result.pinsIssued = pins.length;
    result.applied = true;
  });
  return result;
}

/**
 * Orders (Exponeringsutrustning) are parsed and applied by orders.server.ts, shared
 * with the staff upload; this only sorts the parsed rows into new, changed and
 * unchanged against the stored lines (one query), so a re-run can say so and apply
 * nothing.
 */
export async function classifyOrderRows<T extends { customerId: number; orderDate: string; articleNumber: string; ledger: number; articleDescription: string; amount: number; priceOre: number }>(
  rows: T[],
): Promise<{ created: T[]; changed: T[]; unchanged: T[] }> {
  const o = schema.orderLines;
  const key = (r: Pick<T, "customerId" | "orderDate" | "articleNumber" | "ledger">) => `${r.customerId}|${r.orderDate}|${r.articleNumber}|${r.ledger}`;
  const existing = new Map<string, { articleDescription: string; amount: number; priceOre: number }>();
  if (rows.length > 0) {
    const found = await getDb()
      .select({ customerId: o.customerId, orderDate: o.orderDate, articleNumber: o.articleNumber, ledger: o.ledger, articleDescription: o.articleDescription, amount: o.amount, priceOre: o.priceOre })
      .from(o)
      .where(inJson(o.customerId, [...new Set(rows.map((r) => r.customerId))]));
    for (const f of found) existing.set(key(f), f);
  }
  const out = { created: [] as T[], changed: [] as T[], unchanged: [] as T[] };
  for (const r of rows) {
    const e = existing.get(key(r));
    if (!e) out.created.push(r);
    else if (e.articleDescription === r.articleDescription && e.amount === r.amount && e.priceOre === r.priceOre) out.unchanged.push(r);
    else out.changed.push(r);
  }
  return out;
}
