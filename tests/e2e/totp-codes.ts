// Second-factor codes for test logins, as an authenticator app computes them, without
// waiting for the clock. The server accepts a code of a step after the user's last
// accepted one, within a step of now; a test that logs the same user in a third time
// within 30 s would have had to wait for the next step. Instead the last accepted step is
// set back, as if the earlier logins were a minute older. Replays and the window are
// tested against the rule itself (app/features/auth/staff-second-factor.test.ts, the
// staff-2fa specs).
import { and, eq } from "drizzle-orm";
import { codeAt, timeStep } from "../../app/features/auth/totp.server";
import { schema, type Db } from "../../db/client";

/** The TOTP code of `secret` for a time step (now's by default), computed as the server does. */
export function totpCode(secret: string, step = timeStep(Date.now())): string {
  return codeAt(secret, step);
}

// The database behind each server a test logs in to, by origin.
const databases = new Map<string, () => Db>();

/** Tells the logins which database the server at `origin` uses. */
export function serverDatabase(origin: string, db: () => Db) {
  databases.set(new URL(origin).origin, db);
}

/** The database of the server at `url`'s origin, if a test told. */
export function databaseOf(url: string): Db | undefined {
  return databases.get(new URL(url).origin)?.();
}

/**
 * A code the server has not accepted yet for this staff user: now's step, or the next
 * one's when now's was used; when both were, the last accepted step is set back first.
 */
export async function unusedCode(db: Db, email: string): Promise<string> {
  const key = email.trim().toLowerCase();
  const [row] = await db
    .select({ secret: schema.staffUsers.totpSecret, lastStep: schema.staffUsers.totpLastStep })
    .from(schema.staffUsers)
    .where(eq(schema.staffUsers.email, key));
  if (!row?.secret) throw new Error(`${email} is not enrolled`);
  const now = timeStep(Date.now());
  if (row.lastStep < now + 1) return totpCode(row.secret, Math.max(now, row.lastStep + 1));
  const set = await db
    .update(schema.staffUsers)
    .set({ totpLastStep: now - 1 })
    .where(and(eq(schema.staffUsers.email, key), eq(schema.staffUsers.totpLastStep, row.lastStep)));
  if (set.rowsAffected !== 1) throw new Error(`another login of ${email} moved its step meanwhile`);
  return totpCode(row.secret, now);
}
