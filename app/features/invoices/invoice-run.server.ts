// The invoice run (docs/architecture.md "Invoicing"): per customer and paper type for a period,
// (delivered − returned) × net price per edition and price, plus the pending extra
// invoice lines staff have sent and the order lines they transferred. Invoices are
// numbered, dated today with due date +30 days, and the extra/order lines are marked
// invoiced. The unique (customer, paper type, period) index makes a second run for
// the same period create nothing.
import { randomUUID } from "node:crypto";
import { and, asc, between, desc, eq, inArray, isNotNull, isNull, lte, max, ne, or, gte, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { config, type Seller } from "~/config.server";
import { addDays, isValidDate, today } from "~/lib/dates";
import { vatPerRate } from "~/lib/money";
import { isRefusal, refuse } from "~/lib/refusal";
import { afterRunLine } from "./credit-words";
import { billedDays, specificationRecord, type BilledDay } from "./invoice-specification.server";
import { recallReturnBySqlOf } from "~/features/recalls/recalls.server";
import { paperName } from "~/catalog";
import { claimLine } from "~/features/deliveries/claim-words";
import { MAX_RETURN_DAYS, deadlineSqlOf } from "~/features/returns/deadlines.server";
import { portalNow } from "../../../db/clock";

/** VAT on newspapers, in tenths of a percent (60 = 6.0 %). */
export const PAPER_VAT_PERMILLE = 60;
/** Exponeringsutrustning (order lines) is equipment: standard VAT 25 %. */
export const ORDER_VAT_PERMILLE = 250;
export const PAYMENT_DAYS = 30;
export const FIRST_INVOICE_NUMBER = 500001;

type PlannedLine = {
  description: string;
  quantity: number;
  unitPriceOre: number;
  vatPermille: number;
  netOre: number;
  /** Where it comes from; "after" settles returns changed after the run that billed their delivery. */
  kind: "sold" | "extra" | "order" | "after" | "claim";
  /** An extra line dated before the period: billed now, after its own period was invoiced. */
  late?: string;
  /** The paper the line bills or credits (sold, after, claim lines), for Avstämning. */
  titleId?: number;
  editionId?: number;
};
export type PlannedInvoice = {
  customerId: number;
  paperType: number;
  lines: PlannedLine[];
  extraLineIds: number[];
  orderLineIds: number[];
  /** Returns of deliveries billed before, and the copies this invoice settles for each (decision 030). */
  after: { returnId: number; copies: number; date: string; paper: string; bundle: number }[];
  /** Approved delivery claims this invoice credits (decision 031). */
  claimIds: number[];
  netOre: number;
  vatOre: number;
  amountOre: number;
};

export type InvoiceRunSummary = {
  from: string;
  to: string;
  dryRun: boolean;
  /** Invoices that existed already for the period (left alone). */
  existing: number;
  perPaperType: { paperType: number; invoices: number; netOre: number; vatOre: number; amountOre: number }[];
  created: number;
  firstNumber: number | null;
  lastNumber: number | null;
  /** The history row of a run that was not a dry run. */
  runId?: number;
  /** Customers the (planned) invoices go to. */
  customers?: number;
  /** A dry run's invoices as they would be made (the preview shows them). */
  planned?: PlannedInvoice[];
};

/** Extra invoice lines go on the inserts invoice when their product group is Bilaga. */
function extraPaperType(productGroup: string): number {
  return productGroup === "Bilaga" ? 1 : 0;
}

/** Customers lo..hi (inclusive): one chunk of a run. */
type CustomerRange = { lo: number; hi: number };
const ALL_CUSTOMERS: CustomerRange = { lo: 0, hi: Number.MAX_SAFE_INTEGER };

async function planInvoices(tx: Db | Tx, from: string, to: string, range: CustomerRange = ALL_CUSTOMERS): Promise<{ planned: PlannedInvoice[]; existing: number }> {
  const d = schema.deliveries;
  const e = schema.editions;
  const inv = schema.invoices;

  const existingRows = await tx
    .select({ customerId: inv.customerId, paperType: inv.paperType })
    .from(inv)
    .where(and(eq(inv.periodFrom, from), eq(inv.periodTo, to), between(inv.customerId, range.lo, range.hi)));
  const done = new Set(existingRows.map((r) => `${r.customerId}/${r.paperType}`));

  const byKey = new Map<string, PlannedInvoice>();
  const get = (customerId: number, paperType: number) => {
    const key = `${customerId}/${paperType}`;
    if (done.has(key)) return null;
    let p = byKey.get(key);
    if (!p) byKey.set(key, (p = { customerId, paperType, lines: [], extraLineIds: [], orderLineIds: [], after: [], claimIds: [], netOre: 0, vatOre: 0, amountOre: 0 }));
    return p;
  };

  // One aggregate over the period: sold copies per customer, edition and price.
  const sold = await tx
    .select({
      customerId: d.customerId,
      paperType: e.type,
      description: e.description,
      titleId: d.titleId,
      editionId: d.editionId,
      priceOre: d.priceOre,
      quantity: sql<number>`sum(${d.delivered} - (select coalesce(sum(r.amount), 0) from returns r where r.delivery_id = ${d.id}))`.mapWith(Number),
    })
    // Customer by customer, so each reads only its own deliveries of the period (the index on
    // customer and date), not every day of every customer in the range.
    .from(schema.customers)
    .innerJoin(d, eq(d.customerId, schema.customers.id))
    .innerJoin(e, and(eq(e.titleId, d.titleId), eq(e.editionId, d.editionId)))
    .where(and(between(d.deliveryDate, from, to), between(schema.customers.id, range.lo, range.hi)))
    .groupBy(d.customerId, e.type, d.titleId, d.editionId, d.priceOre)
    .orderBy(d.customerId, e.type, d.titleId, d.editionId, d.priceOre);
  for (const s of sold) {
    if (s.quantity <= 0) continue;
    const p = get(s.customerId, s.paperType);
    if (!p) continue;
    p.lines.push({
      description: `${s.description}, sålda exemplar ${from}–${to}`,
      quantity: s.quantity,
      unitPriceOre: s.priceOre,
      vatPermille: PAPER_VAT_PERMILLE,
      netOre: s.quantity * s.priceOre,
      kind: "sold",
      titleId: s.titleId,
      editionId: s.editionId,
    });
  }

  // Returns reported, increased or decreased after the run that billed their delivery
  // (decision 030): the difference between the copies now and the copies credited so far,
  // per edition, price and the invoice that billed it. Only deliveries some run billed: an
  // invoice of the customer and paper type covers the date, or a run settled a return of it.
  const after = await tx.all<{ customerId: number; paperType: number; description: string; title: string; date: string; bundle: number; titleId: number; editionId: number; priceOre: number; billed: number | null; billedFrom: string; billedTo: string; returnId: number; due: number; recalled: string | null }>(sql`
    select r.customer_id as customerId, e.type as paperType, e.description as description, d.title_id as titleId, d.edition_id as editionId, d.price_ore as priceOre,
      t.name as title, d.delivery_date as date, b.number as bundle,
      ${recallReturnBySqlOf({ customerId: sql`d.customer_id`, titleId: sql`d.title_id`, editionId: sql`d.edition_id`, deliveryDate: sql`d.delivery_date` })} as recalled,
      i.number as billed, r.id as returnId, r.amount - r.credited as due,
      coalesce(i.period_from, (select ru.period_from from returns r2 join invoice_credits c on c.return_id = r2.id join invoice_runs ru on ru.id = c.run_id where r2.delivery_id = d.id order by c.id limit 1)) as billedFrom,
      coalesce(i.period_to, (select ru.period_to from returns r2 join invoice_credits c on c.return_id = r2.id join invoice_runs ru on ru.id = c.run_id where r2.delivery_id = d.id order by c.id limit 1)) as billedTo
    from returns r indexed by returns_uncredited
    join deliveries d on d.id = r.delivery_id
    join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    join titles t on t.id = d.title_id
    join bundles b on b.id = r.bundle_id
    left join invoices i on i.customer_id = d.customer_id and i.paper_type = e.type and i.period_from <= d.delivery_date and i.period_to >= d.delivery_date
    where r.customer_id between ${range.lo} and ${range.hi} and r.amount <> r.credited
      and d.delivery_date not between ${from} and ${to}
      and (i.id is not null or exists (select 1 from returns r2 join invoice_credits c on c.return_id = r2.id where r2.delivery_id = d.id))
    order by r.customer_id, e.type, d.title_id, d.edition_id, d.price_ore, i.number, r.id`);
  const groups = new Map<string, { p: PlannedInvoice; row: (typeof after)[number]; copies: number }>();
  for (const a of after) {
    const p = get(a.customerId, a.paperType);
    if (!p) continue;
    p.after.push({ returnId: a.returnId, copies: a.due, date: a.date, paper: paperName(a.title, a.description), bundle: a.bundle });
    // Recalled copies are a line of their own, named so (decision 036).
    const key = `${a.customerId}/${a.paperType}/${a.description}/${a.priceOre}/${a.billed}/${a.recalled ? "recalled" : ""}`;
    const g = groups.get(key) ?? { p, row: a, copies: 0 };
    g.copies += a.due;
    groups.set(key, g);
  }
  for (const { p, row, copies } of groups.values()) {
    if (copies === 0) continue;
    // Credited copies are a negative quantity; a decrease charged back a positive one.
    p.lines.push({
      description: afterRunLine({ title: row.description, copies, invoice: row.billed, from: row.billedFrom, to: row.billedTo, recalled: row.recalled !== null }),
      quantity: -copies,
      unitPriceOre: row.priceOre,
      vatPermille: PAPER_VAT_PERMILLE,
      netOre: -copies * row.priceOre,
      kind: "after",
      titleId: row.titleId,
      editionId: row.editionId,
    });
  }

  // Delivery claims staff approved and no invoice has credited (decision 031): one line per
  // claim at the delivery's price, for deliveries up to the period's end.
  const approvedClaims = await tx.all<{ id: number; customerId: number; paperType: number; title: string; edition: string; titleId: number; editionId: number; deliveryDate: string; priceOre: number; approved: number }>(sql`
    select c.id as id, c.customer_id as customerId, e.type as paperType, t.name as title, e.description as edition, d.title_id as titleId, d.edition_id as editionId, d.delivery_date as deliveryDate, d.price_ore as priceOre, c.approved as approved
    from claims c indexed by claims_to_credit
    join deliveries d on d.id = c.delivery_id
    join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    join titles t on t.id = d.title_id
    where c.customer_id between ${range.lo} and ${range.hi} and c.approved > 0 and c.invoice_id is null and d.delivery_date <= ${to}
    order by c.customer_id, c.id`);
  for (const c of approvedClaims) {
    const p = get(c.customerId, c.paperType);
    if (!p) continue;
    p.lines.push({
      description: claimLine({ id: c.id, paper: paperName(c.title, c.edition), deliveryDate: c.deliveryDate, copies: c.approved }),
      quantity: -c.approved,
      unitPriceOre: c.priceOre,
      vatPermille: PAPER_VAT_PERMILLE,
      netOre: -c.approved * c.priceOre,
      kind: "claim",
      titleId: c.titleId,
      editionId: c.editionId,
    });
    p.claimIds.push(c.id);
  }

  // Extra invoice lines that staff have sent (they belong to a file) and not yet invoiced.
  const x = schema.extraInvoiceLines;
  const extras = await tx
    .select()
    .from(x)
    .where(and(isNull(x.invoiceId), isNotNull(x.fileId), lte(x.deliveryDate, to), between(x.customerId, range.lo, range.hi)))
    .orderBy(x.customerId, x.id);
  for (const l of extras) {
    const p = get(l.customerId, extraPaperType(l.productGroup));
    if (!p) continue;
    const quantity = l.deliveredAmount - l.reclaimAmount;
    p.lines.push({
      description: `${l.articleName} (${l.magazineTitle}) ${l.deliveryDate}`,
      quantity,
      unitPriceOre: l.nettoPriceOre,
      vatPermille: l.vatPermille,
      netOre: quantity * l.nettoPriceOre,
      kind: "extra",
      ...(l.deliveryDate < from ? { late: l.deliveryDate } : {}),
    });
    p.extraLineIds.push(l.id);
  }

  // Order lines (Exponeringsutrustning) staff transferred to invoicing.
  const o = schema.orderLines;
  const orders = await tx
    .select()
    .from(o)
    .where(and(isNotNull(o.transferredAt), isNull(o.invoiceId), lte(o.orderDate, to), between(o.customerId, range.lo, range.hi)))
    .orderBy(o.customerId, o.id);
  for (const l of orders) {
    const p = get(l.customerId, 0);
    if (!p) continue;
    p.lines.push({
      description: `${l.articleDescription} (art. ${l.articleNumber}) ${l.orderDate}`,
      quantity: l.amount,
      unitPriceOre: l.priceOre,
      vatPermille: ORDER_VAT_PERMILLE,
      netOre: l.amount * l.priceOre,
      kind: "order",
    });
    p.orderLineIds.push(l.id);
  }

  const planned = [...byKey.values()].filter((p) => p.lines.length > 0);
  for (const p of planned) {
    p.netOre = p.lines.reduce((s, l) => s + l.netOre, 0);
    // VAT once per rate on the rate's base: Moms totalt is the sum of the printed rates.
    p.vatOre = vatPerRate(p.lines).reduce((s, r) => s + r.vatOre, 0);
    p.amountOre = p.netOre + p.vatOre;
  }
  planned.sort((a, b) => a.customerId - b.customerId || a.paperType - b.paperType);
  return { planned, existing: done.size };
}

function chunks<T>(items: T[], size = 400): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Runs the invoicing for [from, to]. A period that overlaps an already invoiced
 * period without being the same one is refused: deliveries would be billed twice.
 */
export async function runInvoicing(
  input: {
    from: string;
    to: string;
    dryRun?: boolean;
    actor: Actor;
    date?: string;
    /** The configured one unless given. */
    seller?: Seller | null;
    /** A run already claimed (claimInvoiceRun), worked under its claim: the job started from the browser. */
    claimed?: { runId: number; claim: string };
    /** Invoices per committed chunk (RUN_CHUNK_INVOICES). */
    chunkSize?: number;
  },
  onProgress?: (done: number, total: number) => void,
): Promise<InvoiceRunSummary> {
  const { from, to } = input;
  if (!isValidDate(from) || !isValidDate(to)) throw refuse.invalid("Perioden ska anges som ÅÅÅÅ-MM-DD.");
  if (from > to) throw refuse.invalid("Periodens början ligger efter dess slut.");
  const date = input.date ?? today();

  // The plan (and a dry run, the preview) only reads: it never holds the write lock.
  const run = async (tx: Db): Promise<InvoiceRunSummary> => {
    await refuseOverlap(tx, from, to);
    await refuseGap(tx, from);

    const { planned, existing } = await planInvoices(tx, from, to);
    const perType = new Map<number, InvoiceRunSummary["perPaperType"][number]>();
    for (const p of planned) {
      let t = perType.get(p.paperType);
      if (!t) perType.set(p.paperType, (t = { paperType: p.paperType, invoices: 0, netOre: 0, vatOre: 0, amountOre: 0 }));
      t.invoices++;
      t.netOre += p.netOre;
      t.vatOre += p.vatOre;
      t.amountOre += p.amountOre;
    }
    const summary: InvoiceRunSummary = {
      from,
      to,
      dryRun: Boolean(input.dryRun),
      existing,
      customers: new Set(planned.map((p) => p.customerId)).size,
      perPaperType: [...perType.values()].sort((a, b) => a.paperType - b.paperType),
      created: 0,
      firstNumber: null,
      lastNumber: null,
    };
    return { ...summary, planned };
  };

  // The plan is made from a read of committed data: planning holds no lock.
  if (input.dryRun) return run(getDb());
  const { id: runId, claim } = input.claimed ? { id: input.claimed.runId, claim: input.claimed.claim } : await claimInvoiceRun({ from, to, actor: input.actor });
  try {
    const summary = await run(getDb());
    // Every invoice names its seller as it is today, for good (decision 021).
    const seller = input.seller === undefined ? config.seller : input.seller;
    if (!seller && summary.perPaperType.length > 0) throw refuse.conflict("Säljarens uppgifter (SELLER_*) saknas: inga fakturor kan skapas.");
    return await createInChunks({ runId, claim, from, to, date, seller, actor: input.actor, existing: summary.existing, chunkSize: input.chunkSize ?? RUN_CHUNK_INVOICES }, summary, onProgress);
  } catch (e) {
    await failInvoiceRun(runId, claim, e).catch(() => undefined);
    throw e;
  }
}

/** The periods invoice runs have invoiced or are invoicing (a stopped run's too), oldest first. A handful of rows. */
export async function invoicedPeriods(tx: Db | Tx): Promise<{ from: string; to: string }[]> {
  const r = schema.invoiceRuns;
  return tx
    .selectDistinct({ from: r.periodFrom, to: r.periodTo })
    .from(r)
    .where(ne(r.status, "failed"))
    .orderBy(asc(r.periodFrom));
}

/**
 * A run that would leave past days with deliveries unbilled between the last invoiced period
 * and its own start (December from the 2nd after November): refused with the dates.
 */
async function refuseGap(tx: Db | Tx, from: string) {
  const before = (await invoicedPeriods(tx)).filter((p) => p.to < from);
  if (before.length === 0) return;
  const lastTo = before.reduce((m, p) => (p.to > m ? p.to : m), before[0].to);
  const gapFrom = addDays(lastTo, 1);
  // Days that have passed: a period planned ahead leaves no delivery unbilled yet.
  const gapTo = [addDays(from, -1), today()].sort()[0];
  if (gapFrom > gapTo) return;
  const d = schema.deliveries;
  const [any] = await tx.select({ id: d.id }).from(d).where(between(d.deliveryDate, gapFrom, gapTo)).limit(1);
  if (any) throw refuse.invalid(INVOICE_GAP(gapFrom, gapTo, lastTo));
}

export const INVOICE_GAP = (gapFrom: string, gapTo: string, lastTo: string) =>
  `Perioden lämnar ${gapFrom === gapTo ? gapFrom : `${gapFrom}–${gapTo}`} ofakturerad: den senast fakturerade perioden slutar ${lastTo}. Börja perioden ${gapFrom}.`;

/** A period overlapping an invoiced period without being the same one: deliveries would be billed twice. */
async function refuseOverlap(tx: Db | Tx, from: string, to: string) {
  const inv = schema.invoices;
  const [overlap] = await tx
    .select({ from: inv.periodFrom, to: inv.periodTo })
    .from(inv)
    .where(and(lte(inv.periodFrom, to), gte(inv.periodTo, from), or(ne(inv.periodFrom, from), ne(inv.periodTo, to))))
    .limit(1);
  if (overlap) throw refuse.invalid(`Perioden överlappar den redan fakturerade perioden ${overlap.from}–${overlap.to}.`);
}

/** A run whose heartbeat is older than this has stopped (its process is gone): the next start resumes it. */
export const RUN_STALE_MS = 2 * 60 * 1000;
/**
 * Invoices per committed chunk: other writes interleave between chunks (decision 024). A
 * chunk of 50 holds the write lock about 13 ms on the national copy, less than a
 * retailer's save waits for a lock in one try (BUSY_TIMEOUT_MS), so a save that finds a
 * chunk writing gets in as it ends (bench B11).
 */
export const RUN_CHUNK_INVOICES = 50;
/**
 * How long a chunk waits for the write lock held elsewhere (a backup, a long import) before
 * the run fails: far longer than a retailer's save waits, and well inside RUN_STALE_MS.
 */
export const RUN_WRITE_WAIT_MS = 60_000;
/** The pause between two chunks, for waiting writers (decision 024). */
export const RUN_CHUNK_PAUSE_MS = 25;

export const RUN_BUSY = (from: string, to: string) => `En körning pågår redan (${from}–${to}). Vänta tills den är klar.`;

/**
 * Claims the one running run (decision 024): a new history row with status 'running', or —
 * when a run of the same period stopped mid-way (no heartbeat for RUN_STALE_MS) — that row
 * again, to resume it. Refused while another run is alive, and for a period overlapping an
 * invoiced one. The unique index invoice_runs_one_running holds this across processes.
 */
export async function claimInvoiceRun(input: { from: string; to: string; actor: Actor }, now = portalNow()): Promise<{ id: number; claim: string; resumed: boolean }> {
  const { from, to } = input;
  // A new token at every claim: the process that held the run before cannot write to it again.
  const claim = randomUUID();
  return writeTransaction(async (tx) => {
    const r = schema.invoiceRuns;
    const [running] = await tx.select().from(r).where(eq(r.status, "running"));
    if (running) {
      const stale = (running.heartbeatAt ?? running.ranAt) < now - RUN_STALE_MS;
      if (!stale) throw refuse.invalid(RUN_BUSY(running.periodFrom, running.periodTo));
      if (running.periodFrom === from && running.periodTo === to) {
        await tx.update(r).set({ heartbeatAt: now, message: null, claim }).where(eq(r.id, running.id));
        return { id: running.id, claim, resumed: true };
      }
      // A stopped run of another period: it stays in the history as stopped.
      await tx.update(r).set({ status: "failed", finishedAt: now, message: RUN_STOPPED }).where(eq(r.id, running.id));
    }
    await refuseOverlap(tx, from, to);
    await refuseGap(tx, from);
    const [row] = await tx
      .insert(r)
      .values({ actor: input.actor.id, periodFrom: from, periodTo: to, created: 0, existing: 0, netOre: 0, vatOre: 0, amountOre: 0, status: "running", heartbeatAt: now, ranAt: now, claim })
      .returning({ id: r.id });
    return { id: row.id, claim, resumed: false };
  });
}

export const RUN_STOPPED = "Körningen avbröts innan den var klar (servern stoppades). Fakturorna som hann skapas finns kvar; starta samma period igen så fortsätter den där den slutade.";

export const RUN_TAKEN_OVER = "Körningen togs över av en ny start; den här processen skriver inget mer.";

/** Marks the run failed with its reason, unless another process has claimed it since. */
async function failInvoiceRun(runId: number, claim: string, e: unknown) {
  const message = isRefusal(e) ? e.message : "Körningen misslyckades. Fakturorna som hann skapas finns kvar; starta samma period igen så fortsätter den där den slutade.";
  const r = schema.invoiceRuns;
  await writeTransaction((tx) => tx.update(r).set({ status: "failed", finishedAt: portalNow(), message }).where(and(eq(r.id, runId), eq(r.status, "running"), eq(r.claim, claim))));
}

/** The run's row, if this process still holds its claim; refused otherwise (stopped or taken over). */
async function claimedRow(tx: Tx, runId: number, claim: string) {
  const r = schema.invoiceRuns;
  const [row] = await tx.select().from(r).where(eq(r.id, runId));
  if (!row || row.status !== "running") throw refuse.conflict(RUN_STOPPED);
  if (row.claim !== claim) throw refuse.conflict(RUN_TAKEN_OVER);
  return row;
}

/**
 * Creates the planned invoices in committed chunks (decision 024). The customers are cut
 * into contiguous ranges of about RUN_CHUNK_INVOICES planned invoices; each range is planned
 * again and written in its own write transaction — its invoices, lines, extra and order lines,
 * credit trail and records, and the run row's progress — so retailers' saves interleave, and
 * a run cut off mid-way resumes without doubling (the planner skips invoices made).
 */
async function createInChunks(
  run: { runId: number; claim: string; from: string; to: string; date: string; seller: Seller | null; actor: Actor; existing: number; chunkSize: number },
  plan: InvoiceRunSummary & { planned?: PlannedInvoice[] },
  onProgress?: (done: number, total: number) => void,
): Promise<InvoiceRunSummary> {
  const { runId, claim, from, to, date, seller } = run;
  const r = schema.invoiceRuns;
  const inv = schema.invoices;
  const planned = plan.planned ?? [];
  // Contiguous customer ranges covering every customer, so every return of the period is
  // settled by exactly one chunk (also customers with nothing to bill).
  const ranges: CustomerRange[] = [];
  const size = run.chunkSize;
  for (let i = 0; i < planned.length; i += size) {
    let end = Math.min(i + size, planned.length) - 1;
    // A customer's two invoices (main papers, inserts) go in one chunk.
    while (end + 1 < planned.length && planned[end + 1].customerId === planned[end].customerId) end++;
    ranges.push({ lo: ranges.length === 0 ? 0 : ranges[ranges.length - 1].hi + 1, hi: planned[end].customerId });
    i = end + 1 - size;
  }
  ranges.push({ lo: ranges.length === 0 ? 0 : ranges[ranges.length - 1].hi + 1, hi: Number.MAX_SAFE_INTEGER });
  const [start] = await getDb().select({ created: r.created }).from(r).where(eq(r.id, runId));
  // A resumed run's own invoices are no "existing" ones.
  const before = start?.created ?? 0;
  await writeTransaction(async (tx) => {
    await claimedRow(tx, runId, claim);
    await tx.update(r).set({ planned: before + planned.length, existing: run.existing - before, heartbeatAt: portalNow() }).where(eq(r.id, runId));
  }, getDb(), RUN_WRITE_WAIT_MS);
  let done = 0;
  for (const range of ranges) {
    const made = await writeTransaction(async (tx) => {
      const row = await claimedRow(tx, runId, claim);
      const { planned: part } = await planInvoices(tx, from, to, range);
      let first: number | null = null;
      let last: number | null = null;
      const totals = { netOre: 0, vatOre: 0, amountOre: 0 };
      if (part.length > 0) {
        // An invoice planned only now (a line sent meanwhile) names its seller too.
        if (!seller) throw refuse.conflict("Säljarens uppgifter (SELLER_*) saknas: inga fakturor kan skapas.");
        const [{ max: top }] = await tx.select({ max: max(inv.number) }).from(inv);
        // What each invoice's paper lines are made of, recorded with it (decision 038).
        const daysOf = new Map<string, BilledDay[]>();
        for (const d of await billedDays(tx, from, to, range)) {
          const k = `${d.customerId}/${d.paperType}`;
          const list = daysOf.get(k);
          if (list) list.push(d);
          else daysOf.set(k, [d]);
        }
        let number = Math.max(FIRST_INVOICE_NUMBER, (top ?? 0) + 1);
        first = number;
        const numbered = part.map((p) => ({ p, number: number++ }));
        last = number - 1;
        const ids = await tx
          .insert(inv)
          .values(
            numbered.map(({ p, number }) => ({
              number,
              customerId: p.customerId,
              paperType: p.paperType,
              date,
              dueDate: addDays(date, PAYMENT_DAYS),
              periodFrom: from,
              periodTo: to,
              netOre: p.netOre,
              vatOre: p.vatOre,
              amountOre: p.amountOre,
              status: p.amountOre < 0 ? "Tillgodo" : "Obetald",
              seller,
              specification: specificationRecord(daysOf.get(`${p.customerId}/${p.paperType}`) ?? [], p.lines, p.after),
            })),
          )
          .returning({ id: inv.id, number: inv.number });
        const idByNumber = new Map(ids.map((x) => [x.number, x.id]));
        const lines = numbered.flatMap(({ p, number }) => p.lines.map(({ late: _late, ...l }) => ({ ...l, invoiceId: idByNumber.get(number)! })));
        for (const lp of chunks(lines)) await tx.insert(schema.invoiceLines).values(lp);
        // The returns settled after their delivery's run, on the invoice that settles them (decision 030).
        const settled = numbered.flatMap(({ p, number }) => p.after.map((a) => ({ runId, invoiceId: idByNumber.get(number)!, returnId: a.returnId, amount: a.copies })));
        for (const sp of chunks(settled)) await tx.insert(schema.invoiceCredits).values(sp);
        for (const { p, number } of numbered) {
          const invoiceId = idByNumber.get(number)!;
          // Few customers have extra or order lines; most invoices skip both updates.
          if (p.extraLineIds.length > 0) {
            await tx.update(schema.extraInvoiceLines).set({ invoiceId, updatedAt: portalNow() }).where(inArray(schema.extraInvoiceLines.id, p.extraLineIds));
          }
          if (p.claimIds.length > 0) {
            await tx.update(schema.claims).set({ invoiceId, runId, updatedAt: portalNow() }).where(and(inArray(schema.claims.id, p.claimIds), isNull(schema.claims.invoiceId)));
          }
          if (p.orderLineIds.length > 0) {
            await tx.update(schema.orderLines).set({ invoiceId, updatedAt: portalNow() }).where(inArray(schema.orderLines.id, p.orderLineIds));
          }
          totals.netOre += p.netOre;
          totals.vatOre += p.vatOre;
          totals.amountOre += p.amountOre;
        }
      }
      await recordCredits(tx, { runId, from, to, made: first !== null && last !== null ? { first, last } : null, range });
      if (first !== null && last !== null) await fixRecords(tx, first, last);
      await tx
        .update(r)
        .set({
          created: row.created + part.length,
          firstNumber: row.firstNumber ?? first,
          lastNumber: last ?? row.lastNumber,
          netOre: row.netOre + totals.netOre,
          vatOre: row.vatOre + totals.vatOre,
          amountOre: row.amountOre + totals.amountOre,
          heartbeatAt: portalNow(),
        })
        .where(eq(r.id, runId));
      return part.length;
    }, getDb(), RUN_WRITE_WAIT_MS);
    done += made;
    if (made > 0) onProgress?.(done, planned.length);
    // Between chunks other writers get their turn: one waiting in SQLite's busy handler
    // takes the lock as the chunk commits, one waiting asynchronously (writeTransaction's
    // backoff) finds it free within the pause or the next.
    await new Promise<void>((resolve) => setTimeout(resolve, RUN_CHUNK_PAUSE_MS));
  }
  const finished = await writeTransaction(async (tx) => {
    await claimedRow(tx, runId, claim);
    const [row] = await tx.update(r).set({ status: "done", finishedAt: portalNow(), heartbeatAt: portalNow() }).where(eq(r.id, runId)).returning();
    await audit({ actor: run.actor, action: "invoice.run", target: `${from}..${to}`, detail: { run: runId, created: row.created, firstNumber: row.firstNumber, lastNumber: row.lastNumber } }, tx);
    return row;
  }, getDb(), RUN_WRITE_WAIT_MS);
  // The whole run's invoices per paper type, a resumed run's earlier chunks included.
  const perPaperType =
    finished.firstNumber === null || finished.lastNumber === null
      ? []
      : await getDb()
          .select({ paperType: inv.paperType, invoices: sql<number>`count(*)`.mapWith(Number), netOre: sql<number>`sum(${inv.netOre})`.mapWith(Number), vatOre: sql<number>`sum(${inv.vatOre})`.mapWith(Number), amountOre: sql<number>`sum(${inv.amountOre})`.mapWith(Number) })
          .from(inv)
          .where(and(between(inv.number, finished.firstNumber, finished.lastNumber), eq(inv.periodFrom, from), eq(inv.periodTo, to)))
          .groupBy(inv.paperType)
          .orderBy(inv.paperType);
  return { ...plan, planned: undefined, perPaperType, runId, created: finished.created, existing: finished.existing, firstNumber: finished.firstNumber, lastNumber: finished.lastNumber };
}

/**
 * The credit trail (decision 016): every return of the period's deliveries
 * that no earlier run settled, with its copies now, on the invoice this run made for its
 * customer and paper type — or on none, when the customer had nothing to bill. A customer
 * and paper type invoiced by an earlier run of the same period are left alone: their
 * returns reported since were not on that invoice, and the trail says so. One statement.
 */
async function recordCredits(tx: Tx, run: { runId: number; from: string; to: string; made: { first: number; last: number } | null; range: CustomerRange }) {
  // Customer by customer (the index on customer and date reads only the period's deliveries).
  // Only the invoices this chunk made qualify: an invoice of an earlier chunk (a resumed
  // run) or an earlier run was made without a return reported since, and is left alone.
  const [first, last] = run.made ? [run.made.first, run.made.last] : [0, -1];
  await tx.run(sql`
    insert into invoice_credits (run_id, invoice_id, return_id, amount)
    select ${run.runId}, i.id, r.id, r.amount
    from customers cu
    cross join deliveries d
    cross join editions e
    cross join returns r
    left join invoices i on i.customer_id = d.customer_id and i.paper_type = e.type and i.period_from = ${run.from} and i.period_to = ${run.to}
    where cu.id between ${run.range.lo} and ${run.range.hi} and d.customer_id = cu.id and d.delivery_date between ${run.from} and ${run.to}
      and e.title_id = d.title_id and e.edition_id = d.edition_id and r.delivery_id = d.id and r.amount > 0
      and (i.id is null or i.number between ${first} and ${last})
      and not exists (select 1 from invoice_credits c where c.return_id = r.id)`);
  // What this run settled, the period's returns and those changed after an earlier run, is credited now.
  await tx.run(sql`
    update returns indexed by returns_uncredited set credited = amount
    where customer_id between ${run.range.lo} and ${run.range.hi} and amount <> credited
      and exists (select 1 from invoice_credits c where c.return_id = returns.id and c.run_id = ${run.runId})`);
}

/**
 * The rest of the record of the invoices numbered first..last (decision 021): the returns
 * credited per bundle, under the bundle numbers of now; the buyer was recorded as each
 * invoice was inserted (trigger invoices_record_buyer). Later renumberings and corrections
 * never reach these invoices. One statement.
 */
async function fixRecords(tx: Tx, first: number, last: number) {
  await tx.run(sql`
    update invoices set credits = (
      select coalesce(json_group_array(json_object('bundle', x.bundle, 'copies', x.copies, 'valueOre', x.valueOre)), '[]') from (
        select b.number as bundle, sum(ic.amount) as copies, sum(ic.amount * d.price_ore) as valueOre
        from invoice_credits ic join returns r on r.id = ic.return_id join bundles b on b.id = r.bundle_id join deliveries d on d.id = r.delivery_id
        where ic.invoice_id = invoices.id group by b.number order by b.number) x)
    where number between ${first} and ${last}`);
}

function runColumns() {
  const r = schema.invoiceRuns;
  return {
    id: r.id,
    actor: r.actor,
    actorName: sql<string | null>`case when ${r.actor} like 'staff:%' then (select email from staff_users s where s.id = cast(substr(${r.actor}, 7) as integer)) end`,
    periodFrom: r.periodFrom,
    periodTo: r.periodTo,
    created: r.created,
    existing: r.existing,
    firstNumber: r.firstNumber,
    lastNumber: r.lastNumber,
    netOre: r.netOre,
    vatOre: r.vatOre,
    amountOre: r.amountOre,
    ranAt: r.ranAt,
    status: r.status,
    heartbeatAt: r.heartbeatAt,
    message: r.message,
  };
}

/** A run's state in words for the history: done, going on, stopped (no heartbeat), failed and why. */
export function runStateText(run: { status: string; ranAt: number; heartbeatAt: number | null; message: string | null }, now = portalNow()): string {
  if (run.status === "done") return "Klar";
  if (run.status === "running") return (run.heartbeatAt ?? run.ranAt) < now - RUN_STALE_MS ? "Avbruten – starta samma period igen så fortsätter den" : "Pågår";
  return run.message ? `Misslyckades: ${run.message}` : "Misslyckades";
}

/** The invoicing history, newest first, with who ran it (a staff e-mail, or "cli"). */
export async function listInvoiceRuns(limit = 50) {
  const r = schema.invoiceRuns;
  return getDb().select(runColumns()).from(r).orderBy(desc(r.ranAt), desc(r.id)).limit(limit);
}

export async function getInvoiceRun(id: number) {
  const [row] = await getDb().select(runColumns()).from(schema.invoiceRuns).where(eq(schema.invoiceRuns.id, id));
  return row ?? null;
}

export type RunInvoiceRow = { number: number; customerId: number; name: string; paperType: number; date: string; dueDate: string; netOre: number; vatOre: number; amountOre: number };

/** Every invoice a run made (by their numbers), in number order, named as each invoice names its buyer. One query. */
export async function runInvoices(run: { firstNumber: number | null; lastNumber: number | null }): Promise<RunInvoiceRow[]> {
  if (run.firstNumber === null || run.lastNumber === null) return [];
  const inv = schema.invoices;
  const rows = await getDb()
    .select({ number: inv.number, customerId: inv.customerId, buyer: inv.buyer, paperType: inv.paperType, date: inv.date, dueDate: inv.dueDate, netOre: inv.netOre, vatOre: inv.vatOre, amountOre: inv.amountOre })
    .from(inv)
    .where(and(gte(inv.number, run.firstNumber), lte(inv.number, run.lastNumber)))
    .orderBy(asc(inv.number));
  return rows.map(({ buyer, ...r }) => ({ ...r, name: buyer?.name ?? "" }));
}

export type PreviewRow = { customerId: number; name: string; paperType: number; lines: PlannedLine[]; netOre: number; vatOre: number; amountOre: number };

/**
 * Förhandsgranska: the dry run (a read, never the write lock) with every invoice it would
 * make, named by its customer, and the extra lines dated before the period (billed now,
 * on this period's invoice: the page says so).
 */
export async function invoicePreview(input: { from: string; to: string; actor: Actor }) {
  const { planned = [], ...summary } = await runInvoicing({ ...input, dryRun: true });
  const names = new Map((await getDb().select({ id: schema.customers.id, name: schema.customers.name }).from(schema.customers)).map((c) => [c.id, c.name]));
  const rows: PreviewRow[] = planned.map((p) => ({ customerId: p.customerId, name: names.get(p.customerId) ?? "", paperType: p.paperType, lines: p.lines, netOre: p.netOre, vatOre: p.vatOre, amountOre: p.amountOre }));
  const late = rows.flatMap((r) => r.lines.filter((l) => l.late).map((l) => ({ customerId: r.customerId, name: r.name, description: l.description, date: l.late! })));
  // Settlements of returns changed after earlier runs (decision 030), on these invoices.
  const afterLines = planned.flatMap((p) => p.lines.filter((l) => l.kind === "after"));
  const settled = { lines: afterLines.length, netOre: afterLines.reduce((s, l) => s + l.netOre, 0) };
  return { summary, rows, late, settled, stillReturnable: await stillReturnable(input.from, input.to) };
}

/**
 * The period's deliveries still inside their return window today (their last return day not
 * passed) and not all returned: copies that may yet come back after the run, and be credited
 * on the customer's next invoice (decision 030). Reads only the last MAX_RETURN_DAYS days.
 */
export async function stillReturnable(from: string, to: string, day = today()) {
  const earliest = [from, addDays(day, -MAX_RETURN_DAYS)].sort()[1];
  if (earliest > to) return { deliveries: 0, copies: 0, valueOre: 0, lastDay: null };
  const [row] = await getDb().all<{ deliveries: number; copies: number; valueOre: number; lastDay: string | null }>(sql`
    select count(*) as deliveries, coalesce(sum(x.open), 0) as copies, coalesce(sum(x.open * x.price), 0) as valueOre, max(x.lastDay) as lastDay
    from (
      select d.delivered - coalesce((select sum(r.amount) from returns r where r.delivery_id = d.id), 0) as open, d.price_ore as price,
        ${deadlineSqlOf({ deliveryDate: sql`d.delivery_date`, returnDays: sql`e.return_days`, type: sql`e.type` })} as lastDay
      from deliveries d indexed by deliveries_date
      join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where d.delivery_date between ${earliest} and ${to}
    ) x
    where x.lastDay >= ${day} and x.open > 0`);
  return row;
}
