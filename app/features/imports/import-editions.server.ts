// The editions import (docs/formats.md): its row, its checks and how it is applied.
import { eq, sql } from "drizzle-orm";
import { TITLES } from "~/catalog";
import { schema } from "~/db.server";
import { chunks, classify, type Handler, type Line, nowMs, type Parsed, rowChecker } from "./import-rows.server";

// Titles are fixed (docs/architecture.md "Catalog"); an editions import creates the title row it needs,
// so a database can be built from the files alone.
export const KNOWN_TITLES: Record<number, { name: string; ledger: number }> = Object.fromEntries(TITLES.map((t) => [t.id, { name: t.name, ledger: t.ledger }]));

export type EditionRow = { titleId: number; editionId: number; type: number; description: string; code: string };

function parseEdition(v: Record<string, string>, line: number): Parsed<EditionRow> {
  const c = rowChecker(line);
  const known = Object.keys(KNOWN_TITLES).map(Number);
  const row = {
    line,
    titleId: c.oneOf("title_id", v.title_id, known, "en känd titel (1 Aftonbladet, 2 Expressen)"),
    editionId: c.int("edition_id", v.edition_id, 1, 99999),
    type: c.oneOf("type", v.type, [0, 1], "0 (huvudtidning) eller 1 (bilaga)"),
    description: c.text("description", v.description, 200, true),
    code: c.text("code", v.code, 20, false),
  };
  return { row: c.problems.length ? null : row, problems: c.problems };
}

export const editionsHandler: Handler<EditionRow> = {
  parse: parseEdition,
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

