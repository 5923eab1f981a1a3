// The distributors import (docs/formats.md): its row, its checks and how it is applied.
import { sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { chunks, classify, type Handler, MAX_ID, nowMs, type Parsed, rowChecker } from "./import-rows.server";

export type DistributorRow = { id: number; name: string };

function parseDistributor(v: Record<string, string>, line: number): Parsed<DistributorRow> {
  const c = rowChecker(line);
  const row = { line, id: c.int("distributor_id", v.distributor_id, 1, MAX_ID), name: c.text("name", v.name, 200, true) };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

export const distributorsHandler: Handler<DistributorRow> = {
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

