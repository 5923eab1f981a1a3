// The deliveries import (docs/formats.md): its row, its checks and how it is applied.
import { and, eq, sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { column } from "~/lib/csv-columns";
import { stockholmDate } from "~/lib/dates";
import { z } from "~/lib/zod";
import { invoicedPeriods } from "~/features/invoices/invoice-run.server";
import { CHUNK, chunks, classify, type Handler, inJson, type Line, nowMs, WRITE_CHUNK } from "./import-rows.server";
import { settleSupplyChanges } from "~/features/supply/index.server";

export type DeliveryRow = { customerId: number; titleId: number; editionId: number; deliveryDate: string; delivered: number; priceOre: number };

const DeliveryFileRow = z
  .object({
    customer_id: column.int(1, 99999),
    title_id: column.int(1, 99999),
    edition_id: column.int(1, 99999),
    delivery_date: column.date(),
    delivered: column.int(0, 99999),
    price_ore: column.int(0, 10_000_000),
  })
  .transform(
    (v): DeliveryRow => ({
      customerId: v.customer_id,
      titleId: v.title_id,
      editionId: v.edition_id,
      deliveryDate: v.delivery_date,
      delivered: v.delivered,
      priceOre: v.price_ore,
    }),
  );

export const deliveriesHandler: Handler<DeliveryRow> = {
  row: DeliveryFileRow,
  key: (r) => `${r.customerId}/${r.titleId}/${r.editionId}/${r.deliveryDate}`,
  keyColumns: "customer_id+title_id+edition_id+delivery_date",
  async plan(tx, rows, problems) {
    const d = schema.deliveries;
    const editionKeys = new Set((await tx.select({ t: schema.editions.titleId, e: schema.editions.editionId }).from(schema.editions)).map((e) => `${e.t}/${e.e}`));
    const customers = new Map(
      (await tx.select({ id: schema.customers.id, deactivatedAt: schema.customers.deactivatedAt }).from(schema.customers).where(inJson(schema.customers.id, [...new Set(rows.map((r) => r.customerId))]))).map((c) => [
        c.id,
        c.deactivatedAt === null ? null : stockholmDate(c.deactivatedAt),
      ]),
    );
    const ok: (DeliveryRow & Line)[] = [];
    for (const r of rows) {
      let bad = false;
      const deactivated = customers.get(r.customerId);
      if (deactivated === undefined) {
        problems.push({ line: r.line, column: "customer_id", reason: `kund ${r.customerId} finns inte` });
        bad = true;
      } else if (deactivated !== null && r.deliveryDate > deactivated) {
        // Nobody receives papers after the shop was closed: such a delivery would be billed all the same.
        problems.push({ line: r.line, column: "delivery_date", reason: `kund ${r.customerId} är avstängd sedan ${deactivated}` });
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
    // A period some run has invoiced is closed (decision 030): a new or changed delivery in it
    // would never be billed, or billed wrong. The same row again is fine.
    const invoiced = await invoicedPeriods(tx);
    const open = valid.filter((r) => {
      const e = existing.get(deliveriesHandler.key(r));
      if (e && e.delivered === r.delivered && e.priceOre === r.priceOre) return true;
      const period = invoiced.find((p) => p.from <= r.deliveryDate && r.deliveryDate <= p.to);
      if (!period) return true;
      problems.push({ line: r.line, column: "delivery_date", reason: `${r.deliveryDate} ligger i den fakturerade perioden ${period.from}–${period.to}; rätta med en extra fakturarad` });
      return false;
    });
    return classify(open, (r) => {
      const e = existing.get(deliveriesHandler.key(r));
      return e ? e.delivered === r.delivered && e.priceOre === r.priceOre : null;
    });
  },
  async apply(tx, rows, progress) {
    for (const part of chunks(rows, WRITE_CHUNK)) {
      const json = JSON.stringify(part.map((r) => [r.customerId, r.titleId, r.editionId, r.deliveryDate, r.delivered, r.priceOre]));
      // "where true" keeps SQLite from reading ON CONFLICT as a join constraint.
      await tx.run(sql`
        insert into deliveries (customer_id, title_id, edition_id, delivery_date, delivered, price_ore, created_at, updated_at)
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, ${nowMs}, ${nowMs} from json_each(${json}) where true
        on conflict (customer_id, title_id, edition_id, delivery_date)
        do update set delivered = excluded.delivered, price_ore = excluded.price_ore, updated_at = ${nowMs}`);
      progress(part.length);
    }
    // Leveransändring: a decided change the deliveries now bring is in force (decision 037).
    await settleSupplyChanges(tx);
  },
};

