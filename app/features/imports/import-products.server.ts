// The products import (docs/formats.md): its row, its checks and how it is applied.
import { sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { EAN_CODE } from "~/features/products";
import { isValidDate } from "~/lib/dates";
import { chunks, classify, type Handler, inJson, nowMs, type Parsed, rowChecker } from "./import-rows.server";

export type ProductRow = { titleId: number; editionId: number; startDate: string; endDate: string; heading: string; description: string; priceOre: number; eanCode: string };

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

export const productsHandler: Handler<ProductRow> = {
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

