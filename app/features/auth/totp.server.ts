// The staff second factor: TOTP (RFC 6238) with otpauth, enrolled on first login,
// and ten single-use recovery codes (docs/decisions/013-staff-second-factor.md).
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, lt } from "drizzle-orm";
import { HOTP, Secret, TOTP } from "otpauth";
import { config } from "~/config.server";
import { schema, writeTransaction } from "~/db.server";
import { audit, type Actor, staffActor } from "~/features/audit/audit.server";
import { getStaffByEmail, type Role } from "~/features/staff/staff.server";
import { refuse } from "~/lib/refusal";
import { clearThrottle } from "./throttle.server";
import { endStaffSessions } from "./sessions.server";
import { machineNow, portalNow } from "../../../db/clock";

// What every authenticator app understands: SHA-1, 6 digits, 30 s (RFC 6238 defaults).
const PERIOD_S = 30;
const DIGITS = 6;
const ISSUER = "Returportalen";
/** Steps either side of now that are accepted, for clocks that drift (RFC 6238 §5.2). */
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** 16 random digits, about 53 bits: typed on the same numeric keypad as a code. */
const RECOVERY_DIGITS = 16;



/**
 * Whether a staff user must give a code after the password: any role listed in
 * STAFF_TOTP_ROLES, or already enrolled (a factor once set up stays in use, also
 * when the role that required it is gone; `portal staff reset-2fa` removes it).
 */
export function secondFactorRequired(staff: { roles: string; totpSecret: string | null }, roles: Role[] = config.totpRoles): boolean {
  if (staff.totpSecret) return true;
  return staff.roles.split(",").some((r) => (roles as string[]).includes(r));
}

/** A new random secret, base32, 160 bits (RFC 4226 §4 recommends 160). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The secret as an app wants it typed: groups of four. */
export function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

function totpFor(secret: string, email: string) {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: DIGITS, period: PERIOD_S });
}

/** The enrolment QR code: an otpauth:// URI as inline SVG markup (no script, no image request). */
export async function enrolmentQrSvg(secret: string, email: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toString(totpFor(secret, email).toString(), { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

export function timeStep(now: number): number {
  return TOTP.counter({ period: PERIOD_S, timestamp: now });
}

/** The code for `step` (tests and the e2e fixtures compute codes this way too). */
export function codeAt(secret: string, step: number): string {
  return HOTP.generate({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: DIGITS, counter: step });
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The time steps within the window, after `lastStep`, whose code is `code`. */
function matchingSteps(secret: string, code: string, now: number, lastStep: number): number[] {
  const current = timeStep(now);
  const steps: number[] = [];
  for (let step = current - WINDOW; step <= current + WINDOW; step++) {
    if (step > lastStep && same(codeAt(secret, step), code)) steps.push(step);
  }
  return steps;
}

/** Digits only: spaces and dashes typed from a printed code are dropped. */
export function normaliseCode(raw: string): string {
  return raw.normalize("NFKC").replace(/[\s-]/g, "");
}

const isTotp = (code: string) => new RegExp(`^\\d{${DIGITS}}$`).test(code);
const isRecoveryCode = (code: string) => new RegExp(`^\\d{${RECOVERY_DIGITS}}$`).test(code);

function newRecoveryCode(): string {
  let digits = "";
  for (let i = 0; i < RECOVERY_DIGITS; i++) digits += String(randomInt(10));
  return digits.replace(/(\d{4})(?=\d)/g, "$1-");
}

// The codes are random and 53 bits long, so a fast hash is enough; the staff id keeps
// one user's code from matching another's.
function recoveryHash(staffId: number, code: string): string {
  return createHash("sha256").update(`${staffId}:${normaliseCode(code)}`).digest("hex");
}

function parseHashes(text: string): string[] {
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? list.filter((h): h is string => typeof h === "string") : [];
  } catch {
    return [];
  }
}

export type Meta = { ip?: string | null; requestId?: string | null };

/**
 * Confirms an enrolment: the code must be one `secret` gives now (null when it is not,
 * as verifySecondFactor answers a wrong code). Stores the secret and new recovery codes,
 * unless the user enrolled meanwhile (another browser: `enrolledElsewhere`). Returns the
 * recovery codes in clear, the only time they exist so.
 */
export async function confirmEnrolment(
  staffId: number,
  secret: string,
  rawCode: string,
  meta: Meta = {},
  now = machineNow(),
): Promise<{ recoveryCodes: string[] } | { enrolledElsewhere: true } | null> {
  const code = normaliseCode(rawCode);
  const steps = isTotp(code) ? matchingSteps(secret, code, now, 0) : [];
  if (steps.length === 0) return null;
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const stored = await writeTransaction(async (tx) => {
    const res = await tx
      .update(schema.staffUsers)
      .set({
        totpSecret: secret,
        totpRecovery: JSON.stringify(recoveryCodes.map((c) => recoveryHash(staffId, c))),
        totpLastStep: steps[steps.length - 1],
        updatedAt: portalNow(),
      })
      .where(and(eq(schema.staffUsers.id, staffId), isNull(schema.staffUsers.totpSecret)));
    if (res.rowsAffected === 0) return false;
    await audit({ actor: staffActor(staffId, meta), action: "totp.enrol", detail: { recoveryCodes: RECOVERY_CODE_COUNT } }, tx);
    return true;
  });
  return stored ? { recoveryCodes } : { enrolledElsewhere: true };
}

export type SecondFactorUse = { kind: "totp" } | { kind: "recovery"; left: number };

/**
 * Checks a code of an enrolled user: a TOTP code of a step after the last accepted
 * one (so each code works once, also when sent many times at once: the step moves
 * in the same conditional write that accepts it), or an unused recovery code, which
 * is used up. null when it is neither.
 */
export async function verifySecondFactor(staffId: number, rawCode: string, meta: Meta = {}, now = machineNow()): Promise<SecondFactorUse | null> {
  const code = normaliseCode(rawCode);
  if (isTotp(code)) {
    return writeTransaction(async (tx) => {
      const [row] = await tx
        .select({ secret: schema.staffUsers.totpSecret, lastStep: schema.staffUsers.totpLastStep })
        .from(schema.staffUsers)
        .where(eq(schema.staffUsers.id, staffId));
      if (!row?.secret) return null;
      const steps = matchingSteps(row.secret, code, now, row.lastStep);
      if (steps.length === 0) return null;
      const step = steps[steps.length - 1];
      const res = await tx
        .update(schema.staffUsers)
        .set({ totpLastStep: step })
        .where(and(eq(schema.staffUsers.id, staffId), lt(schema.staffUsers.totpLastStep, step)));
      if (res.rowsAffected === 0) return null;
      await audit({ actor: staffActor(staffId, meta), action: "totp.success" }, tx);
      return { kind: "totp" as const };
    });
  }
  if (!isRecoveryCode(code)) return null;
  const hash = recoveryHash(staffId, code);
  return writeTransaction(async (tx) => {
    const [row] = await tx
      .select({ secret: schema.staffUsers.totpSecret, recovery: schema.staffUsers.totpRecovery })
      .from(schema.staffUsers)
      .where(eq(schema.staffUsers.id, staffId));
    if (!row?.secret) return null;
    const hashes = parseHashes(row.recovery);
    const i = hashes.findIndex((h) => same(h, hash));
    if (i < 0) return null;
    hashes.splice(i, 1);
    await tx.update(schema.staffUsers).set({ totpRecovery: JSON.stringify(hashes) }).where(eq(schema.staffUsers.id, staffId));
    await audit({ actor: staffActor(staffId, meta), action: "totp.recovery-code", detail: { left: hashes.length } }, tx);
    return { kind: "recovery" as const, left: hashes.length };
  });
}

/**
 * `portal staff reset-2fa`: forgets the secret and the recovery codes (the user enrols
 * again at the next login), ends the user's sessions and the code step's lock.
 */
export async function resetSecondFactor(email: string, actor: Actor): Promise<{ staffId: number; sessionsEnded: number }> {
  const staff = await getStaffByEmail(email);
  if (!staff) throw refuse.notFound(`Det finns ingen personal med e-postadressen ${email.trim().toLowerCase()}.`);
  return writeTransaction(async (tx) => {
    await tx
      .update(schema.staffUsers)
      .set({ totpSecret: null, totpRecovery: "[]", totpLastStep: 0, updatedAt: portalNow() })
      .where(eq(schema.staffUsers.id, staff.id));
    // Impersonations the user started and logins waiting for a code end too.
    const sessionsEnded = await endStaffSessions(staff.id, tx);
    await clearThrottle(`totp:staff:${staff.id}`, tx);
    await audit({ actor, action: "staff.reset-2fa", target: `staff:${staff.id}`, detail: { sessionsEnded } }, tx);
    return { staffId: staff.id, sessionsEnded };
  });
}
