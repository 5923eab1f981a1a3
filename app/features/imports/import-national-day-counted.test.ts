// importFile against the real database: a national day of deliveries, and the counts on a
// re-run and a change.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { importFile } from "./imports.server";
import { baseData, db } from "../../../tests/unit/helpers";

describe("importFile at national scale", () => {
  // How fast is the bench's to say (B5, bench/run.ts), not this test's.
  it("imports ~23,000 deliveries of a national day, and a re-run and a one-row change count right", async () => {
    await baseData();
    let customers = "customer_id;name;address;zip;city;distributor_id;phone;email\n";
    for (let i = 1; i <= 6500; i++) customers += `${40000 + i};Kiosk ${i};Gatan ${i};111 22;Stad;${1 + (i % 2)};;\n`;
    expect((await importFile("customers", customers, { actor: { id: "test" }, source: "c.csv" })).created).toBe(6500);
    const rows = ["customer_id;title_id;edition_id;delivery_date;delivered;price_ore"];
    for (let i = 1; i <= 6500; i++) {
      rows.push(`${40000 + i};1;1;2026-03-02;${10 + (i % 30)};2219`, `${40000 + i};2;1;2026-03-02;${5 + (i % 20)};2163`);
      if (i % 3 !== 0) rows.push(`${40000 + i};1;20;2026-03-02;${4 + (i % 9)};1090`);
      if (i % 4 === 0) rows.push(`${40000 + i};2;2;2026-03-02;${3 + (i % 5)};2163`);
    }
    const text = `${rows.join("\n")}\n`;
    const first = await importFile("deliveries", text, { actor: { id: "test" }, source: "d.csv" });
    expect(first).toMatchObject({ created: rows.length - 1, changed: 0, unchanged: 0, applied: true });
    const again = await importFile("deliveries", text, { actor: { id: "test" }, source: "d.csv" });
    expect(again).toMatchObject({ created: 0, changed: 0, unchanged: rows.length - 1 });
    const changed = await importFile("deliveries", text.replace(";2219\n", ";2300\n"), { actor: { id: "test" }, source: "d.csv" });
    expect(changed).toMatchObject({ created: 0, changed: 1, unchanged: rows.length - 2 });
    const [{ n }] = await db().select({ n: sql<number>`count(*)` }).from(schema.deliveries);
    expect(n).toBe(rows.length - 1);
  });

  it("a dry run and a file with a bad row apply nothing", async () => {
    const header = "customer_id;title_id;edition_id;delivery_date;delivered;price_ore\n";
    const dry = await importFile("deliveries", `${header}40001;1;1;2026-03-03;5;2219\n`, { actor: { id: "test" }, source: "x", dryRun: true });
    expect(dry).toMatchObject({ created: 1, applied: false });
    const bad = await importFile("deliveries", `${header}40001;1;1;2026-03-03;5;2219\n40001;1;1;2026-03-04;-1;2219\n`, { actor: { id: "test" }, source: "x" });
    expect(bad.applied).toBe(false);
    expect(bad.problems).toEqual([{ line: 3, column: "delivered", reason: "ska vara mellan 0 och 99999" }]);
    const [{ n }] = await db().select({ n: sql<number>`count(*)` }).from(schema.deliveries).where(sql`${schema.deliveries.deliveryDate} > '2026-03-02'`);
    expect(n).toBe(0);
  });
});
