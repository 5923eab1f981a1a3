// Issue 8 item 8, CLI side: hostile import files through the real `portal import`
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
      const started = Date.now();
      const r = await portal(["import", "deliveries", path]);
      expect(r.code, `${name}: ${r.stdout}${r.stderr}`).not.toBe(0);
      expect(r.stderr, name).toMatch(/line \d+/);
      expect(Date.now() - started, `${name} bounded in time`).toBeLessThan(30_000);
    }
    expect(await deliveries()).toBe(before);
    expect((await db().$client.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
  }, 120_000);
});
