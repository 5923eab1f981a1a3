// The payout file for the bank (decision 034): ISO 20022 pain.001.001.03, valid against the
// message's own schema, with one payment per customer whose amounts, count and control sums
// add up to the öre, to bankgiro numbers and bank accounts as Swedish banks take them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { schemaProblems } from "../../../tests/schemas/validate";
import { SELLER_ENV } from "../../../tests/production-env";
import type { Refund } from "./refund";
import { buildPain001 } from "./payout-iso20022.server";

const seller = readConfig(SELLER_ENV).seller!;
const XSD = "pain.001.001.03.xsd";

function refund(customerId: number, name: string, account: Partial<Pick<Refund, "bankgiro" | "bankAccount">>, refundDate: string, ...amountsOre: number[]): Refund {
  return {
    customerId,
    name,
    address: "Storgatan 1",
    coAddress: "",
    zip: "111 20",
    city: "Stockholm",
    email: "",
    orgNumber: "556016-0680",
    bankgiro: account.bankgiro ?? "",
    bankAccount: account.bankAccount ?? "",
    refundDate,
    amounts: amountsOre.map((amountOre, i) => ({ guaranteeId: customerId * 10 + i, ledger: 83, paper: "Aftonbladet", amountOre, refundDate })),
  };
}

const texts = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`, "g"))].map((m) => m[1]);

const REFUNDS = [
  refund(1042, "Şahin Livs & Tobak", { bankgiro: "5050-1055" }, "2026-12-07", 45050, 1),
  refund(2077, "Pressbyrån <Centralen> \"Öst\"", { bankAccount: "8327-9, 123 456 789-7" }, "2026-12-07", 12500),
  refund(3001, "Kiosk Ådalen", { bankAccount: "6000, 123 456 789" }, "2026-12-09", 99),
];

describe("the pain.001.001.03 payout file", () => {
  it("is valid against ISO 20022's schema, kept unchanged", () => {
    const xsd = readFileSync(join(__dirname, "../../../tests/schemas", XSD));
    expect(createHash("sha256").update(xsd).digest("hex")).toBe("ae2bbba02a6be0119a26f4afcb65ced067453cb1b81d38b26bcc569f19eca93e");
    const xml = buildPain001(REFUNDS, { seller, ledger: 83, title: "Aftonbladet", week: "2026-v50", createdAt: new Date("2026-12-03T08:15:00Z") });
    expect(schemaProblems(xml, XSD)).toBe("");
    // The schema is not a formality: a file missing its control sum's form is refused.
    expect(schemaProblems(xml.replace("<CtrlSum>", "<CtrlSum>x"), XSD)).toMatch(/CtrlSum/);
  });

  it("counts and sums every payment, per execution date and in total, to the öre", () => {
    const xml = buildPain001(REFUNDS, { seller, ledger: 83, title: "Aftonbladet", week: "2026-v50", createdAt: new Date("2026-12-03T08:15:00Z") });
    expect(texts(xml, "NbOfTxs")).toEqual(["3", "2", "1"]);
    expect(texts(xml, "CtrlSum")).toEqual(["576.50", "575.51", "0.99"]);
    expect(texts(xml, "InstdAmt")).toEqual(["450.51", "125.00", "0.99"]);
    expect(texts(xml, "ReqdExctnDt")).toEqual(["2026-12-07", "2026-12-09"]);
    // Stockholm's clock (winter: UTC+1), no zone, as the banks' examples write it.
    expect(texts(xml, "CreDtTm")).toEqual(["2026-12-03T09:15:00"]);
    // The message id follows from the payments: fetched again later, the same id (a bank takes it
    // once); another payout, another id.
    const [id] = texts(xml, "MsgId");
    expect(id).toMatch(/^RP83-2026v50-[0-9a-f]{16}$/);
    expect(texts(xml, "PmtInfId")).toEqual([`${id}-1`, `${id}-2`]);
    const later = buildPain001(REFUNDS, { seller, ledger: 83, title: "Aftonbladet", week: "2026-v50", createdAt: new Date("2026-12-04T10:00:00Z") });
    expect(texts(later, "MsgId")).toEqual([id]);
    const other = buildPain001([REFUNDS[0], { ...REFUNDS[1], amounts: [{ ...REFUNDS[1].amounts[0], amountOre: 12600 }] }, REFUNDS[2]], { seller, ledger: 83, title: "Aftonbladet", week: "2026-v50", createdAt: new Date("2026-12-03T08:15:00Z") });
    expect(texts(other, "MsgId")[0]).not.toBe(id);
  });

  it("pays a bankgiro number by Bankgirot and a bank account as clearing and account number", () => {
    const xml = buildPain001(REFUNDS, { seller, ledger: 83, title: "Aftonbladet", week: "2026-v50", createdAt: new Date("2026-12-03T08:15:00Z") });
    const payments = xml.split("<CdtTrfTxInf>").slice(1);
    expect(payments[0]).toContain("<CdtrAcct><Id><Othr><Id>50501055</Id><SchmeNm><Prtry>BGNR</Prtry></SchmeNm></Othr></Id></CdtrAcct>");
    expect(payments[0]).toContain("<MmbId>9900</MmbId>");
    expect(payments[1]).toContain("<Othr><Id>832791234567897</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr>");
    expect(payments[1]).toContain("<ClrSysId><Cd>SESBA</Cd></ClrSysId><MmbId>8327</MmbId>");
    expect(payments[2]).toContain("<Othr><Id>6000123456789</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr>");
    // The payee's names as written, escaped once; the reference names the customer and the week.
    expect(texts(xml, "Nm")).toEqual([seller.name, seller.name, "Şahin Livs &amp; Tobak", "Pressbyrån &lt;Centralen&gt; &quot;Öst&quot;", seller.name, "Kiosk Ådalen"]);
    expect(texts(xml, "Ustrd")).toEqual(["Garantibelopp Aftonbladet 2026 v50 kund 1042", "Garantibelopp Aftonbladet 2026 v50 kund 2077", "Garantibelopp Aftonbladet 2026 v50 kund 3001"]);
    expect(texts(xml, "EndToEndId")).toEqual(["1042-2026v50", "2077-2026v50", "3001-2026v50"]);
    // The seller's bankgiro pays when no IBAN is configured.
    expect(xml).toContain(`<DbtrAcct><Id><Othr><Id>${seller.bankgiro.replace("-", "")}</Id><SchmeNm><Prtry>BGNR</Prtry></SchmeNm></Othr></Id><Ccy>SEK</Ccy></DbtrAcct>`);
  });

  it("pays from PAYOUT_IBAN with its BIC when configured, and refuses a wrong IBAN or a BIC alone", () => {
    const withIban = readConfig({ ...SELLER_ENV, PAYOUT_IBAN: "SE45 5000 0000 0583 9825 7466", PAYOUT_BIC: "essesess" }).seller!;
    const xml = buildPain001(REFUNDS.slice(0, 1), { seller: withIban, ledger: 80, title: "Expressen", week: "2026-v01", createdAt: new Date("2026-07-01T10:00:00Z") });
    expect(schemaProblems(xml, XSD)).toBe("");
    expect(xml).toContain("<DbtrAcct><Id><IBAN>SE4550000000058398257466</IBAN></Id><Ccy>SEK</Ccy></DbtrAcct><DbtrAgt><FinInstnId><BIC>ESSESESS</BIC></FinInstnId></DbtrAgt>");
    // Summer time: UTC+2.
    expect(texts(xml, "CreDtTm")).toEqual(["2026-07-01T12:00:00"]);
    expect(() => readConfig({ ...SELLER_ENV, PAYOUT_IBAN: "SE45 5000 0000 0583 9825 7467" })).toThrow(/PAYOUT_IBAN är inget giltigt svenskt IBAN/);
    expect(() => readConfig({ ...SELLER_ENV, PAYOUT_IBAN: "DE89370400440532013000" })).toThrow(/PAYOUT_IBAN/);
    expect(() => readConfig({ ...SELLER_ENV, PAYOUT_BIC: "ESSESESS" })).toThrow(/PAYOUT_BIC utan PAYOUT_IBAN/);
    expect(() => readConfig({ ...SELLER_ENV, PAYOUT_IBAN: "SE4550000000058398257466", PAYOUT_BIC: "ESSE" })).toThrow(/PAYOUT_BIC är ingen BIC/);
  });

  it("stays valid with a name longer than the schema allows, control characters and a thousand payments", () => {
    const many = Array.from({ length: 1000 }, (_, i) => refund(10000 + i, `${"Tobakshandeln ".repeat(8)}\u0007${i}`, { bankgiro: "5050-1055" }, "2026-12-07", 1 + i * 137));
    const xml = buildPain001(many, { seller, ledger: 80, title: "Expressen", week: "2026-v50", createdAt: new Date("2026-12-03T08:15:00Z") });
    expect(schemaProblems(xml, XSD)).toBe("");
    const total = many.reduce((s, r) => s + r.amounts[0].amountOre, 0);
    expect(texts(xml, "CtrlSum")[0]).toBe(`${Math.floor(total / 100)}.${String(total % 100).padStart(2, "0")}`);
  });
});
