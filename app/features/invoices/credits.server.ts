// The credit trail (decision 016): from a returned copy to the invoice that
// credited it. The invoice run records what it settled (invoice_credits, written by
// invoice-run.server.ts); these read it back for the retailer's history and bundle
// contents, the invoice page and PDF, and staff's lookup. Every function takes the
// customer id and filters by it.
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema, type InvoiceBundleCredit } from "~/db.server";
import type { CreditTrail } from "./credit-words";
import { recallReturnBySqlOf } from "~/features/recalls/recalls.server";

const list = (values: readonly number[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/**
 * The trail of each of these returns of the customer's (others' ids are simply absent). One query.
 *
 * What the runs recorded comes first, each settlement after the run that billed the
 * delivery naming that invoice (decision 030). A return no run recorded may still lie in a
 * period invoiced before the trail was kept (decision 016, or an imported invoice): its
 * copies credited then are the return's `credited` (migration 0020), on the invoice of its
 * customer, paper type and period. Whatever the return holds beyond what was credited, on a
 * delivery already billed, the next run settles: `pending`.
 */
export async function creditTrails(customerId: number, returnIds: number[]): Promise<Map<number, CreditTrail>> {
  const out = new Map<number, CreditTrail>();
  const ids = [...new Set(returnIds)];
  if (ids.length === 0) return out;
  const rows = await getDb().all<{ id: number; amount: number; credited: number; date: string; credits: string; billed: string | null; run: string | null; recalled: string | null }>(sql`
    select r.id as id, r.amount as amount, r.credited as credited, d.delivery_date as date,
      ${recallReturnBySqlOf({ customerId: sql`d.customer_id`, titleId: sql`d.title_id`, editionId: sql`d.edition_id`, deliveryDate: sql`d.delivery_date` })} as recalled,
      (select json_group_array(json_array(i.number, c.amount, ru.period_from, ru.period_to))
         from invoice_credits c join invoice_runs ru on ru.id = c.run_id left join invoices i on i.id = c.invoice_id
         where c.return_id = r.id order by c.id) as credits,
      (select json_array(i.number, i.period_from, i.period_to) from invoices i
         where i.customer_id = r.customer_id and i.paper_type = e.type and i.period_from <= d.delivery_date and i.period_to >= d.delivery_date
         order by i.id limit 1) as billed,
      (select json_array(ru.period_from, ru.period_to) from invoice_runs ru
         where d.delivery_date between ru.period_from and ru.period_to and ru.status = 'done' order by ru.id limit 1) as run
    from returns r
    join deliveries d on d.id = r.delivery_id
    join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
    where r.customer_id = ${customerId} and r.id in (${list(ids)})`);
  for (const row of rows) {
    const billed = row.billed ? (JSON.parse(row.billed) as [number, string, string]) : null;
    const run = row.run ? (JSON.parse(row.run) as [string, string]) : null;
    const credits: CreditTrail["credits"] = (JSON.parse(row.credits) as [number | null, number, string, string][]).map(([invoice, amount, from, to]) =>
      row.date >= from && row.date <= to ? { invoice, amount, from, to } : { invoice, amount, from, to, after: { invoice: billed?.[0] ?? null } },
    );
    if (credits.length === 0 && row.credited !== 0) {
      // Credited before the trail was kept: by the invoice of its period, or by a run with nothing to bill.
      if (billed) credits.push({ invoice: billed[0], amount: row.credited, from: billed[1], to: billed[2] });
      else if (run) credits.push({ invoice: null, amount: row.credited, from: run[0], to: run[1] });
    }
    const settled = credits.length > 0 || billed !== null;
    out.set(row.id, { credits, amount: row.amount, pending: settled ? row.amount - row.credited : 0, ...(row.recalled ? { recalled: true } : {}) });
  }
  return out;
}

export type BundleCredit = InvoiceBundleCredit;

/**
 * Per invoice of the customer, the copies it credited per bundle and their value at the
 * deliveries' prices (net, before VAT), as the invoice recorded them when it was made
 * (decision 021): a bundle renumbered since keeps its old number here. One query.
 */
export async function creditsByInvoice(customerId: number, invoiceNumbers: number[]): Promise<Map<number, BundleCredit[]>> {
  const out = new Map<number, BundleCredit[]>();
  if (invoiceNumbers.length === 0) return out;
  const i = schema.invoices;
  const rows = await getDb()
    .select({ number: i.number, credits: i.credits })
    .from(i)
    .where(and(eq(i.customerId, customerId), inArray(i.number, invoiceNumbers)));
  for (const row of rows) if (row.credits && row.credits.length > 0) out.set(row.number, row.credits);
  return out;
}
