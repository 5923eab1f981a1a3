// Staff back office, part A: messages, shortcuts and impersonation auditing.
import { beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createStaff } from "../../db/factories";
import { deleteMessage, getMessage, listMessages, parseCustomerNumbers, saveMessage, type MessageInput } from "../../app/features/messages/messages.server";
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

  it("strip whitespace from customer numbers and reject unknown ones by number", async () => {
    expect(parseCustomerNumbers(` ${k1} ,\n ${k2},${k1} `)).toEqual({ ids: [k1, k2], invalid: [] });
    expect(parseCustomerNumbers("12a,5")).toEqual({ ids: [5], invalid: ["12a"] });
    const bad = saveMessage({ ...base, type: 3, customers: `${k1}, 99998 , 99997` }, staffActor(staffA));
    await expect(bad).rejects.toMatchObject({ code: "invalid", fields: { customers: "Okända kundnummer: 99998, 99997" } });
    const before = (await listMessages()).length;
    expect(before).toBe(1);
  });

  it("link types 3 and 4 to customers; an update replaces the list; delete removes both", async () => {
    const res = { id: await saveMessage({ ...base, type: 3, header: "Till två", customers: `${k1} , ${k2}` }, staffActor(staffA)) };
    expect((await getMessage(res.id))!.customers).toBe(`${k1},${k2}`);
    expect((await listMessages()).find((m) => m.id === res.id)).toMatchObject({ customerCount: 2, header: "Till två" });

    const upd = await saveMessage({ ...base, id: res.id, type: 4, header: "Till en", customers: String(k2) }, staffActor(staffA));
    expect(upd).toBe(res.id);
    expect(await getMessage(res.id)).toMatchObject({ type: 4, header: "Till en", customers: String(k2) });

    // Types 1 and 2 carry no customer list.
    await saveMessage({ ...base, id: res.id, type: 2, customers: String(k1) }, staffActor(staffA));
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

describe("shortcuts", () => {
  it("belong to their staff user, who alone can delete them", async () => {
    const id = await addShortcut(staffA, { name: "Intranät", url: "https://intra.example/start" });
    expect(await listShortcuts(staffA)).toEqual([{ id, name: "Intranät", url: "https://intra.example/start" }]);
    expect(await listShortcuts(staffB)).toEqual([]);
    expect(await deleteShortcut(staffB, id)).toBe(false);
    expect(await listShortcuts(staffA)).toHaveLength(1);
    expect(await deleteShortcut(staffA, id)).toBe(true);
    expect(await listShortcuts(staffA)).toEqual([]);
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
