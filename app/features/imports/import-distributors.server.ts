// The distributors import (docs/formats.md): its row, its checks and how it is applied.
import { sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { column } from "~/lib/csv-columns";
import { z } from "~/lib/zod";
import { chunks, classify, type Handler, MAX_ID, nowMs } from "./import-rows.server";

export type DistributorRow = { id: number; name: string };

const DistributorFileRow = z
  .object({ distributor_id: column.int(1, MAX_ID), name: column.text(200, true) })
  .transform((v): DistributorRow => ({ id: v.distributor_id, name: v.name }));

export const distributorsHandler: Handler<DistributorRow> = {
  row: DistributorFileRow,
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

