// The staff's customer rules against a real libSQL database.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { createBundle, createReturn } from "../../../cli/seed/factories";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { staffActor } from "../audit/audit.server";
import { verifySecret } from "../auth/passwords.server";
import { CUSTOMER_CONFLICT, customerOverview, customerScope, getCustomerDetails, isCurrentPin, issueNewPin, searchCustomers, setCustomerActive, updateCustomerDetails, type CustomerDetails } from "./admin.server";
import { addCustomer } from "./customers.server";
import { CustomerEditSchema, ZIP_RULE } from "./schemas";
import { renderPinLetterPdf } from "./pin-letter-pdf.server";
import { BANK_NUMBER_PROBLEMS } from "../guarantees/bank-numbers.server";

const actor = staffActor(1);

let sessionSeq = 0;
async function createSession(customerId: number) {
  const now = Date.now();
  await db().insert(schema.sessions).values({ id: `test-${customerId}-${sessionSeq++}`, customerId, createdAt: now, lastSeenAt: now, expiresAt: now + 3_600_000 });
}

beforeAll(baseData);

describe("customers for staff", () => {
  it("search by number (leading zeros, spaces), name words, city and distributor, within the utb's scope", async () => {
    const a = await newCustomer({ name: "Şahin Livs Malmö", distributorId: 1 });
    const b = await newCustomer({ name: "Kiosk Łódź", distributorId: 2 });
    expect((await searchCustomers({ q: ` 0${a} ` }, { distributorIds: null })).rows.map((r) => r.id)).toEqual([a]);
    expect((await searchCustomers({ q: "Şahin Livs" }, { distributorIds: null })).rows.map((r) => r.id)).toEqual([a]);
    expect((await searchCustomers({ q: "Utb Syd" }, { distributorIds: null })).rows.map((r) => r.id)).toContain(b);
    expect((await searchCustomers({ q: "100%" }, { distributorIds: null })).total).toBe(0);
    // Typed the way staff type: no diacritics, any case.
    expect((await searchCustomers({ q: "sahin MALMO" }, { distributorIds: null })).rows.map((r) => r.id)).toEqual([a]);
    expect((await searchCustomers({ q: "lodz" }, { distributorIds: null })).rows.map((r) => r.id)).toEqual([b]);
    expect((await searchCustomers({ q: "ŁÓDŹ" }, { distributorIds: null })).rows.map((r) => r.id)).toEqual([b]);
    // Sorted by name in Swedish order, paged the same way.
    const sorted = await searchCustomers({ sort: { column: "namn", descending: false } }, { distributorIds: null });
    const names = sorted.rows.map((r) => r.name);
    expect(names).toEqual([...names].sort(new Intl.Collator("sv-SE", { sensitivity: "base", numeric: true }).compare));
    expect(sorted.total).toBe((await searchCustomers({}, { distributorIds: null })).total);
    // A utb user of distributor 1 never finds B, not by number either, nor opens B's page.
    expect((await searchCustomers({ q: String(b) }, { distributorIds: [1] })).total).toBe(0);
    expect(await customerOverview(b, customerScope({ roles: ["utb"], distributorId: 1 }))).toBeNull();
    expect(await customerOverview(b, customerScope({ roles: ["sales"], distributorId: null }))).not.toBeNull();
  });

  it("the customer's page counts each open bundle's own returned copies", async () => {
    const id = await newCustomer({ name: "Şahin Livs" });
    const b1 = await createBundle(db(), { customerId: id, number: 11, type: 0 });
    const b2 = await createBundle(db(), { customerId: id, number: 12, type: 1 });
    const d = await newDelivery(id, { date: "2026-11-20", delivered: 30 });
    await createReturn(db(), { customerId: id, bundleId: b1.id, deliveryId: d.id, amount: 7 });
    await createReturn(db(), { customerId: id, bundleId: b2.id, deliveryId: d.id, amount: 3 });
    const page = await customerOverview(id, { distributorIds: null });
    expect(page?.openBundles.map((b) => [b.number, b.copies])).toEqual([
      [11, 7],
      [12, 3],
    ]);
  });

  it("a new PIN is six digits, stored only as a hash, ends the sessions; deactivation ends them too and is undone", async () => {
    const id = await newCustomer();
    await createSession(id);
    const pin = await issueNewPin(id, actor);
    expect(pin).toMatch(/^\d{6}$/);
    const [row] = await db().select().from(schema.customers).where(eq(schema.customers.id, id));
    expect(row.pinHash).not.toContain(pin);
    expect(await verifySecret(pin, row.pinHash)).toBe(true);
    expect(await isCurrentPin(id, pin)).toBe(true);
    expect(await isCurrentPin(id, "1234")).toBe(false);
    expect(await db().select().from(schema.sessions).where(eq(schema.sessions.customerId, id))).toHaveLength(0);

    await createSession(id);
    expect(await setCustomerActive(id, false, actor)).toBe(true);
    expect(await setCustomerActive(id, false, actor)).toBe(false);
    expect(await db().select().from(schema.sessions).where(eq(schema.sessions.customerId, id))).toHaveLength(0);
    expect((await searchCustomers({ q: String(id) }, { distributorIds: null })).total).toBe(0);
    expect((await searchCustomers({ q: String(id), state: "avstangda" }, { distributorIds: null })).total).toBe(1);
    expect(await setCustomerActive(id, true, actor)).toBe(true);
    await expect(setCustomerActive(99_998, true, actor)).rejects.toMatchObject({ code: "not-found" });
    const actions = (await db().select().from(schema.auditLog).where(eq(schema.auditLog.target, `customer:${id}`))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["customer.set-pin", "customer.deactivate", "customer.activate"]));
  });

  it("adding refuses a number already taken, by field", async () => {
    const id = await newCustomer();
    await expect(addCustomer({ id, name: "X", distributorId: 1, address: "", zip: "", city: "", phone: "", email: "" }, actor)).rejects.toMatchObject({ code: "invalid", fields: { kundnummer: `Kund ${id} finns redan.` } });
    await expect(addCustomer({ id: 99_990, name: "X", distributorId: 77, address: "", zip: "", city: "", phone: "", email: "" }, actor)).rejects.toMatchObject({ fields: { distributorId: "Distributör 77 finns inte." } });
  });

  it("the PIN letter prints any name", async () => {
    const pdf = await renderPinLetterPdf({ customerId: 1, name: "Şahin Livs – Łódź Nguyễn Ελλάδα Київ", address: "Storgatan 1", coAddress: "", zip: "211 22", city: "Malmö", pin: "012345", date: "2026-11-24", loginUrl: "https://portal.example/login" });
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("a customer's details edited by staff", () => {
  const details = (over: Partial<CustomerDetails> = {}): CustomerDetails => ({
    name: "Şahin Livs",
    distributorId: 2,
    address: "Södergatan 12",
    coAddress: "",
    zip: "211 20",
    city: "Malmö",
    contact: "Ayşe Şahin",
    phone: "040-12 34 56",
    email: "ayse@sahinlivs.example",
    orgNumber: "",
    bankgiro: "",
    bankAccount: "",
    ...over,
  });
  it("stores the details, audits old and new per field, and says which fields changed", async () => {
    const id = await newCustomer({ name: "Kiosk", distributorId: 1 });
    const before = (await getCustomerDetails(id))!;
    const changed = await updateCustomerDetails(id, details(), before.version, actor);
    expect(changed).toEqual(expect.arrayContaining(["name", "distributorId", "address", "zip", "city", "contact", "phone", "email"]));
    const after = (await getCustomerDetails(id))!;
    expect(after).toMatchObject(details());
    expect(after.version).toBeGreaterThan(before.version);
    const [row] = await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "customer.update"), eq(schema.auditLog.target, `customer:${id}`)));
    expect(JSON.parse(row.detail!)).toMatchObject({ name: { from: "Kiosk", to: "Şahin Livs" }, distributorId: { from: 1, to: 2 } });
    // The same values again change nothing and write no audit row.
    expect(await updateCustomerDetails(id, details(), after.version, actor)).toEqual([]);
    expect(await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "customer.update"), eq(schema.auditLog.target, `customer:${id}`)))).toHaveLength(1);
  });
  it("checks an e-mail address by the one rule when it is changed, and leaves one stored under an older rule alone", async () => {
    const id = await newCustomer({ name: "Şahin Livs", distributorId: 1 });
    // Stored when the rule let a trailing comma through.
    await db().update(schema.customers).set({ email: "kiosk@sahinlivs.example," }).where(eq(schema.customers.id, id));
    const opened = (await getCustomerDetails(id))!;
    await updateCustomerDetails(id, details({ email: "kiosk@sahinlivs.example,", city: "Lund" }), opened.version, actor);
    const kept = (await getCustomerDetails(id))!;
    expect(kept).toMatchObject({ city: "Lund", email: "kiosk@sahinlivs.example," });
    for (const typed of ["kiosk@sahinlivs", "a@b.c", "kiosk@sahinlivs.example;info@sahinlivs.example"]) {
      await expect(updateCustomerDetails(id, details({ email: typed, city: "Ystad" }), kept.version, actor)).rejects.toMatchObject({ code: "invalid", fields: { email: "Ange en e-postadress (namn@exempel.se)." } });
    }
    expect((await getCustomerDetails(id))!.city).toBe("Lund");
  });
  it("refuses a save over someone else's (409) and an unknown distributor on its field, storing nothing", async () => {
    const id = await newCustomer({ name: "Kiosk Łódź", distributorId: 1 });
    const opened = (await getCustomerDetails(id))!;
    await updateCustomerDetails(id, details({ city: "Lund" }), opened.version, actor);
    await expect(updateCustomerDetails(id, details({ city: "Ystad" }), opened.version, actor)).rejects.toMatchObject({ code: "conflict", fields: { version: CUSTOMER_CONFLICT } });
    await expect(updateCustomerDetails(id, details({ distributorId: 999_999 }), undefined, actor)).rejects.toMatchObject({ code: "invalid", fields: { distributorId: "Distributören finns inte." } });
    expect((await getCustomerDetails(id))!.city).toBe("Lund");
    await expect(updateCustomerDetails(99_998, details(), undefined, actor)).rejects.toMatchObject({ code: "not-found" });
  });
  it("checks the payout numbers by the banks' rules, all at once, stores them in one written form, and leaves an untouched imported number alone", async () => {
    const id = await newCustomer({ name: "Şahin Livs", distributorId: 1 });
    const opened = (await getCustomerDetails(id))!;
    const wrong = details({ orgNumber: "556016-0681", bankgiro: "5050-1056", bankAccount: "9020 1234567", city: "Ystad" });
    await expect(updateCustomerDetails(id, wrong, opened.version, actor)).rejects.toMatchObject({
      code: "invalid",
      fields: { orgNumber: BANK_NUMBER_PROBLEMS.orgNumber, bankgiro: BANK_NUMBER_PROBLEMS.bankgiro, bankAccount: BANK_NUMBER_PROBLEMS.bankAccount },
    });
    expect((await getCustomerDetails(id))!.version).toBe(opened.version);
    const changed = await updateCustomerDetails(id, details({ orgNumber: "5560160680", bankgiro: " 5050 1055 ", bankAccount: "6000 123456789" }), opened.version, actor);
    expect(changed).toEqual(expect.arrayContaining(["orgNumber", "bankgiro", "bankAccount"]));
    const saved = (await getCustomerDetails(id))!;
    expect([saved.orgNumber, saved.bankgiro, saved.bankAccount]).toEqual(["556016-0680", "5050-1055", "6000, 123 456 789"]);
    const [row] = await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "customer.update"), eq(schema.auditLog.target, `customer:${id}`)));
    expect(JSON.parse(row.detail!)).toMatchObject({ bankgiro: { from: "", to: "5050-1055" } });
    // A number imported before the checks stays when another field is saved.
    await db().update(schema.customers).set({ bankgiro: "12345" }).where(eq(schema.customers.id, id));
    const imported = (await getCustomerDetails(id))!;
    expect(await updateCustomerDetails(id, { ...details(), orgNumber: saved.orgNumber, bankAccount: saved.bankAccount, bankgiro: "12345", city: "Lund" }, imported.version, actor)).toEqual(["city"]);
  });
  it("stores a postcode in one form however it was typed, and refuses one that is not five digits", () => {
    const parse = (zip: string) => CustomerEditSchema.safeParse({ name: "Kiosk", distributorId: "1", zip });
    for (const typed of ["21120", "211 20", "211-20", " S-211 20 ", "SE21120"]) expect(parse(typed)).toMatchObject({ success: true, data: { zip: "211 20" } });
    expect(parse("")).toMatchObject({ success: true, data: { zip: "" } });
    for (const bad of ["2112", "011 20", "211 200", "ABC 12"]) expect(parse(bad).error?.issues[0]?.message).toBe(ZIP_RULE);
  });
});
