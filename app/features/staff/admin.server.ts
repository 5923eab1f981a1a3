// The admins' staff screen: list, add, change roles and distributor,
// deactivate and reactivate, and reset a password (a one-time password shown once). Every
// change is audited and ends the user's sessions; the network always keeps at least one
// active admin, and nobody deactivates or demotes themself.
import { eq, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { endStaffSessions } from "~/features/auth/sessions.server";
import { pageCount } from "~/lib/paging";
import { randomSecret } from "~/lib/random-secret";
import { svCollator, textMatcher } from "~/lib/search-text";
import { refuse } from "~/lib/refusal";
import { addStaff, LAST_ADMIN, NOT_YOURSELF, otherActiveAdmins, passwordProblem, setStaffPassword, staffById, type Role } from "./staff.server";
import { portalNow } from "../../../db/clock";


/** Every staff account with its distributor, in no order: searchStaff orders them (Swedish names). */
export function listStaff() {
  const s = schema.staffUsers;
  return getDb()
    .select({
      id: s.id,
      email: s.email,
      name: s.name,
      roles: s.roles,
      distributorId: s.distributorId,
      distributor: schema.distributors.name,
      deactivatedAt: s.deactivatedAt,
      hasSecondFactor: sql<number>`${s.totpSecret} is not null`,
      updatedAt: s.updatedAt,
    })
    .from(s)
    .leftJoin(schema.distributors, eq(schema.distributors.id, s.distributorId));
}

export const STAFF_PAGE_SIZE = 50;

/**
 * One page of the staff screen: the accounts whose name, e-mail or distributor hold every
 * word typed (å, ä, ö and accents folded, app/lib/search-text.ts), active ones first, then
 * by name in Swedish order. A network has hundreds of accounts at most, so the words are
 * matched here rather than in SQL, where LIKE folds only ASCII.
 */
export async function searchStaff({ q, page }: { q: string; page: number }) {
  const matches = textMatcher(q);
  const rows = (await listStaff())
    .filter((s) => matches(s.name, s.email, s.distributor))
    .sort((a, b) => Number(a.deactivatedAt !== null) - Number(b.deactivatedAt !== null) || svCollator.compare(a.name, b.name) || a.id - b.id);
  const pages = pageCount(rows.length, STAFF_PAGE_SIZE);
  const shown = Math.min(page, pages);
  return { rows: rows.slice((shown - 1) * STAFF_PAGE_SIZE, shown * STAFF_PAGE_SIZE), total: rows.length, page: shown, pages };
}

/**
 * Deactivates (no login, sessions ended) or reactivates; false when it already was so.
 * Deactivating an account that already is still ends any session it has.
 */
export async function setStaffActive(id: number, active: boolean, actor: Actor, actorStaffId: number): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const row = await staffById(tx, id);
    if ((row.deactivatedAt === null) === active) {
      // Already so; a deactivated account's sessions (should any remain) end all the same.
      if (!active) await endStaffSessions(id, tx);
      return false;
    }
    if (!active) {
      if (id === actorStaffId) throw refuse.invalid(NOT_YOURSELF);
      if (row.roles.split(",").includes("admin") && (await otherActiveAdmins(tx, id)) === 0) throw refuse.invalid(LAST_ADMIN);
    }
    await tx
      .update(schema.staffUsers)
      .set({ deactivatedAt: active ? null : portalNow(), updatedAt: portalNow() })
      .where(eq(schema.staffUsers.id, id));
    const ended = active ? 0 : await endStaffSessions(id, tx);
    await audit({ actor, action: active ? "staff.activate" : "staff.deactivate", target: `staff:${id}`, detail: { sessionsEnded: ended } }, tx);
    return true;
  });
}

/** A random one-time password the policy takes (random letters may, rarely, spell a part of the user's name). */
function policySecret(who: { email: string; name: string }): string {
  for (;;) {
    const password = randomSecret();
    if (!passwordProblem(password, who)) return password;
  }
}

/** A one-time password (16 characters, no look-alikes), set now and returned once. */
export async function resetStaffPassword(id: number, actor: Actor): Promise<string> {
  const row = await getDb().select({ email: schema.staffUsers.email, name: schema.staffUsers.name }).from(schema.staffUsers).where(eq(schema.staffUsers.id, id));
  if (!row[0]) throw refuse.notFound("Användaren finns inte.");
  const password = policySecret(row[0]);
  await setStaffPassword(row[0].email, password, actor, { oneTime: true });
  return password;
}

export type StaffForm = { email: string; name: string; roles: Role[]; distributorId: number | null };

/** Adds a staff user (addStaff's rules) with a one-time password, returned once. */
export async function createStaff(input: StaffForm, actor: Actor): Promise<{ id: number; password: string }> {
  const password = policySecret(input);
  const id = await addStaff({ ...input, password, oneTime: true }, actor);
  return { id, password };
}
