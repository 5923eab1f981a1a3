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
import type { Figure, ReconcileRow, Reconciliation } from "./reconcile-view";

export type { Figure, ReconcileRow, Reconciliation };

const zero = (): Figure => ({ copies: 0, ore: 0 });

type Part = { k: string; copies: number; ore: number };

/**
 * The period's reconciliation, by title and paper type or by customer. Eight grouped
 * queries over the period's deliveries (index deliveries_date) and invoices.
 */
export async function reconcile(input: { from: string; to: string; by?: "title" | "customer" }): Promise<Reconciliation> {
  const { from, to } = input;
  const by = input.by ?? "title";
  const db = getDb();
  // The group of a delivery (d, e) and of an invoice line (l, i, e).
  const g: SQL = by === "title" ? sql`d.title_id || '/' || e.type` : sql`cast(d.customer_id as text)`;
  const gl: SQL = by === "title" ? sql`l.title_id || '/' || e.type` : sql`cast(i.customer_id as text)`;
  const inPeriod = sql`d.delivery_date between ${from} and ${to}`;
  const billedDelivery = sql`(exists (select 1 from invoices bi where bi.customer_id = d.customer_id and bi.paper_type = e.type and bi.period_from <= d.delivery_date and bi.period_to >= d.delivery_date)
    or exists (select 1 from returns r2 join invoice_credits c2 on c2.return_id = r2.id where r2.delivery_id = d.id))`;
  const q = (query: SQL) => db.all<Part>(query);
  const [delivered, inTime, late, pendingReturns, after, approved, claimsCredited, pendingClaims, billed, creditNotes, other, runs] = await Promise.all([
    q(sql`select ${g} as k, sum(d.delivered) as copies, sum(d.delivered * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where ${inPeriod} group by k`),
    q(sql`select ${g} as k, sum(r.amount) as copies, sum(r.amount * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join returns r on r.delivery_id = d.id
      where ${inPeriod} and r.late = 0 group by k`),
    q(sql`select ${g} as k, sum(r.amount) as copies, sum(r.amount * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join returns r on r.delivery_id = d.id
      where ${inPeriod} and r.late = 1 group by k`),
    q(sql`select ${g} as k, sum(r.amount - r.credited) as copies, sum((r.amount - r.credited) * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join returns r on r.delivery_id = d.id
      where ${inPeriod} and r.amount <> r.credited and ${billedDelivery} group by k`),
    // Settled by a run of another period than the delivery's: after the run that billed it.
    q(sql`select ${g} as k, sum(c.amount) as copies, sum(c.amount * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      join returns r on r.delivery_id = d.id join invoice_credits c on c.return_id = r.id join invoice_runs ru on ru.id = c.run_id
      where ${inPeriod} and d.delivery_date not between ru.period_from and ru.period_to group by k`),
    q(sql`select ${g} as k, sum(kl.approved) as copies, sum(kl.approved * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join claims kl on kl.delivery_id = d.id
      where ${inPeriod} and kl.approved > 0 group by k`),
    q(sql`select ${g} as k, sum(kl.approved) as copies, sum(kl.approved * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join claims kl on kl.delivery_id = d.id
      where ${inPeriod} and kl.approved > 0 and kl.invoice_id is not null group by k`),
    q(sql`select ${g} as k, sum(kl.approved) as copies, sum(kl.approved * d.price_ore) as ore
      from deliveries d indexed by deliveries_date join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id join claims kl on kl.delivery_id = d.id
      where ${inPeriod} and kl.approved > 0 and kl.invoice_id is null group by k`),
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
