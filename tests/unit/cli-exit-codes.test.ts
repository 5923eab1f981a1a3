// The CLI's outcomes mapped once to exit codes (cli/program.ts, EXIT; README "Exit codes"),
// in-process against this file's database: a Refusal is 1 with its own words, a database
// another process holds is 3 (run again), anything no rule foresaw is 4.
import { createClient } from "@libsql/client";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/program";
import { dbFile, portal, spawnCli } from "./cli-run";
import { baseData, newCustomer } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "cli-exit-"));

beforeAll(async () => {
  await baseData();
  await newCustomer({ name: "Şahin Livs" });
});

describe("portal's exit codes", () => {
  it("a refusal (a file that is no text, a database already filled, an output that exists) is 1 with its message", async () => {
    const binary = join(dir, "leveranser.csv");
    writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xfe, 0x00]));
    const notText = await portal(["import", "orders", binary]);
    expect(notText).toMatchObject({ code: EXIT.refused, stderr: "portal: orders: filen är ingen textfil (CSV).\n" });

    const seeded = await portal(["seed", "--demo"]);
    expect(seeded).toMatchObject({ code: EXIT.refused, stderr: "portal: Databasen har redan kunder; seed --demo fyller bara en tom databas.\n" });

    const taken = join(dir, "finns.xlsx");
    writeFileSync(taken, "");
    const exists = await portal(["export", "distribution", "--from", "2026-03-01", "--to", "2026-03-07", "--out", taken]);
    expect(exists).toMatchObject({ code: EXIT.refused, stderr: `portal: ${taken} finns redan; välj ett nytt filnamn.\n` });
  });

  it("a database another process holds for the whole write wait is 3: run it again", async () => {
    const other = createClient({ url: `file:${dbFile()}` });
    const lock = await other.transaction("write");
    await lock.execute("insert into audit_log (actor, action) values ('cli', 'exit-code.test')");
    try {
      const r = await portal(["customer", "add", "--id", "31901", "--name", "Kiosken Låst", "--distributor", "1", "--pin-stdin"], { input: "482913\n", env: { PORTAL_WRITE_WAIT_MS: "300" } });
      expect(r.code, r.stderr).toBe(EXIT.busy);
      expect(r.stderr).toMatch(/^portal: .*(upptagen|igen)/);
    } finally {
      await lock.rollback();
      other.close();
    }
    // Once the other process lets go, the same command is done.
    const again = await portal(["customer", "add", "--id", "31901", "--name", "Kiosken Låst", "--distributor", "1", "--pin-stdin"], { input: "482913\n" });
    expect(again.code, again.stderr).toBe(EXIT.done);
  });

  it("an output folder that does not exist is refused at once, with nothing left behind", async () => {
    // Before, the file stream's error went unheard: the export waited for ever.
    const out = join(dir, "saknas", "rapport.xlsx");
    const r = await portal(["export", "distribution", "--from", "2026-03-01", "--to", "2026-03-07", "--out", out]);
    expect(r).toMatchObject({ code: EXIT.refused, stderr: `portal: Kan inte skriva ${out}: ENOENT\n` });
  });

  it("a setting db/ checks itself (DATABASE_URL, PORTAL_WRITE_WAIT_MS) is refused like any setting: 1", () => {
    const url = spawnCli(["report", "reconcile", "--from", "2026-03-01", "--to", "2026-03-07"], { env: { DATABASE_URL: "postgres://x" } });
    expect(url.code, url.stderr).toBe(EXIT.refused);
    expect(url.stderr).toContain('portal: DATABASE_URL "postgres://x" har ett okänt schema');
  });

  it("what no rule foresaw (the database file is no database) is 4, said as unexpected", () => {
    const broken = join(dir, "trasig.db");
    writeFileSync(broken, Buffer.alloc(8192, 0x5a));
    const r = spawnCli(["report", "reconcile", "--from", "2026-03-01", "--to", "2026-03-07"], { env: { DATABASE_URL: `file:${broken}` } });
    expect(r.code, r.stderr).toBe(EXIT.broken);
    expect(r.stderr).toMatch(/^portal: oväntat fel: .*not a database/m);
  });
});
