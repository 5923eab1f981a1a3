import { eq } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { hashSecret, verifySecret } from "~/features/auth/passwords.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { endStaffSessions } from "~/features/auth/sessions.server";
import { clearThrottle } from "~/features/auth/throttle.server";
import { refuse } from "~/lib/refusal";

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_TOO_SHORT = `Lösenordet ska vara minst ${PASSWORD_MIN_LENGTH} tecken.`;

export const ROLES = ["admin", "sales", "utb"] as const;
export type Role = (typeof ROLES)[number];

export function parseRoles(text: string): Role[] {
  const roles = text
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of roles) if (!(ROLES as readonly string[]).includes(r)) throw new Error(`Okänd roll: ${r}`);
  if (roles.length === 0) throw new Error("Minst en roll krävs.");
  return [...new Set(roles)] as Role[];
}

export async function getStaffByEmail(email: string) {
  const [row] = await getDb()
    .select()
    .from(schema.staffUsers)
    .where(eq(schema.staffUsers.email, email.trim().toLowerCase()));
  return row ?? null;
}

export async function getStaff(id: number) {
  const [row] = await getDb().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
  return row ?? null;
}

export type NewStaff = {
  email: string;
  name: string;
  password: string;
  roles: Role[];
  distributorId?: number | null;
  /** An admin's one-time password: the first login must set a new one. */
  oneTime?: boolean;
};

export async function addStaff(input: NewStaff, actor: Actor): Promise<number> {
  if (input.password.length < PASSWORD_MIN_LENGTH) throw new Error(PASSWORD_TOO_SHORT);
  if (input.roles.includes("utb") && !input.distributorId) throw new Error("En utb-användare måste höra till en distributör.");
  const passwordHash = await hashSecret(input.password);
  return writeTransaction(async (tx) => {
    const email = input.email.trim().toLowerCase();
    const [taken] = await tx.select({ id: schema.staffUsers.id }).from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
    if (taken) throw new Error(`Det finns redan en användare med e-postadressen ${email}.`);
    const [row] = await tx
      .insert(schema.staffUsers)
      .values({
        email: input.email.trim().toLowerCase(),
        name: input.name,
        passwordHash,
        roles: input.roles.join(","),
        distributorId: input.distributorId ?? null,
        passwordOneTime: input.oneTime ?? false,
      })
      .returning({ id: schema.staffUsers.id });
    await audit({ actor, action: "staff.add", target: `staff:${row.id}`, detail: { roles: input.roles } }, tx);
    return row.id;
  });
}

/** Looks a staff user up by e-mail for a change; throws the Swedish refusal when unknown. */
async function staffForChange(tx: Tx, email: string) {
  const [row] = await tx.select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email.trim().toLowerCase()));
  if (!row) throw new Error(`Det finns ingen användare med e-postadressen ${email.trim().toLowerCase()}.`);
  return row;
}

/**
 * A new password ends trust in the old one: every session of the user, the retailer
 * portals they have opened, and the login lock end with it. `oneTime`: an admin's
 * password for someone else, which the first login replaces.
 */
export async function setStaffPassword(email: string, password: string, actor: Actor, options: { oneTime?: boolean } = {}): Promise<number> {
  if (password.length < PASSWORD_MIN_LENGTH) throw new Error(PASSWORD_TOO_SHORT);
  const passwordHash = await hashSecret(password);
  return writeTransaction(async (tx) => {
    const row = await staffForChange(tx, email);
    await tx
      .update(schema.staffUsers)
      .set({ passwordHash, passwordOneTime: options.oneTime ?? false, updatedAt: Date.now() })
      .where(eq(schema.staffUsers.id, row.id));
    const ended = await endStaffSessions(row.id, tx);
    await clearThrottle(`staff:${row.email}`, tx);
    await audit({ actor, action: "staff.set-password", target: `staff:${row.id}`, detail: { sessionsEnded: ended } }, tx);
    return ended;
  });
}

/** New roles take effect at once: the user's sessions (and impersonations) end. */
export async function setStaffRoles(email: string, roles: Role[], distributorId: number | null, actor: Actor): Promise<number> {
  if (roles.includes("utb") && !distributorId) throw new Error("En utb-användare måste höra till en distributör.");
  return writeTransaction(async (tx) => {
    const row = await staffForChange(tx, email);
    await tx
      .update(schema.staffUsers)
      .set({ roles: roles.join(","), distributorId: distributorId ?? null, updatedAt: Date.now() })
      .where(eq(schema.staffUsers.id, row.id));
    const ended = await endStaffSessions(row.id, tx);
    await audit({ actor, action: "staff.set-roles", target: `staff:${row.id}`, detail: { roles, sessionsEnded: ended } }, tx);
    return ended;
  });
}

/**
 * A staff user's own new password (Byt lösenord; at the first login after a one-time
 * password, before anything else): the current one must be given, the new one follows
 * the policy and differs from it. Every other session of the user ends; this one goes on.
 */
export async function changeOwnPassword(
  staffId: number,
  input: { current: string; next: string },
  keepSessionId: string | null,
  actor: Actor,
): Promise<{ sessionsEnded: number }> {
  if (input.next.length < PASSWORD_MIN_LENGTH) throw refuse.invalid(PASSWORD_TOO_SHORT, { field: "nytt" });
  if (input.next === input.current) throw refuse.invalid("Välj ett annat lösenord än det nuvarande.", { field: "nytt" });
  const row = await getStaff(staffId);
  if (!row) throw refuse.notFound("Användaren finns inte.");
  if (!(await verifySecret(input.current, row.passwordHash))) throw refuse.invalid("Fel nuvarande lösenord.", { field: "nuvarande" });
  const passwordHash = await hashSecret(input.next);
  return writeTransaction(async (tx) => {
    // Changed meanwhile (another tab, an admin): the old password given is no longer it.
    const [still] = await tx.select({ hash: schema.staffUsers.passwordHash }).from(schema.staffUsers).where(eq(schema.staffUsers.id, staffId));
    if (!still || still.hash !== row.passwordHash) throw refuse.conflict("Lösenordet har just ändrats på annat håll. Logga in igen.");
    await tx.update(schema.staffUsers).set({ passwordHash, passwordOneTime: false, updatedAt: Date.now() }).where(eq(schema.staffUsers.id, staffId));
    const sessionsEnded = await endStaffSessions(staffId, tx, { except: keepSessionId });
    await clearThrottle(`staff:${row.email}`, tx);
    await audit({ actor, action: "staff.change-own-password", target: `staff:${staffId}`, detail: { sessionsEnded, wasOneTime: row.passwordOneTime } }, tx);
    return { sessionsEnded };
  });
}
