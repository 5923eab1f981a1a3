import { eq } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { hashSecret } from "~/features/auth/passwords.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { endStaffSessions } from "~/features/auth/sessions.server";
import { clearThrottle } from "~/features/auth/throttle.server";

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

export type NewStaff = { email: string; name: string; password: string; roles: Role[]; distributorId?: number | null };

export async function addStaff(input: NewStaff, actor: Actor): Promise<number> {
  if (input.password.length < 10) throw new Error("Lösenordet ska vara minst 10 tecken.");
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
 * portals they have opened, and the login lock end with it.
 */
export async function setStaffPassword(email: string, password: string, actor: Actor): Promise<number> {
  if (password.length < 10) throw new Error("Lösenordet ska vara minst 10 tecken.");
  const passwordHash = await hashSecret(password);
  return writeTransaction(async (tx) => {
    const row = await staffForChange(tx, email);
    await tx.update(schema.staffUsers).set({ passwordHash, updatedAt: Date.now() }).where(eq(schema.staffUsers.id, row.id));
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
