// The editions import (docs/formats.md): its row, its checks and how it is applied.
import { eq, sql } from "drizzle-orm";
import { TITLES } from "~/catalog";
import { schema } from "~/db.server";
import { column } from "~/lib/csv-columns";
import { z } from "~/lib/zod";
import { chunks, classify, type Handler, type Line, nowMs } from "./import-rows.server";

// Titles are fixed (docs/architecture.md "Catalog"); an editions import creates the title row it needs,
// so a database can be built from the files alone.
export const KNOWN_TITLES: Record<number, { name: string; ledger: number }> = Object.fromEntries(TITLES.map((t) => [t.id, { name: t.name, ledger: t.ledger }]));

export type EditionRow = { titleId: number; editionId: number; type: number; description: string; code: string };

const EditionFileRow = z
  .object({
    title_id: column.oneOf(Object.keys(KNOWN_TITLES).map(Number), "en känd titel (1 Aftonbladet, 2 Expressen)"),
    edition_id: column.int(1, 99999),
    type: column.oneOf([0, 1], "0 (huvudtidning) eller 1 (bilaga)"),
    description: column.text(200, true),
    code: column.text(20, false),
  })
  .transform((v): EditionRow => ({ titleId: v.title_id, editionId: v.edition_id, type: v.type, description: v.description, code: v.code }));

export const editionsHandler: Handler<EditionRow> = {
  row: EditionFileRow,
  key: (r) => `${r.titleId}/${r.editionId}`,
  keyColumns: "title_id+edition_id",
  async plan(tx, rows, problems) {
    const existing = new Map((await tx.select().from(schema.editions)).map((e) => [`${e.titleId}/${e.editionId}`, e]));
    // An edition whose copies already lie in bundles keeps its paper type: the bundles were
    // chosen by it, and a bundle holds one type (return labels, the count at the terminal).
    const d = schema.deliveries;
    const inBundles = new Set(
      (
        await tx
          .selectDistinct({ titleId: d.titleId, editionId: d.editionId })
          .from(schema.returns)
          .innerJoin(d, eq(d.id, schema.returns.deliveryId))
      ).map((e) => `${e.titleId}/${e.editionId}`),
    );
    const ok: (EditionRow & Line)[] = [];
    for (const r of rows) {
      const e = existing.get(`${r.titleId}/${r.editionId}`);
      if (e && e.type !== r.type && inBundles.has(`${r.titleId}/${r.editionId}`)) {
        problems.push({ line: r.line, column: "type", reason: `utgåvan har redan returer i buntar av typ ${e.type}; typen kan inte ändras` });
      } else ok.push(r);
    }
    return classify(ok, (r) => {
      const e = existing.get(`${r.titleId}/${r.editionId}`);
      return e ? e.type === r.type && e.description === r.description && e.code === r.code : null;
    });
  },
  async apply(tx, rows, progress) {
    const titleIds = [...new Set(rows.map((r) => r.titleId))];
    if (titleIds.length > 0) {
      await tx
        .insert(schema.titles)
        .values(titleIds.map((id) => ({ id, ...KNOWN_TITLES[id] })))
        .onConflictDoNothing();
    }
    for (const part of chunks(rows)) {
      await tx
        .insert(schema.editions)
        .values(part.map(({ line: _line, ...e }) => e))
        .onConflictDoUpdate({
          target: [schema.editions.titleId, schema.editions.editionId],
          set: { type: sql`excluded.type`, description: sql`excluded.description`, code: sql`excluded.code`, updatedAt: nowMs },
        });
      progress(part.length);
    }
  },
};

