// Hostile import files through the real `portal import`
// command. Each is refused (non-zero exit, problem by line) and nothing is stored.
import { writeFileSync } from "node:fs";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import { portal } from "./cli-run";
import { db } from "./helpers";

const HEADER = "customer_id;title_id;edition_id;delivery_date;delivered;price_ore";

async function deliveries() {
  return (await db().select({ n: count() }).from(schema.deliveries))[0].n;
}

describe("hostile import files", () => {
  it("binary content, a 5 MB line, 2.1 million rows and a missing header are refused and store nothing", async () => {
    const dir = process.env.DATABASE_URL!.slice("file:".length) + "-files";
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const files: Record<string, Buffer | string> = {
      "binary.csv": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0xfe]),
      "long-line.csv": `${HEADER}\n1;1;1;2025-03-10;${"9".repeat(5_000_000)};2200\n`,
      "too-many-rows.csv": `${HEADER}\n${"1;1;1;2025-03-10;1;1\n".repeat(2_000_001)}`,
      "no-header.csv": "1;1;1;2025-03-10;1;1\n",
    };
    const before = await deliveries();
    for (const [name, content] of Object.entries(files)) {
      const path = `${dir}/${name}`;
      writeFileSync(path, content);
      const r = await portal(["import", "deliveries", path]);
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).not.toBe(0);
      // A binary file is no text at all: refused before any line is read.
      expect(r.stderr, name).toMatch(name === "binary.csv" ? /är ingen textfil/ : /line \d+/);
    }
    expect(await deliveries()).toBe(before);
    expect((await db().$client.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
  }, 120_000);
});

describe("names that read differently than they are stored", () => {
  it("a customer file with a direction override or a control character is refused by line and column, nothing stored", async () => {
    const dir = process.env.DATABASE_URL!.slice("file:".length) + "-files";
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const path = `${dir}/bidi-customers.csv`;
    writeFileSync(
      path,
      "customer_id;name;address;zip;city;distributor_id;phone;email\n" +
        "31501;Şahin Livs;Storgatan 1;111 20;Stockholm;1;;\n" +
        "31502;Pressbyrån \u202Egrebnerö\u202C;Torget 2;702 10;Örebro;1;;\n" +
        "31503;Kiosken\u0007;Torget 3;702 10;Örebro;1;;\n",
    );
    const r = await portal(["import", "customers", path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 3: name: osynliga styr- eller riktningstecken");
    expect(r.stderr).toContain("line 4: name: osynliga styr- eller riktningstecken");
    const stored = await db().select({ id: schema.customers.id }).from(schema.customers);
    expect(stored.map((c) => c.id)).not.toContain(31501);
    // The CLI's own arguments follow the same rule.
    const add = await portal(["customer", "add", "--id", "31504", "--name", "Kiosk\u202E", "--distributor", "1", "--pin-stdin"], { input: "482913\n" });
    expect(add.code).toBe(2);
    expect(add.stderr).toContain("Texten innehåller osynliga styr- eller riktningstecken.");
  });
});
