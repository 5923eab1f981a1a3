// The demo database can be rebuilt from tests/fixtures/demo/*.csv alone with the
// import commands, and the retailer's delivery note shows what was imported.
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { listDeliveryNote } from "../../app/features/deliveries/deliveries.server";
import { portal } from "./cli-run";
import { db } from "./helpers";

vi.setConfig({ testTimeout: 120_000 });

const ORDER = ["distributors", "customers", "editions", "deliveries", "guarantees", "orders"];

describe("demo data from the sample files", () => {
  it("refuses deliveries before their customers exist, applying nothing", async () => {
    const r = await portal(["import", "deliveries", "tests/fixtures/demo/deliveries.csv"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 2: customer_id: kund 1001 finns inte");
    expect((await db().select({ n: sql<number>`count(*)` }).from(schema.deliveries))[0].n).toBe(0);
  });

  it("imports into an empty database, and the retailer sees the deliveries", async () => {
    for (const kind of ORDER) {
      const r = await portal(["import", kind, `tests/fixtures/demo/${kind}.csv`]);
      expect(r.stderr, kind).toBe("");
      expect(r.code, kind).toBe(0);
      expect(r.stdout, kind).toMatch(new RegExp(`^${kind}: \\d+ new, 0 changed, 0 unchanged, 0 skipped`));
    }
    const fileRows = readFileSync("tests/fixtures/demo/deliveries.csv", "utf8").trim().split("\n").slice(1).map((l) => l.split(";"));
    const mine = fileRows.filter((f) => f[0] === "1001");
    const note = await listDeliveryNote(1001, "2026-03-08");
    expect(note.map((d) => d.date)).toEqual(["2026-03-08", "2026-03-07", "2026-03-06", "2026-03-05", "2026-03-04", "2026-03-03", "2026-03-02"]);
    const shown = note.flatMap((d) => d.rows.map((r) => [String(r.titleId), String(r.editionId), r.deliveryDate, String(r.delivered)]));
    expect(shown.sort()).toEqual(mine.map((f) => [f[1], f[2], f[3], f[4]]).sort());
    expect(note[0].rows.map((r) => r.description).sort()).toEqual(["Aftonbladet", "Aftonbladet Söndag", "Expressen", "Expressen Söndag"]);
    // Titles were created by the editions import.
    expect((await db().select().from(schema.titles)).map((t) => t.name).sort()).toEqual(["Aftonbladet", "Expressen"]);
  });

  it("a second import of every file changes nothing", async () => {
    for (const kind of ORDER) {
      const r = await portal(["import", kind, `tests/fixtures/demo/${kind}.csv`]);
      expect(r.code, kind).toBe(0);
      expect(r.stdout, kind).toMatch(new RegExp(`^${kind}: 0 new, 0 changed, \\d+ unchanged, 0 skipped`));
    }
  });
});
