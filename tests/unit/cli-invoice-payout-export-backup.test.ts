// `portal invoice run`, `payout files`, `export distribution`, `backup` and an
// interrupted import, against this file's database: in-process, except the import that is killed (a real child process).
import { createClient } from "@libsql/client";
import ExcelJS from "exceljs";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { addToRefund, payoutCsvFiles } from "../../app/features/guarantees/guarantees.server";
import { dbFile, portal, spawnCliChild } from "./cli-run";
import { schemaProblems } from "../schemas/validate";
import { baseData, db, newCustomer, newDelivery } from "./helpers";

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), "cli-jobs-"));
let a: number;
let b: number;

beforeAll(async () => {
  await baseData();
  a = await newCustomer({ name: "Kiosken Alfa" });
  b = await newCustomer({ name: "Kiosken Beta", distributorId: 2 });
  await db().update(schema.customers).set({ orgNumber: "556677-8899", bankgiro: "123-4566" }).where(eq(schema.customers.id, a));
  await db().update(schema.customers).set({ orgNumber: "551122-3348", bankAccount: "8327-9, 123 456 789-7" }).where(eq(schema.customers.id, b));
  const d1 = await newDelivery(a, { date: "2026-02-02", delivered: 20, priceOre: 2219 });
  await newDelivery(a, { date: "2026-02-03", titleId: 1, editionId: 20, delivered: 5, priceOre: 1090 });
  await newDelivery(b, { date: "2026-02-02", titleId: 2, editionId: 1, delivered: 12, priceOre: 2163 });
  await db().update(schema.deliveries).set({ received: 18, receivedAt: Date.now() }).where(eq(schema.deliveries.id, d1.id));
});

describe("invoice run", () => {
  it("dry run, run, and a second run that creates nothing", async () => {
    const dry = await portal(["invoice", "run", "--from", "2026-02-01", "--to", "2026-02-28", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("Huvudtidningar: 2 fakturor, netto 703,36 kr, moms 42,20 kr, att betala 745,56 kr");
    expect(dry.stdout).toContain("Bilagor: 1 fakturor, netto 54,50 kr, moms 3,27 kr, att betala 57,77 kr");
    expect(dry.stdout).toMatch(/invoice run 2026-02-01\.\.2026-02-28: 3 new, 0 already invoiced .*dry-run/);
    expect((await db().select().from(schema.invoices)).length).toBe(0);

    const run = await portal(["invoice", "run", "--from", "2026-02-01", "--to", "2026-02-28"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/3 new, 0 already invoiced, nummer 500001–500003/);
    const invoices = await db().select().from(schema.invoices).orderBy(schema.invoices.number);
    expect(invoices.map((i) => [i.customerId, i.paperType, i.amountOre, i.date, i.dueDate])).toEqual([
      [a, 0, 47043, "2026-03-10", "2026-04-09"],
      [a, 1, 5777, "2026-03-10", "2026-04-09"],
      [b, 0, 27513, "2026-03-10", "2026-04-09"],
    ]);

    const again = await portal(["invoice", "run", "--from", "2026-02-01", "--to", "2026-02-28"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 new, 3 already invoiced/);
    expect((await db().select().from(schema.invoices)).length).toBe(3);

    const overlap = await portal(["invoice", "run", "--from", "2026-02-15", "--to", "2026-03-15"]);
    expect(overlap.code).toBe(1);
    expect(overlap.stderr).toContain("överlappar");
  });

  it("credits an invoice with `portal invoice credit`: chosen lines, then the rest, refusals exit 1", async () => {
    const [first] = await db().select().from(schema.invoices).orderBy(schema.invoices.number).limit(1);
    const lines = await db().select().from(schema.invoiceLines).where(eq(schema.invoiceLines.invoiceId, first.id)).orderBy(schema.invoiceLines.id);
    expect((await portal(["invoice", "credit", String(first.number)])).code).toBe(2);
    const one = await portal(["invoice", "credit", String(first.number), "--reason", "Fel pris", "--line", String(lines[0].id)]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`^kreditfaktura 900001 för faktura ${first.number}: 1 rader, netto -`));
    const again = await portal(["invoice", "credit", String(first.number), "--reason", "Igen", "--line", String(lines[0].id)]);
    expect([again.code, again.stderr.trim()]).toEqual([1, `portal: Raden är redan krediterad på faktura ${first.number}.`]);
    const rest = await portal(["invoice", "credit", String(first.number), "--reason", "Resten"]);
    expect(rest.code).toBe(lines.length > 1 ? 0 : 1);
    expect((await portal(["invoice", "credit", "1", "--reason", "x"])).stderr.trim()).toBe("portal: Faktura 1 finns inte.");
    const [after] = await db().select().from(schema.invoices).where(eq(schema.invoices.id, first.id));
    expect(after.status).toBe("Krediterad");
  });
});

describe("report reconcile", () => {
  it("prints the month per title and exits 0 when it adds up, 1 with the difference when it does not", async () => {
    const ok = await portal(["report", "reconcile", "--from", "2026-02-01", "--to", "2026-02-28"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^Aftonbladet, huvudtidning: levererat \d+ ex [\d,]+ kr, .*differens 0 ex 0,00 kr$/m);
    expect(ok.stdout).toMatch(/^Totalt: .*differens 0 ex 0,00 kr$/m);
    expect(ok.stdout).toContain("reconcile 2026-02-01..2026-02-28: stämmer");
    // A delivery written into the billed month behind the import's back: never billed.
    await newDelivery(a, { date: "2026-02-20", titleId: 2, editionId: 2, delivered: 4, priceOre: 2163 });
    const off = await portal(["report", "reconcile", "--from", "2026-02-01", "--to", "2026-02-28", "--by", "customer"]);
    expect(off.code).toBe(1);
    expect(off.stdout).toContain(`Kund ${a}: `);
    expect(off.stderr.trim()).toBe("portal: Avstämningen 2026-02-01..2026-02-28 stämmer inte: differens 4 ex 86,52 kr.");
    expect((await portal(["report", "reconcile", "--from", "2026-02-01", "--to", "2026-02-28", "--by", "kund"])).code).toBe(2);
    // What the web server reads from its child process: the same figures as JSON, exit 0.
    const json = await portal(["report", "reconcile", "--from", "2026-02-01", "--to", "2026-02-28", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).total.difference).toEqual({ copies: 4, ore: 8652 });
  });
});

describe("payout files", () => {
  it("writes the CSV and the bank's ISO 20022 file per title and the PDF underlag, the same as the staff download", async () => {
    await db().insert(schema.guarantees).values([
      { customerId: a, ledger: 83, amountOre: 45050 },
      { customerId: a, ledger: 80, amountOre: 30000 },
      { customerId: b, ledger: 83, amountOre: 12500 },
    ]);
    for (const g of await db().select().from(schema.guarantees)) await addToRefund(g.customerId, g.id, { id: "staff:1" }, "2026-03-10");
    const out = join(dir, "payout");
    const r = await portal(["payout", "files", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      "aftonbladet-2026-v12.csv",
      "aftonbladet-2026-v12.xml",
      "expressen-2026-v12.csv",
      "expressen-2026-v12.xml",
      `underlag-${a}-2026-v12.pdf`,
      `underlag-${b}-2026-v12.pdf`,
      "underlag-aftonbladet-2026-v12.pdf",
      "underlag-expressen-2026-v12.pdf",
    ]);
    const csv = readFileSync(join(out, "aftonbladet-2026-v12.csv"), "utf8");
    expect(csv).toBe(
      `\uFEFFkundnummer;namn;orgnummer;bankgiro;bankkonto;belopp;utbetalningsdatum\r\n${a};Kiosken Alfa;556677-8899;123-4566;;450,50;2026-03-16\r\n${b};Kiosken Beta;551122-3348;;8327-9, 123 456 789-7;125,00;2026-03-16\r\n`,
    );
    const staff = await payoutCsvFiles({ id: "staff:1" }, {}, "2026-03-10");
    for (const f of staff) expect(readFileSync(join(out, f.filename), "utf8")).toBe(f.content);
    // The bank's file: valid against ISO 20022's schema, both payees, the same message id as the staff download's.
    const xml = readFileSync(join(out, "aftonbladet-2026-v12.xml"), "utf8");
    expect(schemaProblems(xml, "pain.001.001.03.xsd")).toBe("");
    expect(xml).toContain("<GrpHdr><MsgId>");
    expect(xml).toMatch(/<NbOfTxs>2<\/NbOfTxs><CtrlSum>575\.50<\/CtrlSum>/);
    expect(xml).toContain("<Othr><Id>1234566</Id><SchmeNm><Prtry>BGNR</Prtry></SchmeNm></Othr>");
    expect(xml).toContain("<Othr><Id>832791234567897</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr>");
    expect(xml).toContain("<ReqdExctnDt>2026-03-16</ReqdExctnDt>");
    const [staffXml] = await payoutCsvFiles({ id: "staff:1" }, { ledger: 83 }, "2026-03-10", "pain001");
    expect(String(staffXml.content).match(/<MsgId>([^<]+)</)?.[1]).toBe(xml.match(/<MsgId>([^<]+)</)?.[1]);
    const text = execFileSync("pdftotext", [join(out, "underlag-expressen-2026-v12.pdf"), "-"], { encoding: "utf8" });
    expect(text).toContain("Kiosken Alfa");
    expect(text).not.toContain("Kiosken Beta");
    const audits = await db().select().from(schema.auditLog).where(sql`${schema.auditLog.action} = 'payout.file' and ${schema.auditLog.actor} = 'cli'`);
    expect(audits.length).toBe(8);

    const again = await portal(["payout", "files", "--out", out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("finns redan");
  });
});

describe("export distribution", () => {
  it("writes the staff Excel export, read back with exceljs", async () => {
    const out = join(dir, "dist.xlsx");
    const r = await portal(["export", "distribution", "--from", "2026-02-01", "--to", "2026-02-28", "--distributor", "1", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 rows -> /);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, "Namn", "Kundnr", "Postnr", "Ort", "Tidning", "Leveransdatum", "Följesedel", "Mottagit", "Antal", "Summa (kr)", "Distributör"]);
    const row = sheet.getRow(2).values as unknown[];
    expect(row.slice(1, 6)).toEqual(["Kiosken Alfa", a, "111 22", "Stockholm", "Aftonbladet"]);
    expect((row[6] as Date).toISOString().slice(0, 10)).toBe("2026-02-02");
    expect(row.slice(7, 11)).toEqual([20, 18, 2, 44.38]);
    expect(row[11]).toEqual(expect.any(String));
    expect(sheet.rowCount).toBe(2);
    const again = await portal(["export", "distribution", "--from", "2026-02-01", "--to", "2026-02-28", "--out", out]);
    expect(again.code).toBe(1);
  });
});

describe("backup", () => {
  it("writes a copy that opens and passes integrity_check, and never overwrites", async () => {
    const out = join(dir, "backup.db");
    const r = await portal(["backup", "--out", out]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("integrity_check ok");
    const copy = createClient({ url: `file:${out}` });
    expect((await copy.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    const n = (await copy.execute("select count(*) from invoices")).rows[0][0];
    copy.close();
    expect(Number(n)).toBe((await db().select().from(schema.invoices)).length);
    const size = statSync(out).size;
    const again = await portal(["backup", "--out", out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("finns redan");
    expect(statSync(out).size).toBe(size);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});

describe("an interrupted import", () => {
  it("killed while writing leaves no partial rows", async () => {
    // 1,500 customers × 4 editions × 40 days = 240,000 rows: long enough to kill mid-write.
    let customers = "customer_id;name;address;zip;city;distributor_id;phone;email\n";
    for (let i = 0; i < 1500; i++) customers += `${30000 + i};Kiosk ${i};;;;1;;\n`;
    expect((await portal(["import", "customers", "-"], { input: customers })).code).toBe(0);
    const lines = ["customer_id;title_id;edition_id;delivery_date;delivered;price_ore"];
    const editions = [[1, 1], [2, 1], [2, 2], [1, 20]];
    for (let day = 1; day <= 40; day++) {
      const date = `2025-${String(10 + Math.floor((day - 1) / 28)).padStart(2, "0")}-${String(((day - 1) % 28) + 1).padStart(2, "0")}`;
      for (let i = 0; i < 1500; i++) for (const [t, e] of editions) lines.push(`${30000 + i};${t};${e};${date};${10 + (i % 20)};2219`);
    }
    const big = join(dir, "big.csv");
    writeFileSync(big, `${lines.join("\n")}\n`);
    const before = (await db().select({ n: sql<number>`count(*)` }).from(schema.deliveries))[0].n;
    const wal = `${dbFile()}-wal`;
    const walStart = existsSync(wal) ? statSync(wal).size : 0;

    const child = spawnCliChild(["import", "deliveries", big]);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let killed = false;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      // Started writing: the write-ahead log has grown by several pages.
      if (existsSync(wal) && statSync(wal).size > walStart + 2_000_000) {
        child.kill("SIGKILL");
        killed = true;
        break;
      }
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await exited;
    expect(killed, "the import was killed while writing").toBe(true);
    const after = (await db().select({ n: sql<number>`count(*)` }).from(schema.deliveries))[0].n;
    expect(after).toBe(before);
    expect((await db().$client.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    // The file imports in full afterwards.
    const r = await portal(["import", "deliveries", big]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deliveries: 240000 new, 0 changed, 0 unchanged/);
  });
});
