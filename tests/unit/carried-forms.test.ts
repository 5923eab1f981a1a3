// What a lapsed session carries over the login: bound to the customer of
// the lapsed session, read once, expiring, size-limited; impersonations carry nothing.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../db/client";
import {
  CARRY_LIMITS,
  carryForm,
  peekCarriedForm,
  takeCarriedForm,
} from "../../app/features/auth/carried-forms.server";
import { SESSION_LIMITS, createSessionRow, readSessionRow, takeLapsedRetailer } from "../../app/features/auth/sessions.server";
import { createStaff } from "../../cli/seed/factories";
import { baseData, db, newCustomer } from "./helpers";

let a: number;
let b: number;
beforeAll(async () => {
  await baseData();
  a = await newCustomer();
  b = await newCustomer();
});

const entries: [string, string][] = [["intent", "save"], ["n-1.bundle", "101"], ["n-1.amount", "7"]];

describe("carried forms", () => {
  it("are read once, and only by the customer they were carried for", async () => {
    const id = (await carryForm({ customerId: a, path: "/rapportering/1", entries }))!;
    expect(await peekCarriedForm(id)).toEqual({ customerId: a, path: "/rapportering/1", entries });
    expect(await takeCarriedForm(id, a)).toEqual({ customerId: a, path: "/rapportering/1", entries });
    expect(await takeCarriedForm(id, a)).toBeNull();

    const other = (await carryForm({ customerId: a, path: "/rapportering/2", entries }))!;
    expect(await takeCarriedForm(other, b)).toBeNull();
    // Discarded: not there for the right customer afterwards either.
    expect(await takeCarriedForm(other, a)).toBeNull();
  });

  it("expire after an hour and are pruned by the next carry", async () => {
    const t0 = Date.now();
    const id = (await carryForm({ customerId: a, path: "/rapportering/1", entries }, t0))!;
    expect(await peekCarriedForm(id, t0 + CARRY_LIMITS.ttlMs - 1)).not.toBeNull();
    expect(await takeCarriedForm(id, a, t0 + CARRY_LIMITS.ttlMs)).toBeNull();
    const old = (await carryForm({ customerId: a, path: "/rapportering/1", entries }, t0))!;
    await carryForm({ customerId: b, path: "/rapportering/1", entries }, t0 + CARRY_LIMITS.ttlMs + 1);
    expect(await db().select().from(schema.carriedForms).where(eq(schema.carriedForms.id, old))).toHaveLength(0);
  });

  it("refuse a form too large to carry", async () => {
    expect(await carryForm({ customerId: a, path: "/rapportering/1", entries: [["x", "y".repeat(CARRY_LIMITS.maxBytes)]] })).toBeNull();
    const many = Array.from({ length: CARRY_LIMITS.maxFields + 1 }, (_, i): [string, string] => [`f${i}`, ""]);
    expect(await carryForm({ customerId: a, path: "/rapportering/1", entries: many })).toBeNull();
  });
});

describe("a lapsed session", () => {
  it("names its retailer once to the request that met it; a live, an impersonated or a staff session names no one", async () => {
    const now = Date.now();
    const own = await createSessionRow({ customerId: a }, now);
    const admin = (await createStaff(db(), { email: "carry@test.example", name: "C", password: "x-password-1", roles: "admin" })).id;
    const impersonated = await createSessionRow({ customerId: b, impersonatorId: admin }, now);
    const staff = await createSessionRow({ staffId: admin }, now);
    expect(await readSessionRow(own, now)).not.toBeNull();
    expect(takeLapsedRetailer(own, now)).toBeNull();

    const later = now + SESSION_LIMITS.idleMs;
    for (const id of [own, impersonated, staff]) expect(await readSessionRow(id, later)).toBeNull();
    expect(takeLapsedRetailer(own, later)).toBe(a);
    expect(takeLapsedRetailer(own, later)).toBeNull();
    expect(takeLapsedRetailer(impersonated, later)).toBeNull();
    expect(takeLapsedRetailer(staff, later)).toBeNull();
  });
});
