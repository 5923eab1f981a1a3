// The staff second factor (decision 013): codes work once, also
// when sent many times at once; recovery codes are used up; `portal staff reset-2fa`.
import { and, eq } from "drizzle-orm";
import { HOTP, Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createSessionRow, readSessionRow } from "./sessions.server";
import { clearThrottle } from "./throttle.server";
import {
  confirmEnrolment,
  newTotpSecret,
  secondFactorRequired,
  verifySecondFactor,
} from "./totp.server";
import { parseTotpRoles } from "~/config.server";
import { schema } from "../../../db/client";
import { createStaff, TEST_TOTP_SECRET } from "../../../cli/seed/factories";
import { portal } from "../../../tests/unit/cli-run";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { tryAttempt } from "../../../tests/unit/helpers";

vi.setConfig({ testTimeout: 60_000 });

beforeAll(baseData);

// Codes as an authenticator app computes them, independently of the module under test.
const code = (secret: string, at: number) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
const step = (at: number) => TOTP.counter({ timestamp: at });
const T0 = 1_800_000_000_000;

let n = 0;
async function staff(opts: { roles?: string; totpSecret?: string | null } = {}) {
  return createStaff(db(), { email: `totp-${n++}@test.example`, name: "T", password: "x-password-1", roles: opts.roles ?? "admin", totpSecret: opts.totpSecret });
}

async function row(id: number) {
  const [r] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
  return r;
}

async function auditActions(id: number) {
  const rows = await db().select().from(schema.auditLog).where(eq(schema.auditLog.actor, `staff:${id}`));
  return rows.map((r) => r.action);
}

describe("who must give a code", () => {
  it("STAFF_TOTP_ROLES: admin by default, a list, or none; an unknown role is refused", () => {
    expect(parseTotpRoles(undefined)).toEqual(["admin"]);
    expect(parseTotpRoles("admin, sales")).toEqual(["admin", "sales"]);
    expect(parseTotpRoles("none")).toEqual([]);
    expect(() => parseTotpRoles("admin,boss")).toThrow("STAFF_TOTP_ROLES ska vara roller åtskilda med komma (admin, sales, utb) eller none; okänd roll: boss.");
  });
  it("a listed role, or anyone already enrolled", () => {
    expect(secondFactorRequired({ roles: "admin", totpSecret: null }, ["admin"])).toBe(true);
    expect(secondFactorRequired({ roles: "sales,admin", totpSecret: null }, ["admin"])).toBe(true);
    expect(secondFactorRequired({ roles: "sales", totpSecret: null }, ["admin"])).toBe(false);
    expect(secondFactorRequired({ roles: "sales", totpSecret: TEST_TOTP_SECRET }, [])).toBe(true);
    expect(secondFactorRequired({ roles: "admin", totpSecret: null }, [])).toBe(false);
  });
});

describe("enrolment", () => {
  it("a right code stores the secret and ten recovery codes (only their hashes), audited without them", async () => {
    const s = await staff({ totpSecret: null });
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(await confirmEnrolment(s.id, secret, "000000", {}, T0)).toBeNull();
    expect((await row(s.id)).totpSecret).toBeNull();

    const done = await confirmEnrolment(s.id, secret, code(secret, T0), { ip: "10.0.0.1" }, T0);
    if (!done || !("recoveryCodes" in done)) throw new Error("not enrolled");
    expect(done.recoveryCodes).toHaveLength(10);
    expect(new Set(done.recoveryCodes).size).toBe(10);
    for (const c of done.recoveryCodes) expect(c).toMatch(/^\d{4}-\d{4}-\d{4}-\d{4}$/);
    const r = await row(s.id);
    expect(r.totpSecret).toBe(secret);
    expect(r.totpLastStep).toBe(step(T0));
    const stored = JSON.parse(r.totpRecovery) as string[];
    expect(stored).toHaveLength(10);
    for (const c of done.recoveryCodes) {
      expect(r.totpRecovery).not.toContain(c);
      expect(r.totpRecovery).not.toContain(c.replace(/-/g, ""));
    }
    const [entry] = await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.actor, `staff:${s.id}`), eq(schema.auditLog.action, "totp.enrol")));
    expect(entry.ip).toBe("10.0.0.1");
    for (const c of done.recoveryCodes) expect(entry.detail ?? "").not.toContain(c.slice(0, 9));
    // The enrolment's own code cannot log in a second time.
    expect(await verifySecondFactor(s.id, code(secret, T0), {}, T0)).toBeNull();
  });

  it("does not overwrite a secret enrolled meanwhile from another browser", async () => {
    const s = await staff({ totpSecret: null });
    const first = newTotpSecret();
    const second = newTotpSecret();
    expect(await confirmEnrolment(s.id, first, code(first, T0), {}, T0)).toHaveProperty("recoveryCodes");
    expect(await confirmEnrolment(s.id, second, code(second, T0), {}, T0)).toEqual({ enrolledElsewhere: true });
    expect((await row(s.id)).totpSecret).toBe(first);
  });
});

describe("codes of an enrolled user", () => {
  it("accepts the code of now and one step either side, nothing further off", async () => {
    const s = await staff();
    const at = T0 + 5 * 60_000;
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at - 60_000), {}, at)).toBeNull();
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at + 60_000), {}, at)).toBeNull();
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at - 30_000), {}, at)).toEqual({ kind: "totp" });
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at), {}, at)).toEqual({ kind: "totp" });
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at + 30_000), {}, at)).toEqual({ kind: "totp" });
    expect((await row(s.id)).totpLastStep).toBe(step(at) + 1);
  });

  it("refuses a replayed code, and a code of a step before the last accepted one", async () => {
    const s = await staff();
    const at = T0 + 10 * 60_000;
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at), {}, at)).toEqual({ kind: "totp" });
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at), {}, at + 1_000)).toBeNull();
    // The previous step's code is still inside the window, but older than the used one.
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at - 30_000), {}, at + 1_000)).toBeNull();
    expect(await verifySecondFactor(s.id, code(TEST_TOTP_SECRET, at + 30_000), {}, at + 30_000)).toEqual({ kind: "totp" });
  });

  it("one right code sent 20 times at once logs in once", async () => {
    const s = await staff();
    const at = T0 + 20 * 60_000;
    const c = code(TEST_TOTP_SECRET, at);
    const results = await Promise.all(Array.from({ length: 20 }, () => verifySecondFactor(s.id, c, {}, at)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await auditActions(s.id)).filter((a) => a === "totp.success")).toHaveLength(1);
  });

  it("a recovery code works once, typed with or without dashes and spaces, also when sent 10 times at once", async () => {
    const s = await staff({ totpSecret: null });
    const secret = newTotpSecret();
    const done = await confirmEnrolment(s.id, secret, code(secret, T0), {}, T0);
    if (!done || !("recoveryCodes" in done)) throw new Error("not enrolled");
    const [a, b] = done.recoveryCodes;
    expect(await verifySecondFactor(s.id, ` ${a.replace(/-/g, " ")} `, {}, T0)).toEqual({ kind: "recovery", left: 9 });
    expect(await verifySecondFactor(s.id, a, {}, T0)).toBeNull();
    const results = await Promise.all(Array.from({ length: 10 }, () => verifySecondFactor(s.id, b.replace(/-/g, ""), {}, T0)));
    expect(results.filter((r) => r !== null)).toEqual([{ kind: "recovery", left: 8 }]);
    expect(JSON.parse((await row(s.id)).totpRecovery)).toHaveLength(8);
    // Another user's code, a made-up code and a code of the wrong length are no use.
    const other = await staff({ totpSecret: null });
    const theirs = await confirmEnrolment(other.id, secret, code(secret, T0), {}, T0);
    if (!theirs || !("recoveryCodes" in theirs)) throw new Error("not enrolled");
    expect(await verifySecondFactor(s.id, theirs.recoveryCodes[0], {}, T0)).toBeNull();
    expect(await verifySecondFactor(s.id, "1234-5678-9012-3456", {}, T0)).toBeNull();
    expect(await verifySecondFactor(s.id, done.recoveryCodes[2].slice(0, -1), {}, T0)).toBeNull();
    const actions = await auditActions(s.id);
    expect(actions.filter((x) => x === "totp.recovery-code")).toHaveLength(2);
  });

  it("a user with no secret has no codes at all", async () => {
    const s = await staff({ totpSecret: null });
    const any = HOTP.generate({ secret: Secret.fromBase32(TEST_TOTP_SECRET), counter: step(T0) });
    expect(await verifySecondFactor(s.id, any, {}, T0)).toBeNull();
  });
});

describe("portal staff reset-2fa", () => {
  it("forgets the secret and recovery codes, ends the user's sessions and the code lock, and no one else's", async () => {
    const s = await staff();
    const other = await staff();
    const customer = await newCustomer();
    const own = await createSessionRow({ staffId: s.id });
    const impersonating = await createSessionRow({ customerId: customer, impersonatorId: s.id });
    const pending = await createSessionRow({ pendingStaffId: s.id, pendingUntil: Date.now() + 60_000 });
    const theirs = await createSessionRow({ staffId: other.id });
    await db().update(schema.staffUsers).set({ totpRecovery: JSON.stringify(["a", "b"]), totpLastStep: 99 }).where(eq(schema.staffUsers.id, s.id));
    for (let i = 0; i < 10; i++) await tryAttempt({ account: `totp:staff:${s.id}`, ip: null, device: null });
    expect((await tryAttempt({ account: `totp:staff:${s.id}`, ip: null, device: null })).ok).toBe(false);

    const res = await portal(["staff", "reset-2fa", `  ${s.email.toUpperCase()} `]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`Tvåstegsverifieringen för ${s.email} är återställd (3 sessioner avslutade).`);
    const r = await row(s.id);
    expect([r.totpSecret, r.totpRecovery, r.totpLastStep]).toEqual([null, "[]", 0]);
    for (const id of [own, impersonating, pending]) expect(await readSessionRow(id)).toBeNull();
    expect(await readSessionRow(theirs)).toMatchObject({ staffId: other.id });
    expect((await row(other.id)).totpSecret).toBe(TEST_TOTP_SECRET);
    expect((await tryAttempt({ account: `totp:staff:${s.id}`, ip: null, device: null })).ok).toBe(true);
    const [entry] = await db().select().from(schema.auditLog).where(eq(schema.auditLog.action, "staff.reset-2fa"));
    expect(entry).toMatchObject({ actor: "cli", target: `staff:${s.id}` });
    expect(JSON.parse(entry.detail!)).toEqual({ sessionsEnded: 3 });
    await clearThrottle(`totp:staff:${s.id}`);
  });
});
