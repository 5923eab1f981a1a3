// Logg in Swedish words, against a real libSQL database: each row as a sentence with the
// target by number and name and amounts in kronor, and "Vem" found by part of a name or
// an e-mail address, accents folded.
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { createStaff } from "../../../cli/seed/factories";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { searchAudit } from "./search.server";
import { eventText, targetText } from "./words";
import { IMPORT_KINDS } from "~/features/imports/index.server";

let shop: number, anna: number, bo: number;

beforeAll(async () => {
  await baseData();
  shop = await newCustomer({ distributorId: 1, name: "Pressbyrån Umeå" });
  anna = (await createStaff(db(), { email: "anna.sahin@returportalen.example", name: "Anna Şahin", password: "x-password-1", roles: "admin" })).id;
  bo = (await createStaff(db(), { email: "bo@returportalen.example", name: "Bo Ek", password: "x-password-2", roles: "sales" })).id;
  const at = Date.now();
  await db()
    .insert(schema.auditLog)
    .values([
      { at, actor: `staff:${anna}`, action: "customer.set-pin", target: `customer:${shop}`, detail: '{"sessionsEnded":2}' },
      {
        at: at + 1,
        actor: `staff:${bo}`,
        action: "extra-invoice.draft-add",
        target: "extra-invoice-line:5",
        detail: JSON.stringify({ articleName: "Exponeringsställ", customerId: shop, deliveredAmount: 3, reclaimAmount: 0, nettoPriceOre: 12500 }),
      },
      { at: at + 2, actor: `staff:${anna}`, action: "staff.set-roles", target: `staff:${bo}`, detail: '{"roles":["sales","utb"],"sessionsEnded":0}' },
      { at: at + 3, actor: `staff:${anna}`, action: "guarantee.refund", target: `customer:${shop}`, detail: '{"id":1,"amountOre":37500,"ledger":83,"refundDate":"2026-11-30"}' },
    ]);
});

describe("Logg's words", () => {
  it("says each event in Swedish, the target by number and name, amounts in kronor", async () => {
    const { rows } = await searchAudit({ customerId: null, actor: "anna.sahin", sort: { column: "tid", descending: false } });
    const { rows: bos } = await searchAudit({ actor: "bo@returportalen.example" });
    expect(rows.map(eventText)).toEqual([
      `Ny pinkod för ${shop} Pressbyrån Umeå; 2 inloggningar avslutade`,
      "Roller ändrade för bo@returportalen.example: sälj, distributör (utb)",
      `Garantibelopp tillagt för utbetalning: ${shop} Pressbyrån Umeå, 375,00 kr, betalas 2026-11-30`,
    ]);
    expect(targetText(rows[0])).toBe(`${shop} Pressbyrån Umeå`);
    expect(bos.map(eventText)).toEqual([`Fakturarad tillagd: 375,00 kr (Exponeringsställ, kund ${shop})`]);
  });

  it("names every kind of file import in Swedish, never by its English key", () => {
    for (const kind of [...IMPORT_KINDS, "orders"]) {
      const text = eventText({ action: `import.${kind}`, target: null, targetName: null, detail: null });
      expect(text, kind).toMatch(/^Inläsning av [a-zåäö]+$/);
      expect(text, kind).not.toContain(kind);
    }
    expect(eventText({ action: "import.distributors", target: null, targetName: null, detail: null })).toBe("Inläsning av distributörer");
  });

  it("names a target without a name of its own by what it is and its number, never by the stored key", () => {
    const event = (target: string | null) => ({ id: 1, at: 0, actor: "cli", actorName: null, onBehalfOf: null, action: "x", target, targetName: null, detail: null, ip: null });
    expect(targetText(event("extra-invoice-line:12"))).toBe("Fakturarad 12");
    expect(targetText(event("order-file:3"))).toBe("Beställningsfil 3");
    expect(targetText(event("return-windows"))).toBe("Sista returdag per tidningstyp");
    expect(targetText(event("customer:1039"))).toBe("kund 1039");
    expect(targetText(event("leveranser-2026-11-27.csv"))).toBe("leveranser-2026-11-27.csv");
  });

  it("finds who by part of a name or an e-mail address, case and accents folded", async () => {
    const byName = await searchAudit({ actor: "sahin" });
    expect(new Set(byName.rows.map((r) => r.actor))).toEqual(new Set([`staff:${anna}`]));
    expect(byName.total).toBe(3);
    expect((await searchAudit({ actor: "ŞAHİN" })).total).toBe(3);
    expect((await searchAudit({ actor: "returportalen.example" })).total).toBe(4);
    expect((await searchAudit({ actor: "ingen-sådan" })).total).toBe(0);
  });

  it("says what a delete deleted, from the row kept when it happened", () => {
    expect(eventText({ action: "message.delete", target: "message:9", targetName: null, detail: '{"header":"Stängt på juldagen"}' })).toBe("Meddelande borttaget: ”Stängt på juldagen”");
    expect(eventText({ action: "extra-invoice.delete", target: "extra-invoice-line:3", targetName: null, detail: '{"articleName":"Ställ","customerId":1039}' })).toBe(
      "Fakturarad borttagen: Ställ, kund 1039",
    );
    const detail = (v: object) => JSON.stringify(v);
    expect(
      eventText({ action: "label-block.delete", target: "customer:1039", targetName: "Pressbyrån Umeå", detail: detail({ id: 4, type: 1, fromNumber: 120, toNumber: 140, status: "Levererad" }) }),
    ).toBe("Etikettblock 120–140 (bilagor) borttaget för 1039 Pressbyrån Umeå");
    expect(
      eventText({
        action: "orders.delete-line",
        target: "order-line:8",
        targetName: null,
        detail: detail({ customerId: 1039, articleNumber: "LS-100", articleDescription: "Löpsedelsställ", amount: 2, priceOre: 37500 }),
      }),
    ).toBe("Beställningsrad borttagen: kund 1039, Löpsedelsställ (LS-100), 2 st à 375,00 kr");
    expect(
      eventText({
        action: "product.delete",
        target: "product:3",
        targetName: null,
        detail: detail({ titleId: 2, editionId: 2, deliveryDate: null, productCode: "EX-KVP", accountCode: "3011", articleId: "7388" }),
      }),
    ).toBe("Produktinformation borttagen: Expressen utgåva 2, produktkod EX-KVP, konto 3011, artikel-id 7388");
    expect(eventText({ action: "shortcut.delete", target: "shortcut:5", targetName: null, detail: detail({ name: "Veckans fakturor", url: "/admin/invoice" }) })).toBe(
      "Länk borttagen: Veckans fakturor",
    );
    // A row written before the detail was kept still reads.
    expect(eventText({ action: "shortcut.delete", target: "shortcut:5", targetName: null, detail: null })).toBe("Länk borttagen");
  });

  it("names an action without words of its own by its group, and never breaks on a bad detail", () => {
    expect(eventText({ action: "holiday.something-new", target: null, targetName: null, detail: null })).toBe("Helgspärr, produkter, buntar och länkar");
    expect(eventText({ action: "customer.set-pin", target: "customer:7", targetName: null, detail: "{not json" })).toBe("Ny pinkod för kund 7");
  });
});
