// Avstämning (decision 033): a period's copies and kronor followed from delivery to invoice,
// per title and paper type (or per customer), and the identity a controller checks:
//
//   delivered − returned − approved claims  =  billed − credited − to be credited
//
// Delivered, returned and claimed come from the deliveries of the period (their delivery
// date), valued at the delivery's price; billed from the invoice lines that sold them (the
// period's invoices, kind 'sold'); credited from what later runs settled for them (returns
// changed after their run, approved claims), to be credited from what the next run will.
// Its difference is what was delivered and never billed: it must be 0. Credit notes on the
// period's sold lines, and extra and order lines, are shown beside it, outside the identity.
import { sql, type SQL } from "drizzle-orm";
import { TITLES } from "~/catalog";
import { getDb } from "~/db.server";
import { daysBetween } from "~/lib/dates";
import type { PortalCommand } from "~/lib/portal-command";
import type { Figure, ReconcileRow, Reconciliation } from "./reconcile-view";

export type { Figure, ReconcileRow, Reconciliation };

const zero = (): Figure => ({ copies: 0, ore: 0 });

type Part = { k: string; copies: number; ore: number };

/**
 * The period's reconciliation, by title and paper type or by customer: grouped queries over
 * the period's deliveries, their returns and claims, and the period's invoices.
 */
export async function reconcile(input: { from: string; to: string; by?: "title" | "customer" }): Promise<Reconciliation> {
  const { from, to } = input;
  const by = input.by ?? "title";
  const db = getDb();
  // The group of a delivery (d, e) and of an invoice line (l, i, e).
  const g: SQL = by === "title" ? sql`d.title_id || '/' || e.type` : sql`cast(d.customer_id as text)`;
  const gl: SQL = by === "title" ? sql`l.title_id || '/' || e.type` : sql`cast(i.customer_id as text)`;
  const inPeriod = sql`d.delivery_date between ${from} and ${to}`;
  // A month is a third of the national table: one pass over it beats 600,000 index lookups;
  // a few days read through the index on the delivery date.
  const deliveries = daysBetween(from, to) > 14 ? sql`deliveries d not indexed` : sql`deliveries d indexed by deliveries_date`;
  const billedDelivery = sql`(exists (select 1 from invoices bi where bi.customer_id = d.customer_id and bi.paper_type = e.type and bi.period_from <= d.delivery_date and bi.period_to >= d.delivery_date)
    or exists (select 1 from returns r2 join invoice_credits c2 on c2.return_id = r2.id where r2.delivery_id = d.id))`;
  const q = (query: SQL) => db.all<Part>(query);
  type ReturnPart = { k: string; inTime: number; inTimeOre: number; late: number; lateOre: number; after: number; afterOre: number };
  type ClaimPart = { k: string; approved: number; approvedOre: number; credited: number; creditedOre: number };
  // Six passes: the deliveries; their returns (in time, late, and what runs of other periods
  // credited: all that was credited less what the run that billed the delivery did); the
  // claims (few: read from the claims, not the deliveries); the returns still to settle (the partial index of uncredited returns); the sold
  // lines and the credit notes on them.
  const [delivered, returned, claims, pendingReturns, billed, creditNotes, other, runs] = await Promise.all([
    q(sql`select ${g} as k, sum(d.delivered) as copies, sum(d.delivered * d.price_ore) as ore
      from ${deliveries} join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where ${inPeriod} group by k`),
    db.all<ReturnPart>(sql`select k, sum(inTime) as inTime, sum(inTime * price) as inTimeOre, sum(late) as late, sum(late * price) as lateOre, sum(after) as after, sum(after * price) as afterOre from (
      select ${g} as k, d.price_ore as price, case when r.late then 0 else r.amount end as inTime, case when r.late then r.amount else 0 end as late,
        r.credited - coalesce((select sum(c.amount) from invoice_credits c join invoice_runs ru on ru.id = c.run_id
          where c.return_id = r.id and d.delivery_date between ru.period_from and ru.period_to), 0) as after
      from ${deliveries} join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join returns r on r.delivery_id = d.id
      where ${inPeriod}) group by k`),
    db.all<ClaimPart>(sql`select ${g} as k, sum(kl.approved) as approved, sum(kl.approved * d.price_ore) as approvedOre,
        sum(case when kl.invoice_id is null then 0 else kl.approved end) as credited, sum(case when kl.invoice_id is null then 0 else kl.approved * d.price_ore end) as creditedOre
      from claims kl cross join deliveries d on d.id = kl.delivery_id join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where ${inPeriod} and kl.approved > 0 group by k`),
    q(sql`select ${g} as k, sum(r.amount - r.credited) as copies, sum((r.amount - r.credited) * d.price_ore) as ore
      from returns r indexed by returns_uncredited join deliveries d on d.id = r.delivery_id join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where ${inPeriod} and r.amount <> r.credited and ${billedDelivery} group by k`),
    q(sql`select ${gl} as k, sum(l.quantity) as copies, sum(l.net_ore) as ore
      from invoices i join invoice_lines l on l.invoice_id = i.id join editions e on e.title_id = l.title_id and e.edition_id = l.edition_id
      where i.period_from >= ${from} and i.period_to <= ${to} and l.kind = 'sold' group by k`),
    q(sql`select ${gl} as k, sum(-cl.quantity) as copies, sum(-cl.net_ore) as ore
      from invoices i join invoice_lines l on l.invoice_id = i.id join editions e on e.title_id = l.title_id and e.edition_id = l.edition_id
      join credit_note_lines cl on cl.invoice_line_id = l.id
      where i.period_from >= ${from} and i.period_to <= ${to} and l.kind = 'sold' group by k`),
    db.all<{ ore: number | null }>(sql`select sum(l.net_ore) as ore from invoices i join invoice_lines l on l.invoice_id = i.id
      where i.period_from >= ${from} and i.period_to <= ${to} and l.kind in ('extra', 'order')`),
    db.all<{ from: string; to: string }>(sql`select distinct period_from as "from", period_to as "to" from invoice_runs
      where status <> 'failed' and period_from <= ${to} and period_to >= ${from} and (period_from < ${from} or period_to > ${to}) order by period_from`),
  ]);
  const inTime = returned.map((r) => ({ k: r.k, copies: r.inTime, ore: r.inTimeOre }));
  const late = returned.map((r) => ({ k: r.k, copies: r.late, ore: r.lateOre }));
  const after = returned.map((r) => ({ k: r.k, copies: r.after, ore: r.afterOre }));
  const approved = claims.map((c) => ({ k: c.k, copies: c.approved, ore: c.approvedOre }));
  const claimsCredited = claims.map((c) => ({ k: c.k, copies: c.credited, ore: c.creditedOre }));
  const pendingClaims = claims.map((c) => ({ k: c.k, copies: c.approved - c.credited, ore: c.approvedOre - c.creditedOre }));

  const rows = new Map<string, ReconcileRow>();
  const row = (k: string): ReconcileRow => {
    let r = rows.get(k);
    if (!r) {
      const [a, b] = k.split("/").map(Number);
      const titleId = by === "title" ? a : null;
      const paperType = by === "title" ? b : null;
      const title = TITLES.find((t) => t.id === titleId)?.name ?? `Titel ${titleId}`;
      r = {
        key: k,
        titleId,
        paperType,
        customerId: by === "customer" ? a : null,
        label: by === "title" ? `${title}, ${paperType === 1 ? "bilagor" : "huvudtidning"}` : `Kund ${a}`,
        delivered: zero(),
        returnedInTime: zero(),
        returnedLate: zero(),
        claims: zero(),
        billed: zero(),
        credited: zero(),
        pending: zero(),
        creditNotes: zero(),
        difference: zero(),
      };
      rows.set(k, r);
    }
    return r;
  };
  const add = (parts: Part[], field: keyof Pick<ReconcileRow, "delivered" | "returnedInTime" | "returnedLate" | "claims" | "billed" | "credited" | "pending" | "creditNotes">) => {
    for (const p of parts) {
      const f = row(String(p.k))[field];
      f.copies += Number(p.copies ?? 0);
      f.ore += Number(p.ore ?? 0);
    }
  };
  add(delivered, "delivered");
  add(inTime, "returnedInTime");
  add(late, "returnedLate");
  add(approved, "claims");
  add(billed, "billed");
  add(after, "credited");
  add(claimsCredited, "credited");
  add(pendingReturns, "pending");
  add(pendingClaims, "pending");
  add(creditNotes, "creditNotes");

  const total = { ...row("__total"), key: "total", titleId: null, paperType: null, customerId: null, label: "Totalt" };
  rows.delete("__total");
  const fields = ["delivered", "returnedInTime", "returnedLate", "claims", "billed", "credited", "pending", "creditNotes"] as const;
  for (const r of rows.values()) {
    for (const m of ["copies", "ore"] as const) {
      r.difference[m] = r.delivered[m] - r.returnedInTime[m] - r.returnedLate[m] - r.claims[m] - (r.billed[m] - r.credited[m] - r.pending[m]);
    }
    for (const f of [...fields, "difference"] as const) {
      total[f].copies += r[f].copies;
      total[f].ore += r[f].ore;
    }
  }
  const sorted = [...rows.values()].sort((a, b) => (by === "title" ? (a.titleId ?? 0) - (b.titleId ?? 0) || (a.paperType ?? 0) - (b.paperType ?? 0) : (a.customerId ?? 0) - (b.customerId ?? 0)));
  return { from, to, by, rows: sorted, total, straddling: runs, otherLinesOre: Number(other[0]?.ore ?? 0) };
}

/** Whether every row (and so the total) adds up. */
export function reconciles(r: Reconciliation): boolean {
  return r.rows.every((row) => row.difference.copies === 0 && row.difference.ore === 0);
}

/**
 * The reconciliation as the server answers it: in its child process (`portal report
 * reconcile --json`, the load context's `portal`) when it has one, so a national month's
 * scan never holds up the requests the server answers meanwhile; else here.
 */
export async function reconcileElsewhere(input: { from: string; to: string }, elsewhere?: PortalCommand): Promise<Reconciliation> {
  if (!elsewhere) return reconcile(input);
  return JSON.parse(await elsewhere(["report", "reconcile", "--from", input.from, "--to", input.to, "--json"], { capture: true })) as Reconciliation;
}
