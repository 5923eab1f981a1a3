// `portal import …` (in-process, tests/unit/cli-run.ts): good, bad and re-run files.
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { schema } from "../../db/client";
import { createBundle, createReturn } from "../../cli/seed/factories";
import { verifySecret } from "../../app/features/auth/passwords.server";
import { addToRefund } from "../../app/features/guarantees/guarantees.server";
import { CustomerAddSchema, ZIP_RULE } from "../../app/features/customers";
import { portal } from "./cli-run";
import { db } from "./helpers";

// Each test starts the CLI a few times (about a second each).
vi.setConfig({ testTimeout: 90_000 });

const dir = mkdtempSync(join(tmpdir(), "cli-imports-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const DELIVERY_HEADER = "customer_id;title_id;edition_id;delivery_date;delivered;price_ore\n";
const count = async (table: typeof schema.deliveries | typeof schema.customers | typeof schema.guarantees | typeof schema.orderLines) =>
  (await db().select({ n: sql<number>`count(*)` }).from(table))[0].n;

beforeAll(async () => {
  for (const kind of ["distributors", "customers", "editions", "deliveries", "guarantees", "orders"]) {
    const r = await portal(["import", kind, `tests/fixtures/${kind}.csv`]);
    expect(r.stderr, kind).toBe("");
    expect(r.code, kind).toBe(0);
  }
}, 60_000);

describe("import, good files", () => {
  it("applied the sample files, quoting and BOM included", async () => {
    const [c] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1002));
    expect(c).toMatchObject({ name: "Tobak & Tidningar; Malmö", distributorId: 2, city: "Malmö", phone: "", pinHash: null });
    expect(await count(schema.deliveries)).toBe(6);
    const [d] = await db().select().from(schema.deliveries).where(sql`${schema.deliveries.customerId} = 1003 and ${schema.deliveries.editionId} = 1`);
    expect(d).toMatchObject({ titleId: 1, editionId: 1, deliveryDate: "2026-03-02", delivered: 30, priceOre: 2219 });
    expect(await count(schema.guarantees)).toBe(3);
    expect(await count(schema.orderLines)).toBe(2);
    const audits = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "import.deliveries"));
    expect(audits[0]).toMatchObject({ actor: "cli", target: "tests/fixtures/deliveries.csv" });
  });

  it("re-running every file changes nothing and says so", async () => {
    const before = await db().select().from(schema.deliveries);
    const expected: Record<string, number> = { distributors: 2, customers: 3, editions: 5, deliveries: 6, guarantees: 3, orders: 2 };
    for (const [kind, n] of Object.entries(expected)) {
      const r = await portal(["import", kind, `tests/fixtures/${kind}.csv`]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^${kind}: 0 new, 0 changed, ${n} unchanged, 0 skipped \\(\\d+\\.\\d s\\)\\n$`));
    }
    expect(await db().select().from(schema.deliveries)).toEqual(before);
  });

  it("counts new and changed rows, and reads standard input for -", async () => {
    const input = `${DELIVERY_HEADER}1001;1;1;2026-03-02;26;2219\n1001;1;1;2026-03-03;20;2219\n1002;1;1;2026-03-02;12;2219\n`;
    const r = await portal(["import", "deliveries", "-"], { input });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deliveries: 1 new, 1 changed, 1 unchanged, 0 skipped/);
    const rows = await db().select().from(schema.deliveries).where(eq(schema.deliveries.customerId, 1001));
    expect(rows.map((x) => [x.deliveryDate, x.titleId, x.delivered]).sort()).toEqual([
      ["2026-03-02", 1, 26],
      ["2026-03-02", 2, 18],
      ["2026-03-03", 1, 20],
    ]);
  });

  it("--dry-run validates and counts but applies nothing", async () => {
    const r = await portal(["import", "deliveries", file("dry.csv", `${DELIVERY_HEADER}1003;1;1;2026-03-04;9;2219\n`), "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deliveries: 1 new, 0 changed, 0 unchanged, 0 skipped .*dry-run/);
    expect((await db().select().from(schema.deliveries).where(eq(schema.deliveries.deliveryDate, "2026-03-04"))).length).toBe(0);
  });
});

describe("import, bad files", () => {
  it("reports every bad row by line and column, applies nothing, exits 1", async () => {
    const before = await db().select().from(schema.deliveries);
    const text =
      DELIVERY_HEADER +
      "1001;1;1;2026-03-05;20;2219\n" + // 2: fine
      "9999;1;1;2026-03-05;5;2219\n" + // 3: unknown customer
      "1001;1;7;2026-02-30;x;-1\n" + // 4: date, delivered, price
      "1001;1;1;2026-03-05;21;2219\n" + // 5: same key as 2
      "1002;2;99;2026-03-05;3;2163\n" + // 6: unknown edition
      "1002\n"; // 7: field count
    const r = await portal(["import", "deliveries", file("bad.csv", text)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n").filter((l) => l.startsWith("line "))).toEqual([
      "line 3: customer_id: kund 9999 finns inte",
      "line 4: delivery_date: ska vara ett datum ÅÅÅÅ-MM-DD",
      "line 4: delivered: ska vara ett heltal",
      "line 4: price_ore: ska vara mellan 0 och 10000000",
      "line 5: customer_id+title_id+edition_id+delivery_date: samma nyckel som rad 2",
      "line 6: edition_id: utgåva 99 av titel 2 finns inte",
      "line 7: -: 1 fält, rubriken har 6",
    ]);
    expect(r.stderr).toContain("5 felaktiga rader av 6; ingenting har ändrats");
    expect(await db().select().from(schema.deliveries)).toEqual(before);
  });

  it("--skip-invalid applies the good rows and counts the skipped ones", async () => {
    const text = `${DELIVERY_HEADER}1001;1;1;2026-03-06;20;2219\n9999;1;1;2026-03-06;5;2219\n`;
    const r = await portal(["import", "deliveries", file("skip.csv", text), "--skip-invalid"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("line 3: customer_id: kund 9999 finns inte");
    expect(r.stdout).toMatch(/^deliveries: 1 new, 0 changed, 0 unchanged, 1 skipped/);
    expect((await db().select().from(schema.deliveries).where(eq(schema.deliveries.deliveryDate, "2026-03-06"))).length).toBe(1);
  });

  it("a missing or unknown column stops the file even with --skip-invalid", async () => {
    const r = await portal(["import", "customers", file("cols.csv", "customer_id;name;adress\n1;x;y\n"), "--skip-invalid"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 1: address: kolumnen saknas");
    expect(r.stderr).toContain("line 1: adress: okänd kolumn");
  });

  it("a delivered amount below the returns already reported is a bad row", async () => {
    const [d] = await db().select().from(schema.deliveries).where(sql`${schema.deliveries.customerId} = 1003 and ${schema.deliveries.editionId} = 1`);
    const bundle = await createBundle(db(), { customerId: 1003, number: 1, type: 0 });
    await createReturn(db(), { customerId: 1003, bundleId: bundle.id, deliveryId: d.id, amount: 12 });
    const bad = await portal(["import", "deliveries", file("low.csv", `${DELIVERY_HEADER}1003;1;1;2026-03-02;11;2219\n`)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("line 2: delivered: 11 är färre än de 12 som redan rapporterats i retur");
    const [after] = await db().select().from(schema.deliveries).where(eq(schema.deliveries.id, d.id));
    expect(after.delivered).toBe(30);
    const ok = await portal(["import", "deliveries", file("low-ok.csv", `${DELIVERY_HEADER}1003;1;1;2026-03-02;12;2219\n`)]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/0 new, 1 changed, 0 unchanged/);
  });

  it("an edition whose copies lie in bundles keeps its paper type; its name may change", async () => {
    const [d] = await db().select().from(schema.deliveries).where(sql`${schema.deliveries.customerId} = 1003 and ${schema.deliveries.editionId} = 1`);
    const [bundle] = await db().select().from(schema.bundles).where(sql`${schema.bundles.customerId} = 1003 and ${schema.bundles.number} = 1`);
    const [held] = await db().select().from(schema.returns).where(eq(schema.returns.deliveryId, d.id));
    expect(held?.bundleId, "the returns of the test before").toBe(bundle.id);
    const header = "title_id;edition_id;type;description;code\n";
    const bad = await portal(["import", "editions", file("retype.csv", `${header}${d.titleId};1;1;Kvällstidning;KT\n`)]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("line 2: type: utgåvan har redan returer i buntar av typ 0; typen kan inte ändras");
    const [edition] = await db().select().from(schema.editions).where(sql`${schema.editions.titleId} = ${d.titleId} and ${schema.editions.editionId} = 1`);
    expect(edition.type).toBe(0);
    const renamed = await portal(["import", "editions", file("rename.csv", `${header}${d.titleId};1;0;${edition.description} Morgon;${edition.code}\n`)]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toMatch(/0 new, 1 changed, 0 unchanged/);
    const back = await portal(["import", "editions", file("rename-back.csv", `${header}${d.titleId};1;0;${edition.description};${edition.code}\n`)]);
    expect(back.code, back.stderr).toBe(0);
  });

  it("customers: unknown distributor and bad e-mail are bad rows; nothing applied", async () => {
    const text = "customer_id;name;address;zip;city;distributor_id;phone;email\n1001;Nytt namn;;;;1;;\n1010;Ny;;;;5;;\n1011;Ny;;;;1;;inte-en-adress\n100000;x;;;;1;;\n";
    const r = await portal(["import", "customers", file("bad-customers.csv", text)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 3: distributor_id: distributör 5 finns inte");
    expect(r.stderr).toContain("line 4: email: Ange en e-postadress (namn@exempel.se).");
    expect(r.stderr).toContain("line 5: customer_id: ska vara mellan 1 och 99999");
    const [c] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1001));
    expect(c.name).toBe("Pressbyrån Centralstationen");
  });

  it("customers: a row's details obey the staff form's rules and messages (one rule set for the file and Ny kund)", async () => {
    const header = "customer_id;name;address;zip;city;distributor_id;phone;email\n";
    const bad = [
      { zip: "1234", phone: "", email: "" },
      { zip: "111 20", phone: "0".repeat(51), email: "" },
      { zip: "S-111 20", phone: "", email: "kiosk@@exempel.se" },
    ];
    const rows = bad.map((b, i) => `${1030 + i};Şahin Livs;Storgatan 1;${b.zip};Malmö;1;${b.phone};${b.email}\n`).join("");
    const r = await portal(["import", "customers", file("form-rules.csv", header + rows)]);
    expect(r.code).toBe(1);
    // The same values in the form give the same messages, word for word.
    for (const [i, b] of bad.entries()) {
      const form = CustomerAddSchema.safeParse({ kundnummer: String(1030 + i), name: "Şahin Livs", distributorId: "1", ...b });
      expect(form.success).toBe(false);
      for (const issue of form.error!.issues) expect(r.stderr).toContain(`line ${i + 2}: ${String(issue.path[0])}: ${issue.message}`);
    }
    expect(r.stderr).toContain(`line 2: zip: ${ZIP_RULE}`);
    expect(await db().select().from(schema.customers).where(inArray(schema.customers.id, [1030, 1031, 1032]))).toEqual([]);

    // A postcode however it is written is stored in the one form the screens show, as the form stores it.
    const good = await portal(["import", "customers", file("form-zip.csv", `${header}1033;Şahin Livs;Storgatan 1;S-11120;Malmö;1;${"0".repeat(50)};  kiosk@exempel.se \n`)]);
    expect(good.code, good.stderr).toBe(0);
    const [stored] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1033));
    expect({ zip: stored.zip, email: stored.email, phone: stored.phone.length }).toEqual({ zip: "111 20", email: "kiosk@exempel.se", phone: 50 });
  });

  it("orders: an unknown customer is a bad row; nothing applied", async () => {
    const before = await count(schema.orderLines);
    const text = "customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger\n1001;2026-03-09;X-1;Ställ;1;100;83\n7777;2026-03-09;X-1;Ställ;1;100;83\n";
    const r = await portal(["import", "orders", file("bad-orders.csv", text)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 3: customerNumber: kund 7777 finns inte");
    expect(await count(schema.orderLines)).toBe(before);
  });
});

describe("import guarantees", () => {
  it("updates an open amount, and refuses to change one whose payout is in progress", async () => {
    const changed = await portal(["import", "guarantees", file("g1.csv", "customer_id;ledger;amount_ore\n1001;83;50000\n1001;80;30000\n")]);
    expect(changed.stdout).toMatch(/^guarantees: 0 new, 1 changed, 1 unchanged/);
    const [g] = await db().select().from(schema.guarantees).where(sql`${schema.guarantees.customerId} = 1001 and ${schema.guarantees.ledger} = 83`);
    expect(g.amountOre).toBe(50000);
    await addToRefund(1001, g.id, { id: "staff:1" }, "2026-03-10");
    const refused = await portal(["import", "guarantees", file("g2.csv", "customer_id;ledger;amount_ore\n1001;83;60000\n")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("line 2: amount_ore: en utbetalning pågår");
    const same = await portal(["import", "guarantees", file("g3.csv", "customer_id;ledger;amount_ore\n1001;83;50000\n")]);
    expect(same.stdout).toMatch(/0 new, 0 changed, 1 unchanged/);
    const bad = await portal(["import", "guarantees", file("g4.csv", "customer_id;ledger;amount_ore\n1001;81;1\n1002;83;-5\n")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("line 2: ledger: ska vara 80 (Expressen) eller 83 (Aftonbladet)");
    expect(bad.stderr).toContain("line 3: amount_ore: ska vara mellan 0 och 1000000000");
  });
});

describe("files as Excel writes them", () => {
  it("a customers CSV in Windows-1252 imports with every å, ä and ö, and a UTF-8 one with a BOM the same; a binary file is refused", async () => {
    const rows = "customer_id;name;address;zip;city;distributor_id;phone;email\n1040;Pressbyrån Öre Torg;Ågatan 3;753 20;Uppsala;1;;\n";
    // "CSV (semikolonavgränsad)" on a Swedish Windows: one byte per letter (å = 0xE5).
    const cp1252 = Buffer.from(rows, "latin1");
    expect(cp1252.includes(0xe5)).toBe(true);
    const path = join(dir, "excel-1252.csv");
    writeFileSync(path, cp1252);
    const r = await portal(["import", "customers", path]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const [c] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1040));
    expect([c.name, c.address, c.city]).toEqual(["Pressbyrån Öre Torg", "Ågatan 3", "Uppsala"]);
    expect(c.name).not.toContain("\uFFFD");

    const bom = join(dir, "excel-utf8-bom.csv");
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.replace("1040", "1041"), "utf8")]));
    expect((await portal(["import", "customers", bom])).code).toBe(0);
    const [d] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1041));
    expect(d.name).toBe("Pressbyrån Öre Torg");

    // An address on two lines (Alt+Enter in Excel), quoted, and a `;` in a quoted name.
    const twoLines = join(dir, "excel-two-lines.csv");
    writeFileSync(twoLines, Buffer.from('customer_id;name;address;zip;city;distributor_id;phone;email\r\n1042;"Kiosk; Öst";"c/o Sahin\r\nÅgatan 3";753 20;Uppsala;1;;\r\n1043;Kiosk Väst;;;;x;;\r\n', "latin1"));
    const bad = await portal(["import", "customers", twoLines]);
    // All or nothing, by the file's own line numbers: the bad row is on line 4.
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("line 4: distributor_id:");
    expect(await db().select().from(schema.customers).where(eq(schema.customers.id, 1042))).toEqual([]);
    writeFileSync(twoLines, Buffer.from('customer_id;name;address;zip;city;distributor_id;phone;email\r\n1042;"Kiosk; Öst";"c/o Sahin\r\nÅgatan 3";753 20;Uppsala;1;;\r\n', "latin1"));
    expect((await portal(["import", "customers", twoLines])).code).toBe(0);
    const [e] = await db().select().from(schema.customers).where(eq(schema.customers.id, 1042));
    expect([e.name, e.address]).toEqual(["Kiosk; Öst", "c/o Sahin, Ågatan 3"]);

    const binary = join(dir, "not-a-csv.xlsx");
    writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]));
    const refused = await portal(["import", "customers", binary]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("är ingen textfil");
  });
});

describe("import customers --issue-pins", () => {
  it("gives only new customers a 6-digit PIN, written to OUT with mode 0600 and never to the output", async () => {
    const out = join(dir, "pins.csv");
    const text = "customer_id;name;address;zip;city;distributor_id;phone;email\n1001;Pressbyrån Centralstationen;Centralplan 15;111 20;Stockholm;1;08-123 45 67;central@example.se\n1020;Ny kiosk;;;;1;;\n1021;Ny kiosk 2;;;;2;;\n";
    const r = await portal(["import", "customers", file("new-customers.csv", text), "--issue-pins", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^customers: 2 new, 0 changed, 1 unchanged, 0 skipped .*2 pinkoder/);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines[0]).toBe("customer_id;pin");
    const pins = new Map(lines.slice(1).map((l) => l.split(";") as [string, string]));
    expect([...pins.keys()]).toEqual(["1020", "1021"]);
    for (const [id, pin] of pins) {
      expect(pin).toMatch(/^\d{6}$/);
      expect(r.stdout + r.stderr).not.toContain(pin);
      const [c] = await db().select().from(schema.customers).where(eq(schema.customers.id, Number(id)));
      expect(await verifySecret(pin, c.pinHash)).toBe(true);
    }
    const audit = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "import.customers"));
    for (const a of audit) for (const pin of pins.values()) expect(a.detail ?? "").not.toContain(pin);

    const again = await portal(["import", "customers", file("new-customers2.csv", text.replace("1021", "1022")), "--issue-pins", out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("finns redan");
    expect((await db().select().from(schema.customers).where(eq(schema.customers.id, 1022))).length).toBe(0);
  });

  it("writes no PIN file when the import fails", async () => {
    const out = join(dir, "pins-bad.csv");
    const text = "customer_id;name;address;zip;city;distributor_id;phone;email\n1030;Ny;;;;1;;\n1031;Ny;;;;9;;\n";
    const r = await portal(["import", "customers", file("bad-new.csv", text), "--issue-pins", out]);
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
  });
});

describe("usage", () => {
  it("exits 2 on usage errors and 0 with --help, which shows an example", async () => {
    const unknown = await portal(["import", "bogus", "x.csv"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'bogus'");
    expect((await portal(["import", "deliveries"])).code).toBe(2);
    expect((await portal(["invoice", "run", "--from", "2026-13-01", "--to", "2026-01-31"])).code).toBe(2);
    for (const cmd of [["import", "deliveries"], ["import", "customers"], ["invoice", "run"], ["payout", "files"], ["export", "distribution"], ["backup"]]) {
      const r = await portal([...cmd, "--help"]);
      expect(r.code, cmd.join(" ")).toBe(0);
      expect(r.stdout, cmd.join(" ")).toMatch(/Exempel:\n {2}(zcat \S+ \| )?npm run portal -- /);
    }
  });

  it("exits 1 when the file cannot be read", async () => {
    const r = await portal(["import", "deliveries", join(dir, "missing.csv")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Kan inte läsa");
  });
});
