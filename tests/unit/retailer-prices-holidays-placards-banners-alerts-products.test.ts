import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createBundle, createLabelBlock } from "../../cli/seed/factories";
import { alertFacts, alertsFrom, alertText, listAlerts, lockRedirect, LOP_FORCE_AFTER_DAYS, MIN_UNUSED_LABELS, type Alert } from "../../app/features/alerts/alerts.server";
import {
  closeOpeningHoursRequest,
  getOpeningHours,
  listOpeningHoursRequests,
  requestOpeningHours,
  saveOpeningHours,
} from "../../app/features/opening-hours/opening-hours.server";
import { normalizeTime, OPENING_HOURS_MESSAGES } from "../../app/features/opening-hours/words";
import { openingHoursSchema } from "../../app/features/opening-hours/schemas";
import { listBanners } from "../../app/features/messages/banners.server";
import { getPublishedImage, listCurrentProducts } from "../../app/features/products/current-products.server";
import { addDays } from "../../app/lib/dates";
import { answerHoliday, HOLIDAY_CLOSED_MESSAGE, listComingHolidays, listHolidayAnswers } from "../../app/features/holidays/answers.server";
import { listPlacards, savePlacards } from "../../app/features/placards/placards.server";
import { PLACARD_MESSAGES } from "../../app/features/placards/words";
import { formatSek, parsePrice, priceBreakdown } from "../../app/features/products/prices";
import { baseData, db, newCustomer } from "./helpers";

beforeAll(baseData);

const TODAY = "2031-03-10";

async function newHoliday(input: Partial<typeof schema.holidays.$inferInsert> & { day: string }) {
  const [row] = await db()
    .insert(schema.holidays)
    .values({ description: `Helg ${input.day}`, startReportDay: addDays(input.day, -14), startForceReportDay: addDays(input.day, -3), ...input })
    .returning();
  return row;
}

describe("price calculator (spec 9)", () => {
  it("computes 30,00 kr exactly as the formula says", () => {
    const r = priceBreakdown(30);
    expect(r.origin).toBeCloseTo(28.302, 10);
    expect(r.commission).toBeCloseTo(6.08493, 10);
    expect(r.purchasePrice).toBeCloseTo(22.21707, 10);
    expect(r.vat).toBeCloseTo(1.3330242, 10);
    expect([r.price, r.origin, r.commission, r.purchasePrice, r.vat].map(formatSek)).toEqual(
      ["30,00 kr", "28,30 kr", "6,08 kr", "22,22 kr", "1,33 kr"].map((s) => s.replace(" ", "\u00a0")),
    );
  });

  it("formats thousands the Swedish way and rounds half öre up", () => {
    expect(formatSek(1234.5)).toBe("1\u00a0234,50\u00a0kr");
    expect(formatSek(0.125)).toBe("0,13\u00a0kr");
  });

  it("reads prices as people type them and refuses the rest", () => {
    expect(parsePrice("30")).toBe(30);
    expect(parsePrice("30,00")).toBe(30);
    expect(parsePrice("29.5")).toBe(29.5);
    expect(parsePrice(" 1 234,50 kr")).toBe(1234.5);
    for (const bad of ["", "abc", "-5", "30,001", "1e3", "30,,0", "200000"]) expect(parsePrice(bad), bad).toBeNull();
  });
});

describe("holidays", () => {
  it("lists coming, non-deleted, non-completed holidays with this customer's answer only", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const coming = await newHoliday({ day: addDays(TODAY, 5), description: "Påskdagen" });
    const todays = await newHoliday({ day: TODAY, description: "Idag" });
    const past = await newHoliday({ day: addDays(TODAY, -1), description: "Igår" });
    const deleted = await newHoliday({ day: addDays(TODAY, 6), description: "Borttagen", deleted: true });
    const completed = await newHoliday({ day: addDays(TODAY, 7), description: "Avslutad", completed: true });
    await expect(answerHoliday(b, coming.id, false, TODAY)).resolves.toBeUndefined();

    const listA = (await listComingHolidays(a, TODAY)).filter((h) => [coming.id, todays.id, past.id, deleted.id, completed.id].includes(h.id));
    expect(listA).toEqual([
      { id: todays.id, day: TODAY, description: "Idag", open: null },
      { id: coming.id, day: addDays(TODAY, 5), description: "Påskdagen", open: null },
    ]);
    const listB = await listComingHolidays(b, TODAY);
    expect(listB.find((h) => h.id === coming.id)?.open).toBe(false);
  });

  it("stores and changes an answer, one row per customer and holiday", async () => {
    const c = await newCustomer();
    const h = await newHoliday({ day: addDays(TODAY, 3), description: "Kristi himmelsfärd" });
    await expect(answerHoliday(c, h.id, true, TODAY)).resolves.toBeUndefined();
    await expect(answerHoliday(c, h.id, false, TODAY)).resolves.toBeUndefined();
    const rows = await db().select().from(schema.holidayReports).where(eq(schema.holidayReports.customerId, c));
    expect(rows).toHaveLength(1);
    expect(rows[0].open).toBe(false);
    expect(await listHolidayAnswers(c)).toEqual([{ holidayId: h.id, day: h.day, description: "Kristi himmelsfärd", open: false }]);
  });

  it("refuses answers for deleted, completed, past and unknown holidays", async () => {
    const c = await newCustomer();
    const deleted = await newHoliday({ day: addDays(TODAY, 2), deleted: true });
    const completed = await newHoliday({ day: addDays(TODAY, 2), completed: true });
    const past = await newHoliday({ day: addDays(TODAY, -2) });
    for (const id of [deleted.id, completed.id, past.id, 987654]) {
      await expect(answerHoliday(c, id, true, TODAY)).rejects.toMatchObject({ code: "invalid", message: HOLIDAY_CLOSED_MESSAGE });
    }
    expect(await db().select().from(schema.holidayReports).where(eq(schema.holidayReports.customerId, c))).toHaveLength(0);
  });
});

describe("placards", () => {
  it("lists every title with the customer's amounts, saves all at once and keeps customers apart", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await db().insert(schema.placards).values({ customerId: a, titleId: 1, amount: 4, newAmount: null });
    expect(await listPlacards(a)).toEqual([
      { titleId: 1, title: "Aftonbladet", amount: 4, newAmount: null },
      { titleId: 2, title: "Expressen", amount: 0, newAmount: null },
    ]);
    expect(await savePlacards(a, [{ titleId: 1, newAmount: 6 }, { titleId: 2, newAmount: 2 }])).toEqual({ saved: 2 });
    expect((await listPlacards(a)).map((p) => [p.amount, p.newAmount])).toEqual([[4, 6], [0, 2]]);
    expect((await listPlacards(b)).map((p) => p.newAmount)).toEqual([null, null]);
  });

  it("saves nothing when a title is unknown or an amount is unreasonable", async () => {
    const a = await newCustomer();
    const failed = { code: "invalid", message: PLACARD_MESSAGES.failed };
    await expect(savePlacards(a, [{ titleId: 1, newAmount: 3 }, { titleId: 77, newAmount: 3 }])).rejects.toMatchObject(failed);
    await expect(savePlacards(a, [{ titleId: 1, newAmount: -1 }])).rejects.toMatchObject(failed);
    await expect(savePlacards(a, [{ titleId: 1, newAmount: 1000 }])).rejects.toMatchObject(failed);
    // No row, or a title id that is no whole number: nothing names a title to save.
    await expect(savePlacards(a, [])).rejects.toMatchObject(failed);
    await expect(savePlacards(a, [{ titleId: NaN, newAmount: 3 }])).rejects.toMatchObject(failed);
    await expect(savePlacards(a, [{ titleId: 1.5, newAmount: 3 }])).rejects.toMatchObject(failed);
    expect((await listPlacards(a)).map((p) => p.newAmount)).toEqual([null, null]);
  });
});

describe("message banners", () => {
  it("shows types 2–4 within their dates, to everyone or to the named customers, sanitised", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const day = "2032-06-15";
    const insert = async (v: Partial<typeof schema.messages.$inferInsert>) =>
      (await db().insert(schema.messages).values({ type: 3, header: "H", content: "x", startDate: day, stopDate: day, ...v }).returning())[0];
    const all = await insert({ header: "Till alla", content: "Rad 1\nRad 2" });
    const onlyA = await insert({ header: "Bara A", type: 2 });
    await db().insert(schema.messageCustomers).values({ messageId: onlyA.id, customerId: a });
    await insert({ header: "Leveransinfo", type: 1 });
    await insert({ header: "Gammal", startDate: "2032-06-01", stopDate: "2032-06-14" });
    await insert({ header: "Kommande", startDate: "2032-06-16", stopDate: "2032-06-20" });
    const xss = await insert({ header: "Farlig", type: 4, content: '<p onclick="x()">Hej<script>alert(1)</script></p>' });

    const forA = await listBanners(a, day);
    expect(forA.map((m) => m.header).sort()).toEqual(["Bara A", "Farlig", "Till alla"]);
    expect(forA.find((m) => m.id === all.id)?.html).toBe("<p>Rad 1<br>Rad 2</p>");
    expect(forA.find((m) => m.id === xss.id)?.html).toBe("<p>Hej</p>");
    expect((await listBanners(b, day)).map((m) => m.header).sort()).toEqual(["Farlig", "Till alla"]);
  });
});

describe("alerts (spec 4)", () => {
  const none = { recallsOpen: 0, holidaysDue: 0, holidaysForced: 0, unusedLabels: 50, bundleTypesOverOpen: 0, placardsUnset: 0, placardsOverdue: 0, openingHoursDue: 0, openingHoursForced: 0, returnsDue: 0, returnsDueLock: false };

  it("has one rule per alert type with the spec's texts", () => {
    expect(alertsFrom(none)).toEqual([]);
    expect(alertsFrom({ ...none, holidaysDue: 1 })).toMatchObject([{ type: "HELGDAGAR", text: "Rapportera helgdagar", imperative: false, to: "/helgsparr" }]);
    // A recall to acknowledge comes first and locks (decision 036).
    expect(alertsFrom({ ...none, recallsOpen: 1, holidaysDue: 1 })).toMatchObject([
      { type: "ATERKALLELSE", text: "Bekräfta återkallelse", imperative: true, to: "/aterkallelser" },
      { type: "HELGDAGAR", imperative: false },
    ]);
    expect(alertsFrom({ ...none, holidaysDue: 2, holidaysForced: 1 })).toMatchObject([{ type: "HELGDAGAR", imperative: true }]);
    expect(alertsFrom({ ...none, unusedLabels: MIN_UNUSED_LABELS - 1 })).toMatchObject([{ type: "BESTALLBUNT", text: "Beställ returetiketter", imperative: false, to: "/order" }]);
    expect(alertsFrom({ ...none, unusedLabels: MIN_UNUSED_LABELS })).toEqual([]);
    expect(alertsFrom({ ...none, bundleTypesOverOpen: 1 })).toMatchObject([{ type: "BUNDLES", text: "Stäng buntar", imperative: true }]);
    expect(alertsFrom({ ...none, placardsUnset: 1 })).toMatchObject([{ type: "LOP", text: "Antal löpsedlar", imperative: false }]);
    expect(alertsFrom({ ...none, placardsUnset: 2, placardsOverdue: 1 })).toMatchObject([{ type: "LOP", imperative: true, to: "/lopsedlar" }]);
    expect(alertsFrom({ ...none, openingHoursDue: 1 })).toMatchObject([{ type: "OPPETTIDER", text: "Rapportera öppettider", imperative: false, to: "/oppettider" }]);
    expect(alertsFrom({ ...none, openingHoursDue: 1, openingHoursForced: 1 })).toMatchObject([{ type: "OPPETTIDER", imperative: true }]);
    // Papers due today or tomorrow; imperative where the distributor locks.
    expect(alertsFrom({ ...none, returnsDue: 2 })).toMatchObject([{ type: "RETURDAG", imperative: false, to: "/rapportering/1" }]);
    expect(alertsFrom({ ...none, returnsDue: 1, returnsDueLock: true })).toMatchObject([{ type: "RETURDAG", imperative: true }]);
    expect(alertsFrom({ ...none, returnsDueLock: true })).toEqual([]);
    // Spec 4: an unknown type shows its type name.
    expect(alertText("OPPETTIDER")).toBe("Rapportera öppettider");
    expect(alertText("LOP")).toBe("Antal löpsedlar");
    expect(alertText("KAMPANJ")).toBe("KAMPANJ");
  });

  it("asks for opening hours per distributor, imperative from the force day, until the retailer saves them", async () => {
    const [d1] = await db().insert(schema.distributors).values({ id: 9701, name: "Öppettider Nord" }).onConflictDoNothing().returning();
    const [d2] = await db().insert(schema.distributors).values({ id: 9702, name: "Öppettider Syd" }).onConflictDoNothing().returning();
    const north = await newCustomer({ distributorId: d1?.id ?? 9701 });
    const south = await newCustomer({ distributorId: d2?.id ?? 9702 });
    const types = async (c: number, day: string) => (await listAlerts(c, day)).filter((a) => a.type === "OPPETTIDER").map((a) => a.imperative);
    // The rule refuses by itself, on its fields, whoever calls it; nothing is stored.
    const requests = async () => (await db().select().from(schema.openingHoursRequests)).length;
    const stored = await requests();
    await expect(requestOpeningHours({ distributorId: 9701, startReportDay: "2041-03-10", startForceReportDay: "2041-03-01" }, { id: "test" })).rejects.toMatchObject({
      code: "invalid",
      fields: { startForceReportDay: "Lås från får inte vara före Påminn från." },
    });
    await expect(requestOpeningHours({ distributorId: 9701, startReportDay: "2041-02-30", startForceReportDay: "" }, { id: "test" })).rejects.toMatchObject({
      code: "invalid",
      fields: { startReportDay: "Ogiltigt datum (ÅÅÅÅ-MM-DD).", startForceReportDay: "Obligatorisk." },
    });
    expect(await requests()).toBe(stored);
    const id = await requestOpeningHours({ distributorId: 9701, startReportDay: "2041-03-01", startForceReportDay: "2041-03-10" }, { id: "test" });
    expect(await types(north, "2041-02-28")).toEqual([]);
    expect(await types(north, "2041-03-01")).toEqual([false]);
    expect(await types(north, "2041-03-10")).toEqual([true]);
    expect(await types(south, "2041-03-10")).toEqual([]);
    expect(lockRedirect(await listAlerts(north, "2041-03-10"), "/rapportering/1")).toBe("/oppettider");
    expect(lockRedirect(await listAlerts(north, "2041-03-10"), "/oppettider")).toBeNull();
    const mine = (await listOpeningHoursRequests()).find((r) => r.id === id)!;
    expect(mine).toMatchObject({ distributorName: "Öppettider Nord", answered: 0 });
    expect(mine.customers).toBeGreaterThanOrEqual(1);

    // Saving the seven days answers it; a save from a page opened before is refused, nothing stored.
    const open = await getOpeningHours(north);
    expect(open.reportedDay).toBeNull();
    const days = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, opens: weekday === 7 ? null : "06:30", closes: weekday === 7 ? null : "00:00" }));
    expect(await saveOpeningHours(north, days, open.version, "2041-03-10")).toEqual({ changed: true });
    expect(await types(north, "2041-03-11")).toEqual([]);
    const stale = saveOpeningHours(north, days.map((d) => ({ ...d, opens: d.opens && "07:00" })), open.version, "2041-03-11");
    await expect(stale).rejects.toMatchObject({ code: "conflict", message: OPENING_HOURS_MESSAGES.changedByOther });
    const now = await getOpeningHours(north);
    expect(now.days[0]).toEqual({ weekday: 1, opens: "06:30", closes: "00:00" });
    expect(now.days[6]).toEqual({ weekday: 7, opens: null, closes: null });
    // The same hours again count as a confirmation.
    expect(await saveOpeningHours(north, days, now.version, "2041-03-11")).toEqual({ changed: false });
    expect((await listOpeningHoursRequests()).find((r) => r.id === id)?.answered).toBeGreaterThanOrEqual(1);

    // A new request for the same reach replaces the old one; hours reported before it are asked for again.
    const next = await requestOpeningHours({ distributorId: 9701, startReportDay: "2041-09-01", startForceReportDay: "2041-09-01" }, { id: "test" });
    expect((await listOpeningHoursRequests()).some((r) => r.id === id)).toBe(false);
    expect(await types(north, "2041-09-01")).toEqual([true]);
    expect(await closeOpeningHoursRequest(next, { id: "test" })).toBe(true);
    expect(await closeOpeningHoursRequest(next, { id: "test" })).toBe(false);
    expect(await types(north, "2041-09-01")).toEqual([]);
  });

  it("locks on unset placard amounts only after LOP_FORCE_AFTER_DAYS", async () => {
    const c = await newCustomer();
    const added = Date.parse("2041-05-01T09:00:00Z");
    await db().insert(schema.placards).values({ customerId: c, titleId: 1, amount: 4, newAmount: null, createdAt: added, updatedAt: added });
    expect((await listAlerts(c, "2041-05-02")).find((a) => a.type === "LOP")?.imperative).toBe(false);
    expect((await listAlerts(c, addDays("2041-05-01", LOP_FORCE_AFTER_DAYS))).find((a) => a.type === "LOP")?.imperative).toBe(false);
    expect((await listAlerts(c, addDays("2041-05-02", LOP_FORCE_AFTER_DAYS))).find((a) => a.type === "LOP")?.imperative).toBe(true);
    expect(lockRedirect(await listAlerts(c, "2041-06-01"), "/historik")).toBe("/lopsedlar");
    expect(lockRedirect(await listAlerts(c, "2041-06-01"), "/lopsedlar")).toBeNull();
  });

  it("reads the facts from the database for one customer only", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const day = "2033-12-01";
    // Only one unanswered holiday is in its report window; one of them is forced.
    const inWindow = await newHoliday({ day: "2033-12-24", startReportDay: "2033-11-25", startForceReportDay: "2033-12-20" });
    await newHoliday({ day: "2033-12-31", startReportDay: "2033-12-02", startForceReportDay: "2033-12-28" });
    await newHoliday({ day: "2033-12-05", startReportDay: "2033-11-20", startForceReportDay: "2033-11-30", deleted: true });
    await createLabelBlock(db(), { customerId: a, type: 0, status: "Levererad", fromDate: day, toDate: day, fromNumber: 1, toNumber: 50, numberUnused: 5 });
    await createLabelBlock(db(), { customerId: a, type: 7, status: "Beställd", fromDate: day, toDate: day, fromNumber: 51, toNumber: 70, numberUnused: 20 });
    await createLabelBlock(db(), { customerId: b, type: 0, status: "Levererad", fromDate: day, toDate: day, fromNumber: 1, toNumber: 50 });
    await createBundle(db(), { customerId: a, number: 1, type: 0 });
    await createBundle(db(), { customerId: a, number: 2, type: 0 });
    await createBundle(db(), { customerId: a, number: 3, type: 1 });
    await createBundle(db(), { customerId: b, number: 1, type: 0 });
    await createBundle(db(), { customerId: b, number: 2, type: 0, open: false, closedDate: day });
    await db().insert(schema.placards).values([
      { customerId: a, titleId: 1, amount: 3, newAmount: null },
      { customerId: b, titleId: 1, amount: 3, newAmount: 3 },
    ]);

    expect(await alertFacts(a, day)).toMatchObject({ holidaysDue: 1, holidaysForced: 0, unusedLabels: 5, bundleTypesOverOpen: 1, placardsUnset: 1 });
    expect(await alertFacts(b, day)).toMatchObject({ holidaysDue: 1, holidaysForced: 0, unusedLabels: 50, bundleTypesOverOpen: 0, placardsUnset: 0 });
    expect((await listAlerts(a, day)).map((x) => x.type)).toEqual(["HELGDAGAR", "BUNDLES", "BESTALLBUNT", "LOP"]);

    // From the force day on, the holiday alert is imperative; answering it removes it.
    expect((await listAlerts(b, "2033-12-20")).find((x) => x.type === "HELGDAGAR")?.imperative).toBe(true);
    await expect(answerHoliday(b, inWindow.id, true, "2033-12-20")).resolves.toBeUndefined();
    // The New Year's holiday is still unanswered, but not yet forced.
    expect(await listAlerts(b, "2033-12-20")).toMatchObject([{ type: "HELGDAGAR", imperative: false }]);
    expect((await alertFacts(a, "2033-12-20")).holidaysForced).toBe(1);
  });

  it("locks every page but the one where the imperative alert is resolved", () => {
    const helg: Alert = { type: "HELGDAGAR", text: "", imperative: true, to: "/helgsparr", action: "" };
    const bunt: Alert = { type: "BUNDLES", text: "", imperative: true, to: "/", action: "" };
    const soft: Alert = { type: "BESTALLBUNT", text: "", imperative: false, to: "/order", action: "" };
    expect(lockRedirect([soft], "/provision")).toBeNull();
    expect(lockRedirect([helg, soft], "/provision")).toBe("/helgsparr");
    expect(lockRedirect([helg], "/rapportering/1")).toBe("/helgsparr");
    expect(lockRedirect([helg], "/helgsparr")).toBeNull();
    expect(lockRedirect([helg], "/kontakt")).toBeNull();
    expect(lockRedirect([helg], "/")).toBe("/helgsparr");
    expect(lockRedirect([bunt], "/")).toBeNull();
    expect(lockRedirect([bunt], "/rapportering/1/bekrafta")).toBeNull();
    expect(lockRedirect([bunt], "/rapportering/1")).toBe("/");
    expect(lockRedirect([helg, bunt], "/")).toBeNull();
    expect(lockRedirect([helg, bunt], "/order")).toBe("/helgsparr");
  });
});

describe("opening hours form (Öppettider)", () => {
  it("reads times as people type them and checks each day", () => {
    expect(["6", "0630", "6.30", "06:30", " 6:30 ", "23:59", "24:00", "6:60", "abc", ""].map(normalizeTime)).toEqual([
      "06:00", "06:30", "06:30", "06:30", "06:30", "23:59", null, null, null, null,
    ]);
    const form: Record<string, string> = { version: "-" };
    for (let d = 1; d <= 7; d++) Object.assign(form, { [`oppnar-${d}`]: "6.30", [`stanger-${d}`]: "18" });
    form["stangt-7"] = "1";
    form["stanger-6"] = "00:00";
    const ok = openingHoursSchema.safeParse(form);
    expect(ok.success && ok.data.days[5]).toEqual({ weekday: 6, opens: "06:30", closes: "00:00" });
    expect(ok.success && ok.data.days[6]).toEqual({ weekday: 7, opens: null, closes: null });
    const bad = openingHoursSchema.safeParse({ ...form, "oppnar-1": "", "oppnar-2": "25", "stanger-3": "05:00" });
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["dag-1", "Ange när butiken öppnar och stänger, eller kryssa i Stängt."],
      ["dag-2", "Ange tiden som tt:mm, till exempel 06:30."],
      ["dag-3", "Stänger måste vara efter Öppnar (00:00 betyder midnatt)."],
    ]);
  });
});

describe("current products", () => {
  it("lists products not yet ended, grouped by heading, with only published covers", async () => {
    const day = "2034-02-01";
    const [pub] = await db().insert(schema.images).values({ filename: "a.jpg", contentType: "image/jpeg", data: Buffer.from([1, 2, 3]), sha256: "abc", published: true }).returning();
    const [pending] = await db().insert(schema.images).values({ filename: "b.jpg", contentType: "image/jpeg", data: Buffer.from([4]), sha256: "def", published: false }).returning();
    const add = (v: Partial<typeof schema.dailyProducts.$inferInsert> & { editionId: number; startDate: string; endDate: string }) =>
      db().insert(schema.dailyProducts).values({ titleId: 1, description: "Produkt", ...v });
    await add({ editionId: 501, heading: "Korsord", description: "Korsordsextra", startDate: "2034-01-30", endDate: "2034-02-05", priceOre: 4900, eanCode: "7388", coverImageId: pub.id });
    await add({ editionId: 502, heading: "", titleId: 2, description: "Söndagsbilaga", startDate: "2034-02-03", endDate: "2034-02-03", coverImageId: pending.id });
    await add({ editionId: 503, heading: "Korsord", description: "Slut", startDate: "2034-01-01", endDate: "2034-01-31" });
    const groups = await listCurrentProducts(day);
    const mine = groups.map((g) => ({ heading: g.heading, products: g.products.filter((p) => p.startDate >= "2034-01-01").map((p) => [p.description, p.coverImageId]) }));
    expect(mine.filter((g) => g.products.length)).toEqual([
      { heading: "Expressen", products: [["Söndagsbilaga", null]] },
      { heading: "Korsord", products: [["Korsordsextra", pub.id]] },
    ]);
    expect(await getPublishedImage(pub.id)).toMatchObject({ contentType: "image/jpeg", sha256: "abc" });
    expect(await getPublishedImage(pending.id)).toBeNull();
  });
});
