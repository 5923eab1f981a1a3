// Staff back office, part A: messages, shortcuts and impersonation auditing.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createStaff } from "../../cli/seed/factories";
import { deleteMessage, getMessage, listMessages, messageQuestion, parseCustomerNumbers, saveMessage, type MessageInput } from "../../app/features/messages/messages.server";
import { openingHoursRequestQuestion, requestOpeningHours } from "../../app/features/opening-hours/opening-hours.server";
import { createDistributor } from "../../cli/seed/factories";
import { CLI_ACTOR } from "../../app/features/audit/audit.server";
import { addShortcut, deleteShortcut, listShortcuts } from "../../app/features/staff/shortcuts.server";
import { staffActor } from "../../app/features/audit/audit.server";
import { auditImpersonatedRequest, endImpersonation, startImpersonation } from "../../app/features/auth/impersonation.server";
import { baseData, db, newCustomer } from "./helpers";

let staffA: number;
let staffB: number;
let k1: number;
let k2: number;

const base: MessageInput = { type: 1, header: "Försenad leverans", content: "<p>Bilen är sen.</p>", startDate: "2026-03-10", stopDate: "", customers: "" };

beforeAll(async () => {
  await baseData();
  staffA = (await createStaff(db(), { email: "a@test.example", name: "A", password: "x-password-1", roles: "admin" })).id;
  staffB = (await createStaff(db(), { email: "b@test.example", name: "B", password: "x-password-1", roles: "admin" })).id;
  k1 = await newCustomer();
  k2 = await newCustomer();
});

async function auditRows(action: string) {
  return db().select().from(schema.auditLog).where(eq(schema.auditLog.action, action));
}

describe("messages", () => {
  it("require a type, a date and a valid period", async () => {
    await expect(saveMessage({ ...base, type: 0 }, staffActor(staffA))).rejects.toMatchObject({ code: "invalid", fields: { type: "Måste välja typ!" } });
    await expect(saveMessage({ ...base, startDate: "" }, staffActor(staffA))).rejects.toMatchObject({ code: "invalid", fields: { startDate: "Datum ej ifyllt is" } });
    await expect(saveMessage({ ...base, stopDate: "2026-03-09" }, staffActor(staffA))).rejects.toMatchObject({ code: "invalid", fields: { stopDate: "Perioden felaktig" } });
  });

  it("save one date as start and stop, sanitised", async () => {
    const id = await saveMessage({ ...base, content: '<p onclick="x()">Hej <script>alert(1)</script><strong>där</strong></p><img src=x onerror=y>' }, staffActor(staffA));
    const saved = (await getMessage(id))!;
    expect(saved).toMatchObject({ type: 1, startDate: "2026-03-10", stopDate: "2026-03-10", customers: "" });
    expect(saved.content).toBe("<p>Hej <strong>där</strong></p>");
    expect(await auditRows("message.add")).toHaveLength(1);
  });

  it("read a tolerant customer list and reject unknown numbers by number", async () => {
    expect(parseCustomerNumbers(` ${k1} ,\n ${k2},${k1} `)).toEqual({ ids: [k1, k2], invalid: [] });
    expect(parseCustomerNumbers("12a,5")).toEqual({ ids: [5], invalid: ["12a"] });
    // Spaces, new lines, tabs and semicolons separate numbers; they never glue digits together.
    expect(parseCustomerNumbers("31337 808")).toEqual({ ids: [31337, 808], invalid: [] });
    expect(parseCustomerNumbers("1001;\r\n1002\t1003\n\n, ;1004")).toEqual({ ids: [1001, 1002, 1003, 1004], invalid: [] });
    // Leading zeros are the same customer; six digits or zero are not a customer number.
    expect(parseCustomerNumbers("00808 0808 123456 0")).toEqual({ ids: [808], invalid: ["123456", "0"] });
    const bad = saveMessage({ ...base, type: 3, customers: `${k1}\n99998 99997` }, staffActor(staffA));
    await expect(bad).rejects.toMatchObject({ code: "invalid", fields: { customers: "Okända kundnummer: 99998, 99997" } });
    expect((await listMessages()).total).toBe(1);
  });

  it("link types 3 and 4 to customers; an update replaces the list; delete removes both", async () => {
    const res = { id: await saveMessage({ ...base, type: 3, header: "Till två", customers: `${k1}\n${k2}` }, staffActor(staffA)) };
    expect((await getMessage(res.id))!.customers).toBe([k1, k2].sort((a, b) => a - b).join(", "));
    expect((await listMessages()).rows.find((m) => m.id === res.id)).toMatchObject({
      customerCount: 2,
      header: "Till två",
      targets: [k1, k2].sort((a, b) => a - b).join(", "),
    });
    // An edit that keeps the list (the form sends it back as shown) keeps the customers.
    const shown = (await getMessage(res.id))!;
    await saveMessage({ ...base, id: res.id, type: 3, header: "Till två, ändrad", customers: shown.customers }, staffActor(staffA));
    expect((await getMessage(res.id))!.customers).toBe(shown.customers);
    // Type 3 to 4 keeps the list too.
    await saveMessage({ ...base, id: res.id, type: 4, header: "Till två, typ 4", customers: shown.customers }, staffActor(staffA));
    expect((await getMessage(res.id))!.customers).toBe(shown.customers);

    const upd = await saveMessage({ ...base, id: res.id, type: 4, header: "Till en", customers: String(k2) }, staffActor(staffA));
    expect(upd).toBe(res.id);
    expect(await getMessage(res.id)).toMatchObject({ type: 4, header: "Till en", customers: String(k2) });

    // Types 1 and 2 go to everybody: a list is refused, never dropped silently.
    await expect(saveMessage({ ...base, id: res.id, type: 2, customers: String(k1) }, staffActor(staffA))).rejects.toMatchObject({
      code: "invalid",
      fields: { customers: expect.stringContaining("går till alla kunder") },
    });
    expect((await getMessage(res.id))!.customers).toBe(String(k2));
    await saveMessage({ ...base, id: res.id, type: 2, customers: " " }, staffActor(staffA));
    expect((await getMessage(res.id))!.customers).toBe("");

    expect(await deleteMessage(res.id, staffActor(staffA))).toBe(true);
    expect(await getMessage(res.id)).toBeNull();
    expect(await db().select().from(schema.messageCustomers).where(eq(schema.messageCustomers.messageId, res.id))).toHaveLength(0);
    expect(await deleteMessage(res.id, staffActor(staffA))).toBe(false);
    expect(await auditRows("message.delete")).toHaveLength(1);
  });

  it("an update of a message that is gone changes nothing", async () => {
    await expect(saveMessage({ ...base, id: 424242 }, staffActor(staffA))).rejects.toMatchObject({ code: "invalid", fields: { id: "Meddelandet finns inte längre." } });
  });
});

describe("changes that reach every retailer ask first", () => {
  const activeCustomers = async () => (await db().select().from(schema.customers)).filter((c) => c.deactivatedAt === null).length;

  it("a message to everybody names how many active customers it reaches; to chosen customers, or an edit of one already to everybody, asks nothing", async () => {
    const n = await activeCustomers();
    const nf = new Intl.NumberFormat("sv-SE").format(n);
    expect(await messageQuestion({ ...base, stopDate: "2026-03-12" })).toEqual({
      title: "Spara meddelandet till alla kunder?",
      text: `Leveransinformation "Försenad leverans" visas för alla ${nf} aktiva kunder från 2026-03-10 till 2026-03-12. Skriv kundnummer för att bara nå några (Kundmeddelande och Returrapportering).`,
    });
    // Type 3 without numbers is for everybody too; with numbers it is not.
    expect((await messageQuestion({ ...base, type: 3, header: "" }))?.text).toMatch(new RegExp(`^Kundmeddelande visas för alla ${nf} aktiva kunder den 2026-03-10\\.`));
    expect(await messageQuestion({ ...base, type: 3, customers: `${k1}` })).toBeNull();
    // A deactivated customer is not counted.
    const gone = await newCustomer({ name: "Stängd kiosk" });
    await db().update(schema.customers).set({ deactivatedAt: Date.now() }).where(eq(schema.customers.id, gone));
    expect((await messageQuestion(base))?.text).toContain(`alla ${nf} aktiva kunder`);
    // Edits: one to everybody stays so without a question; one to k1 made everybody's asks.
    const everybody = await saveMessage(base, staffActor(staffA));
    expect(await messageQuestion({ ...base, id: everybody, header: "Rättad rubrik" })).toBeNull();
    const chosen = await saveMessage({ ...base, type: 3, customers: `${k1}` }, staffActor(staffA));
    expect(await messageQuestion({ ...base, id: chosen, type: 3, customers: "" })).not.toBeNull();
  });

  it("an opening-hours request names its reach, its days and the request it replaces; an unknown distributor has none", async () => {
    await createDistributor(db(), 77, "Tidningsbud Östersund");
    await newCustomer({ distributorId: 77, name: "Şahin Livs" });
    await newCustomer({ distributorId: 77, name: "Nguyễn Tobak" });
    const input = { distributorId: 77, startReportDay: "2026-04-01", startForceReportDay: "2026-04-08" };
    expect(await openingHoursRequestQuestion(input)).toEqual({
      title: "Begär öppettider?",
      text: "Tidningsbud Östersund: 2 kunder ombeds rapportera sina öppettider. De påminns från 2026-04-01, och från 2026-04-08 är menyn låst för den som inte har svarat.",
    });
    await requestOpeningHours(input, CLI_ACTOR);
    expect((await openingHoursRequestQuestion({ ...input, startReportDay: "2026-05-01", startForceReportDay: "2026-05-02" }))?.text).toContain(
      "Begäran som gäller nu (påminn från 2026-04-01, lås från 2026-04-08) ersätts.",
    );
    expect((await openingHoursRequestQuestion({ ...input, distributorId: null }))?.text).toMatch(/^Alla distributörer: [\d\s]+ kunder ombeds/);
    expect(await openingHoursRequestQuestion({ ...input, distributorId: 99_999 })).toBeNull();
  });
});

describe("shortcuts", () => {
  it("belong to their staff user, who alone can delete them", async () => {
    const id = await addShortcut(staffA, { name: "Intranät", url: "https://intra.example/start" });
    expect(await listShortcuts(staffA)).toEqual([{ id, name: "Intranät", url: "https://intra.example/start" }]);
    expect(await listShortcuts(staffB)).toEqual([]);
    expect(await deleteShortcut(staffB, id)).toBe(false);
    expect(await listShortcuts(staffA)).toHaveLength(1);
    expect(await deleteShortcut(staffA, id)).toBe(true);
    expect(await listShortcuts(staffA)).toEqual([]);
    // What was deleted stays in the log's row; deleting twice is not a second delete.
    const [row] = (await auditRows("shortcut.delete")).filter((r) => r.target === `shortcut:${id}`);
    expect(JSON.parse(row.detail!)).toEqual({ name: "Intranät", url: "https://intra.example/start" });
    expect(await deleteShortcut(staffA, id)).toBe(false);
    expect((await auditRows("shortcut.delete")).filter((r) => r.target === `shortcut:${id}`)).toHaveLength(1);
  });

  it("refuse an empty title and a link that is not http(s)", async () => {
    await expect(addShortcut(staffA, { name: " ", url: "https://x.example" })).rejects.toThrow("Required.");
    await expect(addShortcut(staffA, { name: "X", url: "javascript:alert(1)" })).rejects.toThrow("Invalid Url Format!!");
    await expect(addShortcut(staffA, { name: "X", url: "www.example.se" })).rejects.toThrow("Invalid Url Format!!");
  });
});

describe("impersonation", () => {
  it("is audited under the staff id at start, for each changing request and at the end", async () => {
    expect(await startImpersonation(staffA, 99_999)).toBeNull();
    expect(await startImpersonation(staffA, k1)).toMatchObject({ customerId: k1 });
    await auditImpersonatedRequest(staffA, k1, { method: "POST", path: "/rapportering/1" });
    expect(await endImpersonation(staffA, k1)).toBe(true);
    const rows = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.actor, `staff:${staffA}`), eq(schema.auditLog.target, `customer:${k1}`)));
    expect(rows.map((r) => r.action)).toEqual(["impersonation.start", "impersonation.request", "impersonation.end"]);
    expect(JSON.parse(rows[1].detail!)).toEqual({ method: "POST", path: "/rapportering/1" });
  });
});

describe("the list of messages", () => {
  it("searches heading and content, sorts, pages and names the targets", async () => {
    const actor = staffActor(staffA);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await newCustomer());
    await saveMessage({ ...base, type: 3, header: "Şahin 100% klar_", content: "<p>Hej</p>", customers: ids.join(" ") }, actor);
    await saveMessage({ ...base, type: 1, header: "Annat", content: "Om Łódź", startDate: "2026-03-01" }, actor);
    const found = await listMessages({ search: "100%" });
    expect(found.rows.map((r) => r.header)).toEqual(["Şahin 100% klar_"]);
    const sorted = [...ids].sort((a, b) => a - b);
    expect(found.rows[0].targets).toBe(`${sorted.slice(0, 5).join(", ")} och 2 till`);
    expect((await listMessages({ search: "Łódź" })).rows.map((r) => r.header)).toEqual(["Annat"]);
    expect((await listMessages({ search: "_" })).rows.map((r) => r.header)).toEqual(["Şahin 100% klar_"]);
    const byHeader = await listMessages({ sort: { column: "rubrik", descending: false } });
    const headers = byHeader.rows.map((r) => r.header);
    expect(headers).toEqual([...headers].sort());
    const all = await listMessages();
    expect(all.rows.find((r) => r.header === "Annat")!.targets).toBe("Alla");
    expect(all.pages).toBe(Math.max(1, Math.ceil(all.total / 25)));
  });
});
