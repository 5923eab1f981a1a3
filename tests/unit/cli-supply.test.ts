// `portal supply export` and `portal supply suggest` (decision 037), in-process against this
// file's database: planning's file holds each decided change once, in the documented columns.
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { addDays } from "../../app/lib/dates";
import { portal } from "./cli-run";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "cli-supply-"));
let shop: number;

beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ name: "Şahin Livs; Tobak", distributorId: 2 });
  // Eight Saturdays before the CLI's date (2026-03-10), Aftonbladet 10 each, sold out on all.
  for (let i = 0; i < 8; i++) {
    const d = await newDelivery(shop, { date: addDays("2026-03-07", -7 * i), delivered: 10 });
    await db().update(schema.deliveries).set({ reportedAt: Date.now() }).where(eq(schema.deliveries.id, d.id));
  }
  await db()
    .insert(schema.supplyChanges)
    .values({ customerId: shop, titleId: 1, editionId: 1, weekday: 6, oldCopies: 10, requested: 12, newCopies: 12, status: "approved", origin: "retailer", startDate: "2026-03-16", cutoffAt: 0, createdBy: `customer:${shop}`, decidedBy: "anna@tidningsbud.example", reason: null, suggestion: "Slutsålt 8 av de 8 senaste lördagarna: förslag 12 i stället för 10" });
});

describe("portal supply", () => {
  it("exports the decided changes once, as ; UTF-8 CSV with the documented header", async () => {
    // A file already there: refused before anything is marked sent.
    const taken = join(dir, "redan.csv");
    writeFileSync(taken, "gammal fil");
    expect((await portal(["supply", "export", "--out", taken])).code).not.toBe(0);
    expect(readFileSync(taken, "utf8")).toBe("gammal fil");
    const out = join(dir, "planering.csv");
    const first = await portal(["supply", "export", "--out", out]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^export \d+: 1 ändringar till /);
    expect(readFileSync(out, "utf8")).toBe(
      "kundnummer;kund;titel;veckodag_eller_datum;gammalt_antal;nytt_antal;startdatum;beslutat_av;anledning\r\n" +
        `${shop};"Şahin Livs; Tobak";Aftonbladet;lördag;10;12;2026-03-16;anna@tidningsbud.example;Slutsålt 8 av de 8 senaste lördagarna: förslag 12 i stället för 10\r\n`,
    );
    // Nothing new: no file, exit 0 (a daily job need not fail).
    const again = await portal(["supply", "export", "--out", join(dir, "igen.csv")]);
    expect(again).toMatchObject({ code: 0, stdout: "Inga nya beslutade ändringar att skicka till planeringen.\n" });
    expect(existsSync(join(dir, "igen.csv"))).toBe(false);
  });

  it("never writes over a file, and suggests from the sell-through", async () => {
    const taken = join(dir, "finns.csv");
    writeFileSync(taken, "gammalt");
    const refused = await portal(["supply", "suggest", "--out", taken]);
    expect(refused.code).not.toBe(0);
    expect(readFileSync(taken, "utf8")).toBe("gammalt");
    await db().update(schema.supplyChanges).set({ status: "in_force" }).where(eq(schema.supplyChanges.customerId, shop));
    const out = join(dir, "forslag.csv");
    const r = await portal(["supply", "suggest", "--distributor", "2", "--out", out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain(`${shop};"Şahin Livs; Tobak";Aftonbladet;lördag;10;12;Slutsålt 8 av de 8 senaste lördagarna: förslag 12 i stället för 10\r\n`);
  });
});
