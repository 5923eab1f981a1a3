// The admin start page's Links panel: shortcuts belong to one staff user, and every
// function filters by that user's id.
import { and, asc, eq } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, staffActor, type Actor } from "~/features/audit/audit.server";
import { refuse } from "~/lib/refusal";
import { SHORTCUT_URL } from "./shortcut-rules";

export { SHORTCUT_URL };

export async function listShortcuts(staffId: number) {
  return getDb()
    .select({ id: schema.shortcuts.id, name: schema.shortcuts.name, url: schema.shortcuts.url })
    .from(schema.shortcuts)
    .where(eq(schema.shortcuts.staffId, staffId))
    .orderBy(asc(schema.shortcuts.name), asc(schema.shortcuts.id));
}

/** Adds a shortcut for `staffId`; `actor` is who did it (the user, from the request's guard). */
export async function addShortcut(staffId: number, input: { name: string; url: string }, actor: Actor = staffActor(staffId)): Promise<number> {
  if (!input.name.trim()) throw refuse.invalid("Required.", { field: "name" });
  if (!SHORTCUT_URL.test(input.url)) throw refuse.invalid("Invalid Url Format!!", { field: "url" });
  return writeTransaction(async (tx) => {
    const [row] = await tx
      .insert(schema.shortcuts)
      .values({ staffId, name: input.name.trim(), url: input.url.trim() })
      .returning({ id: schema.shortcuts.id });
    await audit({ actor, action: "shortcut.add", target: `shortcut:${row.id}`, detail: { name: input.name } }, tx);
    return row.id;
  });
}

/** Deletes one of the user's own shortcuts; false when it is not theirs (or gone). */
export async function deleteShortcut(staffId: number, id: number, actor: Actor = staffActor(staffId)): Promise<boolean> {
  return writeTransaction(async (tx) => {
    const gone = await tx
      .delete(schema.shortcuts)
      .where(and(eq(schema.shortcuts.id, id), eq(schema.shortcuts.staffId, staffId)))
      .returning({ name: schema.shortcuts.name, url: schema.shortcuts.url });
    if (gone.length === 0) return false;
    // What was deleted stays readable in Logg.
    await audit({ actor, action: "shortcut.delete", target: `shortcut:${id}`, detail: gone[0] }, tx);
    return true;
  });
}
