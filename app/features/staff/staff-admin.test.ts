// The admins' staff rules against a real libSQL database.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../../db/client";
import { createStaff } from "../../../cli/seed/factories";
import { baseData, db } from "../../../tests/unit/helpers";
import { staffActor } from "../audit/audit.server";
import { verifySecret } from "../auth/passwords.server";
import { createStaff as addAccount, resetStaffPassword, searchStaff, setStaffActive, STAFF_PAGE_SIZE } from "./admin.server";
import { changeStaffRoles, LAST_ADMIN, NOT_YOURSELF } from "./staff.server";

beforeAll(baseData);

async function sessionFor(staffId: number) {
  const now = Date.now();
  await db().insert(schema.sessions).values({ id: `s-${staffId}-${now}-${Math.random()}`, staffId, createdAt: now, lastSeenAt: now, expiresAt: now + 3_600_000 });
}

describe("staff accounts", () => {
  it("keep at least one active admin, and nobody demotes or deactivates themself", async () => {
    // Every admin the test database has (factories may have made some) but one is deactivated first.
    const only = (await createStaff(db(), { email: "only-admin@test.example", name: "Ensam", password: "x-password-1", roles: "admin" })).id;
    const others = await db().select().from(schema.staffUsers);
    for (const o of others) if (o.id !== only && o.roles.includes("admin")) await db().update(schema.staffUsers).set({ deactivatedAt: Date.now() }).where(eq(schema.staffUsers.id, o.id));
    const helper = (await createStaff(db(), { email: "helper@test.example", name: "Hjälp", password: "x-password-1", roles: "sales" })).id;
    await expect(changeStaffRoles({ id: only }, ["sales"], null, staffActor(helper), helper)).rejects.toMatchObject({ message: LAST_ADMIN });
    await expect(setStaffActive(only, false, staffActor(helper), helper)).rejects.toMatchObject({ message: LAST_ADMIN });
    await expect(setStaffActive(only, false, staffActor(only), only)).rejects.toMatchObject({ message: NOT_YOURSELF });
    await expect(changeStaffRoles({ id: only }, ["sales"], null, staffActor(only), only)).rejects.toMatchObject({ message: NOT_YOURSELF });
    // With a second admin, the first can be deactivated by the second; twice is no error.
    await changeStaffRoles({ id: helper }, ["admin", "sales"], null, staffActor(only), only);
    expect(await setStaffActive(only, false, staffActor(helper), helper)).toBe(true);
    expect(await setStaffActive(only, false, staffActor(helper), helper)).toBe(false);
    expect(await setStaffActive(only, true, staffActor(helper), helper)).toBe(true);
  });

  it("a utb account needs a distributor; changes and resets end the sessions; the one-time password is only returned", async () => {
    await expect(addAccount({ email: "utb-x@test.example", name: "U", roles: ["utb"], distributorId: null }, staffActor(1))).rejects.toMatchObject({ fields: { distributorId: expect.any(String) } });
    const { id, password } = await addAccount({ email: "utb-y@test.example", name: "Ş U", roles: ["utb"], distributorId: 2 }, staffActor(1));
    await expect(addAccount({ email: "UTB-Y@test.example", name: "dup", roles: ["sales"], distributorId: null }, staffActor(1))).rejects.toMatchObject({ fields: { email: expect.stringContaining("finns redan") } });
    const [row] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
    expect(await verifySecret(password, row.passwordHash)).toBe(true);
    await sessionFor(id);
    await changeStaffRoles({ id: id }, ["sales"], 2, staffActor(1), 1);
    const [after] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
    expect([after.roles, after.distributorId]).toEqual(["sales", null]);
    expect(await db().select().from(schema.sessions).where(eq(schema.sessions.staffId, id))).toHaveLength(0);
    await sessionFor(id);
    const next = await resetStaffPassword(id, staffActor(1));
    expect(next).not.toBe(password);
    expect(await db().select().from(schema.sessions).where(eq(schema.sessions.staffId, id))).toHaveLength(0);
    expect(JSON.stringify(await db().select().from(schema.auditLog))).not.toContain(next);
  });

  it("the list is searched by any part of name, e-mail or distributor with accents folded, and paged in Swedish order", async () => {
    const tag = `sok${Date.now()}`;
    const names = ["Östen Åberg", "Şahin Yılmaz", "Ängla Berg", "Zara Ek", "Anna Öberg"];
    for (const [i, name] of names.entries()) await createStaff(db(), { email: `${tag}-${i}@test.example`, name, password: "x-password-1", roles: "sales" });
    const gone = await createStaff(db(), { email: `${tag}-gone@test.example`, name: "Aaron Avstängd", password: "x-password-1", roles: "sales" });
    await db().update(schema.staffUsers).set({ deactivatedAt: Date.now() }).where(eq(schema.staffUsers.id, gone.id));
    // Active first, then å, ä, ö after z; the deactivated account last although "Aaron" sorts first.
    expect((await searchStaff({ q: tag, page: 1 })).rows.map((r) => r.name)).toEqual(["Anna Öberg", "Şahin Yılmaz", "Zara Ek", "Ängla Berg", "Östen Åberg", "Aaron Avstängd"]);
    expect((await searchStaff({ q: `sahin ${tag}`, page: 1 })).rows.map((r) => r.name)).toEqual(["Şahin Yılmaz"]);
    expect((await searchStaff({ q: `${tag}-3@TEST`, page: 1 })).rows.map((r) => r.name)).toEqual(["Zara Ek"]);
    expect((await searchStaff({ q: `${tag} nobody`, page: 1 })).total).toBe(0);
    // Paged: the second page holds what the first could not; a page past the end shows the last.
    for (let i = 0; i < STAFF_PAGE_SIZE; i++) await db().insert(schema.staffUsers).values({ email: `${tag}-bulk-${i}@test.example`, name: `Bulk ${String(i).padStart(2, "0")}`, passwordHash: "x", roles: "sales" });
    const first = await searchStaff({ q: tag, page: 1 });
    expect([first.total, first.pages, first.rows.length]).toEqual([STAFF_PAGE_SIZE + 6, 2, STAFF_PAGE_SIZE]);
    const last = await searchStaff({ q: tag, page: 99 });
    expect([last.page, last.rows.length, last.rows.at(-1)?.name]).toEqual([2, 6, "Aaron Avstängd"]);
  });
});
