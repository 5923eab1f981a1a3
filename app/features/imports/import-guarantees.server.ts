// The guarantees import (docs/formats.md): its row, its checks and how it is applied.
import { sql } from "drizzle-orm";
import { LEDGERS } from "~/catalog";
import { schema } from "~/db.server";
import { column } from "~/lib/csv-columns";
import { z } from "~/lib/zod";
import { chunks, classify, type Handler, inJson, type Line, nowMs } from "./import-rows.server";

export type GuaranteeRow = { customerId: number; ledger: number; amountOre: number };

const GuaranteeFileRow = z
  .object({
    customer_id: column.int(1, 99999),
    ledger: column.oneOf(LEDGERS, "80 (Expressen) eller 83 (Aftonbladet)"),
    amount_ore: column.int(0, 1_000_000_000),
  })
  .transform((v): GuaranteeRow => ({ customerId: v.customer_id, ledger: v.ledger, amountOre: v.amount_ore }));

// Guarantees have no unique key in the table: a (customer, ledger) pair gets a new
// row per payout round. The file's row is compared with the newest row of the pair:
// same amount -> unchanged (so re-running a file never pays twice); an open row ->
// its amount is updated; a completed payout -> a new row; a payout in progress
// (refunded, not completed) -> a bad row.
type GuaranteePlanRow = GuaranteeRow & Line & { id?: number };
export function guaranteesHandler(): Handler<GuaranteeRow> {
  const ids = new Map<string, number>();
  return {
    row: GuaranteeFileRow,
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

