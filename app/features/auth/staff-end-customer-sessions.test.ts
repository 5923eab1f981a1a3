// 'Logga ut kund': staff end one retailer's sessions, audited.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createSessionRow, readSessionRow, revokeCustomerSessions } from "./sessions.server";
import { schema } from "../../../db/client";
import { createStaff } from "../../../cli/seed/factories";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";

beforeAll(baseData);

describe("revokeCustomerSessions", () => {
  it("ends all of one customer's sessions, impersonations included, and no one else's", async () => {
    const mine = await newCustomer();
    const other = await newCustomer();
    const a = await createSessionRow({ customerId: mine });
    const staff = await createStaff(db(), { email: "revoke@test.example", name: "Admin", password: "x-password-1", roles: "admin" });
    const b = await createSessionRow({ customerId: mine, impersonatorId: staff.id });
    const theirs = await createSessionRow({ customerId: other });
    expect(await revokeCustomerSessions(3, mine, { ip: "10.1.2.3", requestId: "req-1" })).toBe(2);
    expect(await readSessionRow(a)).toBeNull();
    expect(await readSessionRow(b)).toBeNull();
    expect(await readSessionRow(theirs)).toMatchObject({ customerId: other });
  });

  it("writes one audit row naming the staff user, the customer and the count", async () => {
    const customerId = await newCustomer();
    await createSessionRow({ customerId });
    await revokeCustomerSessions(5, customerId, { ip: "10.1.2.4", requestId: "req-2" });
    const rows = await db()
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "customer.sessions.end"), eq(schema.auditLog.target, `customer:${customerId}`)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: "staff:5", ip: "10.1.2.4", requestId: "req-2" });
    expect(JSON.parse(rows[0].detail!)).toEqual({ ended: 1 });
  });

  it("answers null for a customer that does not exist, and audits nothing", async () => {
    expect(await revokeCustomerSessions(5, 99_998)).toBeNull();
    const rows = await db().select().from(schema.auditLog).where(eq(schema.auditLog.target, "customer:99998"));
    expect(rows).toHaveLength(0);
  });

  it("with no session open it still succeeds with 0", async () => {
    expect(await revokeCustomerSessions(5, await newCustomer())).toBe(0);
  });
});
