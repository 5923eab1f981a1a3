// The products import (docs/formats.md): its row, its checks and how it is applied.
import { schema } from "~/db.server";
import { lastDayNotBeforeFirst, PRICE_ORE, productDetail } from "~/features/products";
import { column } from "~/lib/csv-columns";
import { z } from "~/lib/zod";
import { storeDailyProduct } from "~/features/products/index.server";
import { chunks, classify, type Handler, inJson } from "./import-rows.server";

export type ProductRow = { titleId: number; editionId: number; startDate: string; endDate: string; heading: string; description: string; priceOre: number; eanCode: string };

// The details and the days' order by Ny produkt's own rules; the numbers by the file's.
const ProductFileRow = z
  .object({
    title_id: column.int(1, 99999),
    edition_id: column.int(1, 99999),
    start_date: column.date(),
    end_date: column.date(),
    heading: productDetail.heading(),
    description: productDetail.description(),
    price_ore: column.int(PRICE_ORE.min, PRICE_ORE.max),
    ean_code: productDetail.eanCode(),
  })
  .refine(...lastDayNotBeforeFirst("start_date", "end_date"))
  .transform(
    (v): ProductRow => ({
      titleId: v.title_id,
      editionId: v.edition_id,
      startDate: v.start_date,
      endDate: v.end_date,
      heading: v.heading,
      description: v.description,
      priceOre: v.price_ore,
      eanCode: v.ean_code,
    }),
  );

export const productsHandler: Handler<ProductRow> = {
  row: ProductFileRow,
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
  // Ny produkt's write path, line by line: a cover waiting for the product is attached and
  // published, and Logg gets each product added or priced (a day's file is tens of lines).
  async apply(tx, rows, progress, actor) {
    for (const part of chunks(rows)) {
      for (const { line: _line, startDate, ...p } of part) await storeDailyProduct(tx, { ...p, date: startDate }, actor);
      progress(part.length);
    }
  },
};
