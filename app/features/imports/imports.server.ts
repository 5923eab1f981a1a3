// Batch imports of the operators' files (docs/formats.md): distributors, customers,
// editions, deliveries and guarantees. Each file is validated as a whole, then
// applied in ONE write transaction, upserting by natural key, so a re-run changes
// nothing and a killed import leaves the database as it was. Existing rows are read
// in bulk and written with multi-row INSERT … ON CONFLICT DO UPDATE in chunks: a
// national day of deliveries is ~23,000 rows.
import { randomInt } from "node:crypto";
import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { LEDGERS, TITLES } from "~/catalog";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { EAN_CODE } from "~/features/products";
import { audit, type Actor } from "~/features/audit/audit.server";
import { check, formatProblem, parseCsv, type CsvProblem } from "~/lib/csv.server";
import { isValidDate } from "~/lib/dates";
import { hashSecret } from "~/features/auth/passwords.server";

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

// Titles are fixed (docs/architecture.md "Catalog"); an editions import creates the title row it needs,
// so a database can be built from the files alone.
export const KNOWN_TITLES: Record<number, { name: string; ledger: number }> = Object.fromEntries(TITLES.map((t) => [t.id, { name: t.name, ledger: t.ledger }]));

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

export type IssuedPin = { customerId: number; pin: string };

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

const CHUNK = 500;
// Rows per INSERT … SELECT FROM json_each(?): one parameter per statement keeps both
// drizzle's query building and SQLite's statement preparation cheap.
const WRITE_CHUNK = 5000;

/** `column IN (the values)`, passed as one JSON parameter instead of one per value. */
function inJson(column: SQLWrapper, values: readonly (number | string)[]): SQL {
  return sql`${column} in (select value from json_each(${JSON.stringify(values)}))`;
}
const MAX_ID = 2 ** 31 - 1;
const EMAIL = /^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/;

type Line = { line: number };
type Parsed<T> = { row: (T & Line) | null; problems: CsvProblem[] };

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// A file has few distinct dates; remember the answer.
const dateValidity = new Map<string, boolean>();
function validDate(value: string): boolean {
  let ok = dateValidity.get(value);
  if (ok === undefined) {
    ok = isValidDate(value);
    if (dateValidity.size < 10_000) dateValidity.set(value, ok);
  }
  return ok;
}

/** Collects per-column reasons for one row. */
function rowChecker(line: number) {
  const problems: CsvProblem[] = [];
  return {
    problems,
    int(column: string, value: string, min: number, max: number): number {
      const reason = check.int(value, min, max);
      if (reason) problems.push({ line, column, reason });
      return Number(value);
    },
    oneOf(column: string, value: string, allowed: readonly number[], label: string): number {
      const n = Number(value);
      if (!/^\d+$/.test(value) || !allowed.includes(n)) problems.push({ line, column, reason: `ska vara ${label}` });
      return n;
    },
    text(column: string, value: string, maxLength: number, required: boolean): string {
      const reason = required ? check.required(value, maxLength) : value.length > maxLength ? `längre än ${maxLength} tecken` : null;
      if (reason) problems.push({ line, column, reason });
      return value;
    },
    date(column: string, value: string): string {
      if (!validDate(value)) problems.push({ line, column, reason: "ska vara ett datum ÅÅÅÅ-MM-DD" });
      return value;
    },
    add(column: string, reason: string) {
      problems.push({ line, column, reason });
    },
  };
}

// --- Row parsers (no database) ---------------------------------------------------

type DistributorRow = { id: number; name: string };
type CustomerRow = { id: number; name: string; address: string; zip: string; city: string; distributorId: number; phone: string; email: string };
type EditionRow = { titleId: number; editionId: number; type: number; description: string; code: string };
type DeliveryRow = { customerId: number; titleId: number; editionId: number; deliveryDate: string; delivered: number; priceOre: number };
type GuaranteeRow = { customerId: number; ledger: number; amountOre: number };
type ProductRow = { titleId: number; editionId: number; startDate: string; endDate: string; heading: string; description: string; priceOre: number; eanCode: string };

function parseDistributor(v: Record<string, string>, line: number): Parsed<DistributorRow> {
  const c = rowChecker(line);
  const row = { line, id: c.int("distributor_id", v.distributor_id, 1, MAX_ID), name: c.text("name", v.name, 200, true) };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

function parseCustomer(v: Record<string, string>, line: number): Parsed<CustomerRow> {
  const c = rowChecker(line);
  const row = {
    line,
    id: c.int("customer_id", v.customer_id, 1, 99999),
    name: c.text("name", v.name, 200, true),
    address: c.text("address", v.address, 200, false),
    zip: c.text("zip", v.zip, 20, false),
    city: c.text("city", v.city, 100, false),
    distributorId: c.int("distributor_id", v.distributor_id, 1, MAX_ID),
    phone: c.text("phone", v.phone, 50, false),
    email: c.text("email", v.email, 200, false),
  };
  if (row.email !== "" && row.email.length <= 200 && !EMAIL.test(row.email)) c.add("email", "ska vara en e-postadress");
  return { row: c.problems.length ? null : row, problems: c.problems };
}

function parseEdition(v: Record<string, string>, line: number): Parsed<EditionRow> {
  const c = rowChecker(line);
  const known = Object.keys(KNOWN_TITLES).map(Number);
  const row = {
    line,
    titleId: c.oneOf("title_id", v.title_id, known, "en känd titel (1 Aftonbladet, 2 Expressen)"),
    editionId: c.int("edition_id", v.edition_id, 1, 99999),
    type: c.oneOf("type", v.type, [0, 1], "0 (huvudtidning) eller 1 (bilaga)"),
    description: c.text("description", v.description, 200, true),
    code: c.text("code", v.code, 20, false),
  };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

function parseProduct(v: Record<string, string>, line: number): Parsed<ProductRow> {
  const c = rowChecker(line);
  const row = {
    line,
    titleId: c.int("title_id", v.title_id, 1, 99999),
    editionId: c.int("edition_id", v.edition_id, 1, 99999),
    startDate: c.date("start_date", v.start_date),
    endDate: c.date("end_date", v.end_date),
    heading: c.text("heading", v.heading, 100, false),
    description: c.text("description", v.description, 200, true),
    priceOre: c.int("price_ore", v.price_ore, 1, 10_000_000),
    eanCode: c.text("ean_code", v.ean_code, 20, false),
  };
  if (row.eanCode && !EAN_CODE.test(row.eanCode)) c.add("ean_code", "ska vara 8–14 siffror");
  if (isValidDate(row.startDate) && isValidDate(row.endDate) && row.endDate < row.startDate) c.add("end_date", "ska vara samma dag som start_date eller senare");
  return { row: c.problems.length ? null : row, problems: c.problems };
}

function parseDelivery(v: Record<string, string>, line: number): Parsed<DeliveryRow> {
  const c = rowChecker(line);
  const row = {
    line,
    customerId: c.int("customer_id", v.customer_id, 1, 99999),
    titleId: c.int("title_id", v.title_id, 1, 99999),
    editionId: c.int("edition_id", v.edition_id, 1, 99999),
    deliveryDate: c.date("delivery_date", v.delivery_date),
    delivered: c.int("delivered", v.delivered, 0, 99999),
    priceOre: c.int("price_ore", v.price_ore, 0, 10_000_000),
  };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

function parseGuarantee(v: Record<string, string>, line: number): Parsed<GuaranteeRow> {
  const c = rowChecker(line);
  const row = {
    line,
    customerId: c.int("customer_id", v.customer_id, 1, 99999),
    ledger: c.oneOf("ledger", v.ledger, LEDGERS, "80 (Expressen) eller 83 (Aftonbladet)"),
    amountOre: c.int("amount_ore", v.amount_ore, 0, 1_000_000_000),
  };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

// --- The shared flow --------------------------------------------------------------

type Plan<T> = {
  /** Rows to insert or update, already filtered to new + changed. */
  write: (T & Line)[];
  created: number;
  changed: number;
  unchanged: number;
};

type Handler<T> = {
  parse: (v: Record<string, string>, line: number) => Parsed<T>;
  key: (row: T) => string;
  keyColumns: string;
  /** Reads what exists in bulk, adds database problems, and classifies rows. */
  plan: (tx: Tx, rows: (T & Line)[], problems: CsvProblem[]) => Promise<Plan<T>>;
  apply: (tx: Tx, rows: (T & Line)[], progress: (n: number) => void) => Promise<void>;
};

const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

function classify<T extends Line>(rows: T[], same: (row: T) => boolean | null): Plan<T> {
  const plan: Plan<T> = { write: [], created: 0, changed: 0, unchanged: 0 };
  for (const row of rows) {
    const s = same(row);
    if (s === null) {
      plan.created++;
      plan.write.push(row);
    } else if (s) {
      plan.unchanged++;
    } else {
      plan.changed++;
      plan.write.push(row);
    }
  }
  return plan;
}

const distributorsHandler: Handler<DistributorRow> = {
  parse: parseDistributor,
  key: (r) => String(r.id),
  keyColumns: "distributor_id",
  async plan(tx, rows) {
    const existing = new Map((await tx.select({ id: schema.distributors.id, name: schema.distributors.name }).from(schema.distributors)).map((d) => [d.id, d]));
    return classify(rows, (r) => {
      const e = existing.get(r.id);
      return e ? e.name === r.name : null;
    });
  },
  async apply(tx, rows, progress) {
    for (const part of chunks(rows)) {
      await tx
        .insert(schema.distributors)
        .values(part.map(({ id, name }) => ({ id, name })))
        .onConflictDoUpdate({ target: schema.distributors.id, set: { name: sql`excluded.name`, updatedAt: nowMs } });
      progress(part.length);
    }
  },
};

type CustomerPlanRow = CustomerRow & Line & { pinHash?: string | null };
const CUSTOMER_FIELDS = ["name", "address", "zip", "city", "distributorId", "phone", "email"] as const;

function customersHandler(pinHashes: Map<number, { pin: string; hash: string }>, issued: IssuedPin[], issuePins: boolean): Handler<CustomerRow> {
  return {
    parse: parseCustomer,
    key: (r) => String(r.id),
    keyColumns: "customer_id",
    async plan(tx, rows, problems) {
      const distributorIds = new Set((await tx.select({ id: schema.distributors.id }).from(schema.distributors)).map((d) => d.id));
      const existing = new Map<number, typeof schema.customers.$inferSelect>();
      for (const c of await tx.select().from(schema.customers).where(inJson(schema.customers.id, rows.map((r) => r.id)))) existing.set(c.id, c);
      const ok: (CustomerRow & Line)[] = [];
      for (const r of rows) {
        if (!distributorIds.has(r.distributorId)) problems.push({ line: r.line, column: "distributor_id", reason: `distributör ${r.distributorId} finns inte` });
        else ok.push(r);
      }
      return classify(ok, (r) => {
        const e = existing.get(r.id);
        return e ? CUSTOMER_FIELDS.every((f) => e[f] === r[f]) : null;
      });
    },
    async apply(tx, rows, progress) {
      const existingIds = new Set(
        (await tx.select({ id: schema.customers.id }).from(schema.customers).where(inJson(schema.customers.id, rows.map((r) => r.id)))).map((c) => c.id),
      );
      const withPins: CustomerPlanRow[] = [];
      for (const r of rows) {
        let pinHash: string | null = null;
        if (issuePins && !existingIds.has(r.id)) {
          let entry = pinHashes.get(r.id);
          if (!entry) {
            const pin = newPin();
            entry = { pin, hash: await hashSecret(pin) };
          }
          pinHash = entry.hash;
          issued.push({ customerId: r.id, pin: entry.pin });
        }
        withPins.push({ ...r, pinHash });
      }
      for (const part of chunks(withPins)) {
        await tx
          .insert(schema.customers)
          .values(part.map(({ line: _line, ...c }) => c))
          .onConflictDoUpdate({
            target: schema.customers.id,
            set: {
              name: sql`excluded.name`,
              address: sql`excluded.address`,
              zip: sql`excluded.zip`,
              city: sql`excluded.city`,
              distributorId: sql`excluded.distributor_id`,
              phone: sql`excluded.phone`,
              email: sql`excluded.email`,
              updatedAt: nowMs,
            },
          });
        progress(part.length);
      }
    },
  };
}

const editionsHandler: Handler<EditionRow> = {
  parse: parseEdition,
  key: (r) => `${r.titleId}/${r.editionId}`,
  keyColumns: "title_id+edition_id",
  async plan(tx, rows, problems) {
    const existing = new Map((await tx.select().from(schema.editions)).map((e) => [`${e.titleId}/${e.editionId}`, e]));
    // An edition whose copies already lie in bundles keeps its paper type: the bundles were
    // chosen by it, and a bundle holds one type (return labels, the count at the terminal).
    const d = schema.deliveries;
    const inBundles = new Set(
      (
        await tx
          .selectDistinct({ titleId: d.titleId, editionId: d.editionId })
          .from(schema.returns)
          .innerJoin(d, eq(d.id, schema.returns.deliveryId))
      ).map((e) => `${e.titleId}/${e.editionId}`),
    );
    const ok: (EditionRow & Line)[] = [];
    for (const r of rows) {
      const e = existing.get(`${r.titleId}/${r.editionId}`);
      if (e && e.type !== r.type && inBundles.has(`${r.titleId}/${r.editionId}`)) {
        problems.push({ line: r.line, column: "type", reason: `utgåvan har redan returer i buntar av typ ${e.type}; typen kan inte ändras` });
      } else ok.push(r);
    }
    return classify(ok, (r) => {
      const e = existing.get(`${r.titleId}/${r.editionId}`);
      return e ? e.type === r.type && e.description === r.description && e.code === r.code : null;
    });
  },
  async apply(tx, rows, progress) {
    const titleIds = [...new Set(rows.map((r) => r.titleId))];
    if (titleIds.length > 0) {
      await tx
        .insert(schema.titles)
        .values(titleIds.map((id) => ({ id, ...KNOWN_TITLES[id] })))
        .onConflictDoNothing();
    }
    for (const part of chunks(rows)) {
      await tx
        .insert(schema.editions)
        .values(part.map(({ line: _line, ...e }) => e))
        .onConflictDoUpdate({
          target: [schema.editions.titleId, schema.editions.editionId],
          set: { type: sql`excluded.type`, description: sql`excluded.description`, code: sql`excluded.code`, updatedAt: nowMs },
        });
      progress(part.length);
    }
  },
};

const productsHandler: Handler<ProductRow> = {
  parse: parseProduct,
  key: (r) => `${r.titleId}/${r.editionId}/${r.startDate}`,
  keyColumns: "title_id+edition_id+start_date",
  async plan(tx, rows, problems) {
    const d = schema.dailyProducts;
    const editionKeys = new Set((await tx.select({ t: schema.editions.titleId, e: schema.editions.editionId }).from(schema.editions)).map((e) => `${e.t}/${e.e}`));
    const existing = new Map(
      (await tx.select().from(d).where(inJson(d.startDate, [...new Set(rows.map((r) => r.startDate))]))).map((p) => [`${p.titleId}/${p.editionId}/${p.startDate}`, p]),
    );
    const known = rows.filter((r) => {
      if (editionKeys.has(`${r.titleId}/${r.editionId}`)) return true;
      problems.push({ line: r.line, column: "edition_id", reason: `utgåva ${r.titleId}/${r.editionId} finns inte` });
      return false;
    });
    return classify(known, (r) => {
      const p = existing.get(`${r.titleId}/${r.editionId}/${r.startDate}`);
      return p
        ? p.endDate === r.endDate && p.heading === r.heading && p.description === r.description && p.priceOre === r.priceOre && p.eanCode === r.eanCode
        : null;
    });
  },
  async apply(tx, rows, progress) {
    const d = schema.dailyProducts;
    for (const part of chunks(rows)) {
      await tx
        .insert(d)
        .values(part.map(({ line: _line, ...p }) => p))
        .onConflictDoUpdate({
          target: [d.titleId, d.editionId, d.startDate],
          // The staff's extra description and cover stay.
          set: { endDate: sql`excluded.end_date`, heading: sql`excluded.heading`, description: sql`excluded.description`, priceOre: sql`excluded.price_ore`, eanCode: sql`excluded.ean_code`, updatedAt: nowMs },
        });
      progress(part.length);
    }
  },
};

const deliveriesHandler: Handler<DeliveryRow> = {
  parse: parseDelivery,
  key: (r) => `${r.customerId}/${r.titleId}/${r.editionId}/${r.deliveryDate}`,
  keyColumns: "customer_id+title_id+edition_id+delivery_date",
  async plan(tx, rows, problems) {
    const d = schema.deliveries;
    const editionKeys = new Set((await tx.select({ t: schema.editions.titleId, e: schema.editions.editionId }).from(schema.editions)).map((e) => `${e.t}/${e.e}`));
    const customerIds = new Set(
      (await tx.select({ id: schema.customers.id }).from(schema.customers).where(inJson(schema.customers.id, [...new Set(rows.map((r) => r.customerId))]))).map((c) => c.id),
    );
    const ok: (DeliveryRow & Line)[] = [];
    for (const r of rows) {
      let bad = false;
      if (!customerIds.has(r.customerId)) {
        problems.push({ line: r.line, column: "customer_id", reason: `kund ${r.customerId} finns inte` });
        bad = true;
      }
      if (!editionKeys.has(`${r.titleId}/${r.editionId}`)) {
        problems.push({ line: r.line, column: "edition_id", reason: `utgåva ${r.editionId} av titel ${r.titleId} finns inte` });
        bad = true;
      }
      if (!bad) ok.push(r);
    }

    // Existing deliveries of the file's dates: one query per date, narrowed to the
    // file's customers when the file covers only a few of them (index deliveries_date).
    type Existing = { id: number; delivered: number; priceOre: number };
    const existing = new Map<string, Existing>();
    const byDate = new Map<string, Set<number>>();
    for (const r of ok) {
      let set = byDate.get(r.deliveryDate);
      if (!set) byDate.set(r.deliveryDate, (set = new Set()));
      set.add(r.customerId);
    }
    for (const [date, customers] of byDate) {
      const cols = { id: d.id, customerId: d.customerId, titleId: d.titleId, editionId: d.editionId, delivered: d.delivered, priceOre: d.priceOre };
      const found =
        customers.size <= CHUNK
          ? await tx.select(cols).from(d).where(and(eq(d.deliveryDate, date), inJson(d.customerId, [...customers])))
          : await tx.select(cols).from(d).where(eq(d.deliveryDate, date));
      for (const e of found) existing.set(`${e.customerId}/${e.titleId}/${e.editionId}/${date}`, e);
    }

    // A delivered amount may not fall below the returns already reported for it.
    const lowered = ok.filter((r) => {
      const e = existing.get(deliveriesHandler.key(r));
      return e !== undefined && r.delivered < e.delivered;
    });
    const returned = new Map<number, number>();
    if (lowered.length > 0) {
      const sums = await tx
        .select({ id: schema.returns.deliveryId, total: sql<number>`sum(${schema.returns.amount})`.mapWith(Number) })
        .from(schema.returns)
        .where(inJson(schema.returns.deliveryId, lowered.map((r) => existing.get(deliveriesHandler.key(r))!.id)))
        .groupBy(schema.returns.deliveryId);
      for (const s of sums) returned.set(s.id, s.total);
    }
    const valid = ok.filter((r) => {
      const e = existing.get(deliveriesHandler.key(r));
      const total = e ? (returned.get(e.id) ?? 0) : 0;
      if (total > r.delivered) {
        problems.push({ line: r.line, column: "delivered", reason: `${r.delivered} är färre än de ${total} som redan rapporterats i retur` });
        return false;
      }
      return true;
    });
    return classify(valid, (r) => {
      const e = existing.get(deliveriesHandler.key(r));
      return e ? e.delivered === r.delivered && e.priceOre === r.priceOre : null;
    });
  },
  async apply(tx, rows, progress) {
    for (const part of chunks(rows, WRITE_CHUNK)) {
      const json = JSON.stringify(part.map((r) => [r.customerId, r.titleId, r.editionId, r.deliveryDate, r.delivered, r.priceOre]));
      // "where true" keeps SQLite from reading ON CONFLICT as a join constraint.
      await tx.run(sql`
        insert into deliveries (customer_id, title_id, edition_id, delivery_date, delivered, price_ore)
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 from json_each(${json}) where true
        on conflict (customer_id, title_id, edition_id, delivery_date)
        do update set delivered = excluded.delivered, price_ore = excluded.price_ore, updated_at = ${nowMs}`);
      progress(part.length);
    }
  },
};

// Guarantees have no unique key in the table: a (customer, ledger) pair gets a new
// row per payout round. The file's row is compared with the newest row of the pair:
// same amount -> unchanged (so re-running a file never pays twice); an open row ->
// its amount is updated; a completed payout -> a new row; a payout in progress
// (refunded, not completed) -> a bad row.
type GuaranteePlanRow = GuaranteeRow & Line & { id?: number };
function guaranteesHandler(): Handler<GuaranteeRow> {
  const ids = new Map<string, number>();
  return {
    parse: parseGuarantee,
    key: (r) => `${r.customerId}/${r.ledger}`,
    keyColumns: "customer_id+ledger",
    async plan(tx, rows, problems) {
      const g = schema.guarantees;
      const customerIds = new Set<number>();
      const newest = new Map<string, typeof g.$inferSelect>();
      const fileCustomers = [...new Set(rows.map((r) => r.customerId))];
      for (const c of await tx.select({ id: schema.customers.id }).from(schema.customers).where(inJson(schema.customers.id, fileCustomers))) customerIds.add(c.id);
      for (const e of await tx.select().from(g).where(inJson(g.customerId, fileCustomers)).orderBy(g.id)) newest.set(`${e.customerId}/${e.ledger}`, e);
      const ok: (GuaranteeRow & Line)[] = [];
      for (const r of rows) {
        const e = newest.get(`${r.customerId}/${r.ledger}`);
        if (!customerIds.has(r.customerId)) problems.push({ line: r.line, column: "customer_id", reason: `kund ${r.customerId} finns inte` });
        else if (e && e.amountOre !== r.amountOre && e.refunded && e.completedAt === null)
          problems.push({ line: r.line, column: "amount_ore", reason: "en utbetalning pågår för kunden och tidningen; klarmarkera den först" });
        else ok.push(r);
      }
      return classify(ok, (r) => {
        const key = `${r.customerId}/${r.ledger}`;
        const e = newest.get(key);
        if (!e) return null;
        if (e.amountOre === r.amountOre) return true;
        if (e.completedAt !== null) return null;
        ids.set(key, e.id);
        return false;
      });
    },
    async apply(tx, rows, progress) {
      const g = schema.guarantees;
      const planned: GuaranteePlanRow[] = rows.map((r) => ({ ...r, id: ids.get(`${r.customerId}/${r.ledger}`) }));
      for (const part of chunks(planned)) {
        await tx
          .insert(g)
          .values(part.map(({ line: _line, ...r }) => r))
          .onConflictDoUpdate({ target: g.id, set: { amountOre: sql`excluded.amount_ore`, updatedAt: nowMs } });
        progress(part.length);
      }
    },
  };
}

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

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
    const { row, problems } = handler.parse(values, line);
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
    await handler.apply(tx, plan.write as never, (n) => {
      done += n;
      options.onProgress?.(done, plan.write.length);
    });
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
