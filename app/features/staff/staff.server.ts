import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Db, type Tx } from "~/db.server";
import { hashSecret, verifySecret } from "~/features/auth/passwords.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { endStaffSessions } from "~/features/auth/sessions.server";
import { clearThrottle } from "~/features/auth/throttle.server";
import { LOCKED_STAFF, weighAttempt } from "~/features/auth/attempts.server";
import { refuse } from "~/lib/refusal";
import { passwordProblem } from "./password-policy.server";
import { ROLES, type Role } from "~/catalog";
import { portalNow } from "../../../db/clock";

export { PASSWORD_MIN_LENGTH, PASSWORD_PROBLEMS, passwordProblem } from "./password-policy.server";

/** Refuses (invalid, on `field`) a password the policy refuses for this user. */
function checkPassword(password: string, who: { email: string; name?: string | null }, field: string): void {
  const problem = passwordProblem(password, who);
  if (problem) throw refuse.invalid(problem, { field });
}

export { ROLES, type Role };

export function parseRoles(text: string): Role[] {
  const roles = text
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of roles) if (!(ROLES as readonly string[]).includes(r)) throw refuse.invalid(`Okänd roll: ${r}`, { field: "roles" });
  if (roles.length === 0) throw refuse.invalid("Minst en roll krävs.", { field: "roles" });
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

export const UTB_NEEDS_DISTRIBUTOR = "En utb-användare måste höra till en distributör.";

/**
 * The roles and distributor a staff account may have, checked in the transaction that
 * stores them: at least one role; a utb user belongs to a distributor that exists; any
 * other user to none (the distributor is dropped). Returns the distributor to store.
 */
/** The roles' own rule, before the database: at least one, and a distributor for utb. */
export function checkRoleChoice(roles: Role[], distributorId: number | null | undefined): void {
  if (roles.length === 0) throw refuse.invalid("Välj minst en roll.", { field: "roles" });
  if (roles.includes("utb") && !distributorId) throw refuse.invalid(UTB_NEEDS_DISTRIBUTOR, { field: "distributorId" });
}

async function checkedRoles(tx: Tx, roles: Role[], distributorId: number | null | undefined): Promise<number | null> {
  checkRoleChoice(roles, distributorId);
  if (!roles.includes("utb") || !distributorId) return null;
  const [d] = await tx.select({ id: schema.distributors.id }).from(schema.distributors).where(eq(schema.distributors.id, distributorId));
  if (!d) throw refuse.invalid(`Distributör ${distributorId} finns inte.`, { field: "distributorId" });
  return distributorId;
}

/**
 * Adds a staff user: the one rule for the staff screen (a one-time password, createStaff)
 * and `portal staff add` (a typed password). A taken address, a short password and roles
 * a user may not have are refused on their fields.
 */
export async function addStaff(input: NewStaff, actor: Actor): Promise<number> {
  checkPassword(input.password, input, "password");
  const passwordHash = await hashSecret(input.password);
  return writeTransaction(async (tx) => {
    const distributorId = await checkedRoles(tx, input.roles, input.distributorId);
    const email = input.email.trim().toLowerCase();
    const [taken] = await tx.select({ id: schema.staffUsers.id }).from(schema.staffUsers).where(eq(schema.staffUsers.email, email));
    if (taken) throw refuse.invalid(`Det finns redan en användare med e-postadressen ${email}.`, { field: "email" });
    const [row] = await tx
      .insert(schema.staffUsers)
      .values({ email, name: input.name, passwordHash, roles: input.roles.join(","), distributorId, passwordOneTime: input.oneTime ?? false, passwordSetAt: portalNow() })
      .returning({ id: schema.staffUsers.id });
    await audit({ actor, action: "staff.add", target: `staff:${row.id}`, detail: { roles: input.roles } }, tx);
    return row.id;
  });
}

export const LAST_ADMIN = "Det måste finnas minst en aktiv administratör.";
export const NOT_YOURSELF = "Du kan inte stänga av eller ta bort administratörsrollen från dig själv.";

/** Active admins other than `id`: the network always keeps at least one. */
export async function otherActiveAdmins(tx: Tx, id: number): Promise<number> {
  const s = schema.staffUsers;
  const [row] = await tx
    .select({ n: sql<number>`count(*)` })
    .from(s)
    .where(and(ne(s.id, id), isNull(s.deactivatedAt), sql`(',' || ${s.roles} || ',') like '%,admin,%'`));
  return Number(row.n);
}

/**
 * New roles and distributor, the one rule for the staff screen (the user by id, the admin
 * who changes them as `byStaffId`) and `portal staff set-roles` (by e-mail, an operator:
 * `byStaffId` null). The last active admin keeps the role; nobody demotes themself. The
 * change holds at once: the user's sessions (and impersonations) end. Returns how many.
 */
export async function changeStaffRoles(who: { id: number } | { email: string }, roles: Role[], distributorId: number | null, actor: Actor, byStaffId: number | null): Promise<number> {
  return writeTransaction(async (tx) => {
    const row = "id" in who ? await staffById(tx, who.id) : await staffForChange(tx, who.email);
    const stored = await checkedRoles(tx, roles, distributorId);
    if (row.roles.split(",").includes("admin") && !roles.includes("admin")) {
      if (row.id === byStaffId) throw refuse.invalid(NOT_YOURSELF, { field: "roles" });
      if (row.deactivatedAt === null && (await otherActiveAdmins(tx, row.id)) === 0) throw refuse.invalid(LAST_ADMIN, { field: "roles" });
    }
    await tx.update(schema.staffUsers).set({ roles: roles.join(","), distributorId: stored, updatedAt: portalNow() }).where(eq(schema.staffUsers.id, row.id));
    const ended = await endStaffSessions(row.id, tx);
    await audit({ actor, action: "staff.set-roles", target: `staff:${row.id}`, detail: { roles, distributorId: stored, sessionsEnded: ended } }, tx);
    return ended;
  });
}

export async function staffById(tx: Tx, id: number) {
  const [row] = await tx.select().from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
  if (!row) throw refuse.notFound("Användaren finns inte.");
  return row;
}

/** Looks a staff user up by e-mail for a change; refused when unknown. */
async function staffForChange(tx: Tx, email: string) {
  const [row] = await tx.select().from(schema.staffUsers).where(eq(schema.staffUsers.email, email.trim().toLowerCase()));
  if (!row) throw refuse.notFound(`Det finns ingen användare med e-postadressen ${email.trim().toLowerCase()}.`);
  return row;
}

/**
 * A new password ends trust in the old one: every session of the user, the retailer
 * portals they have opened, and the login lock end with it. `oneTime`: an admin's
 * password for someone else, which the first login replaces.
 */
export async function setStaffPassword(email: string, password: string, actor: Actor, options: { oneTime?: boolean } = {}): Promise<number> {
  const user = await getStaffByEmail(email);
  checkPassword(password, { email: user?.email ?? email, name: user?.name }, "password");
  const passwordHash = await hashSecret(password);
  return writeTransaction(async (tx) => {
    const row = await staffForChange(tx, email);
    const now = portalNow();
    await tx
      .update(schema.staffUsers)
      .set({ passwordHash, passwordOneTime: options.oneTime ?? false, passwordSetAt: now, passwordOneTimeUsedAt: null, updatedAt: now })
      .where(eq(schema.staffUsers.id, row.id));
    const ended = await endStaffSessions(row.id, tx);
    await clearThrottle(`staff:${row.email}`, tx);
    await audit({ actor, action: "staff.set-password", target: `staff:${row.id}`, detail: { sessionsEnded: ended } }, tx);
    return ended;
  });
}

/** How long an admin's one-time password works (decision 035). */
export const ONE_TIME_VALID_MS = 72 * 60 * 60_000;

/**
 * Takes an admin's one-time password for the login that gave it right: "used" when a
 * login already took it (two browsers at once: one wins), "expired" after 72 hours.
 * The login that takes it may do one thing, set the user's own password.
 */
export async function takeOneTimePassword(row: { id: number; passwordHash: string; passwordSetAt: number | null }, now = portalNow()): Promise<"taken" | "used" | "expired"> {
  if (row.passwordSetAt === null || now - row.passwordSetAt > ONE_TIME_VALID_MS) return "expired";
  const s = schema.staffUsers;
  const taken = await writeTransaction((tx) =>
    tx
      .update(s)
      .set({ passwordOneTimeUsedAt: now })
      .where(and(eq(s.id, row.id), eq(s.passwordHash, row.passwordHash), eq(s.passwordOneTime, true), isNull(s.passwordOneTimeUsedAt)))
      .returning({ id: s.id }),
  );
  return taken.length === 1 ? "taken" : "used";
}

export const WRONG_CURRENT = "Fel nuvarande lösenord.";

/**
 * The current password given on Byt lösenord, weighed like a login (decision 035): against
 * the account's budget and the address's, in a hashing slot; a miss is in Logg. Refused
 * (limit, 429 with Retry-After) when the budget is spent, (busy, 503) when every slot is taken.
 */
async function checkCurrent(row: { id: number; email: string; passwordHash: string }, current: string, actor: Actor): Promise<boolean> {
  const keys = { account: `staff:${row.email}`, ip: actor.ip ?? null, device: null };
  const { value } = await weighAttempt(keys, { locked: LOCKED_STAFF }, async () => ((await verifySecret(current, row.passwordHash)) ? true : null), actor);
  if (value === null) await audit({ actor, action: "staff.change-own-password.failure", target: `staff:${row.id}` });
  return value === true;
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
  const row = await getStaff(staffId);
  if (!row) throw refuse.notFound("Användaren finns inte.");
  checkPassword(input.next, row, "nytt");
  if (input.next === input.current) throw refuse.invalid("Välj ett annat lösenord än det nuvarande.", { field: "nytt" });
  if (!(await checkCurrent(row, input.current, actor))) throw refuse.invalid(WRONG_CURRENT, { field: "nuvarande" });
  const passwordHash = await hashSecret(input.next);
  return writeTransaction(async (tx) => {
    // Changed meanwhile (another tab, an admin): the old password given is no longer it.
    const [still] = await tx.select({ hash: schema.staffUsers.passwordHash }).from(schema.staffUsers).where(eq(schema.staffUsers.id, staffId));
    if (!still || still.hash !== row.passwordHash) throw refuse.conflict("Lösenordet har just ändrats på annat håll. Logga in igen.");
    const now = portalNow();
    await tx.update(schema.staffUsers).set({ passwordHash, passwordOneTime: false, passwordSetAt: now, passwordOneTimeUsedAt: null, updatedAt: now }).where(eq(schema.staffUsers.id, staffId));
    const sessionsEnded = await endStaffSessions(staffId, tx, { except: keepSessionId });
    await clearThrottle(`staff:${row.email}`, tx);
    await audit({ actor, action: "staff.change-own-password", target: `staff:${staffId}`, detail: { sessionsEnded, wasOneTime: row.passwordOneTime } }, tx);
    return { sessionsEnded };
  });
}

/** The active accounts among `logins` whose password is still the one given there. */
export async function activeStaffWithPasswords(logins: readonly { email: string; password: string }[], db: Db = getDb()): Promise<string[]> {
  const s = schema.staffUsers;
  const rows = logins.length
    ? await db
        .select({ email: s.email, passwordHash: s.passwordHash })
        .from(s)
        .where(and(isNull(s.deactivatedAt), inArray(s.email, logins.map((l) => l.email))))
    : [];
  const still: string[] = [];
  for (const row of rows) if (await verifySecret(logins.find((l) => l.email === row.email)!.password, row.passwordHash)) still.push(row.email);
  return still;
}
