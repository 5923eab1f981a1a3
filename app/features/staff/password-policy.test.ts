// The staff password policy (decision 035): what the attacker of round three set as new
// passwords is refused with its reason, by every way a password is set; long passphrases
// in any script pass; one-time passwords work once, within 72 hours.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createStaff } from "../../../cli/seed/factories";
import { schema } from "../../../db/client";
import { baseData, db } from "../../../tests/unit/helpers";
import { staffActor } from "~/features/audit/audit.server";
import { isRefusal } from "~/lib/refusal";
import { addStaff, changeOwnPassword, ONE_TIME_VALID_MS, PASSWORD_PROBLEMS, passwordProblem, setStaffPassword, takeOneTimePassword } from "./staff.server";

beforeAll(baseData);

const anna = { email: "anna.sahin@returportalen.example", name: "Anna Şahin" };

describe("the password policy", () => {
  it("refuses what the attacker set: spaces, one character, runs, the user's own address and name, short emoji", () => {
    expect(passwordProblem(" ".repeat(14), anna)).toBe(PASSWORD_PROBLEMS.short);
    expect(passwordProblem("aaaaaaaaaaaa", anna)).toBe(PASSWORD_PROBLEMS.repeated);
    expect(passwordProblem("123456789012", anna)).toBe(PASSWORD_PROBLEMS.run);
    expect(passwordProblem("1234567890", anna)).toBe(PASSWORD_PROBLEMS.short);
    expect(passwordProblem("0987654321098", anna)).toBe(PASSWORD_PROBLEMS.run);
    expect(passwordProblem("qwertyuiopåasd", anna)).toBe(PASSWORD_PROBLEMS.run);
    expect(passwordProblem("abcdefghijklm", anna)).toBe(PASSWORD_PROBLEMS.run);
    expect(passwordProblem("1qaz2wsx3edc4rfv", anna)).toBe(PASSWORD_PROBLEMS.run);
    expect(passwordProblem("anna.sahin@returportalen.example", anna)).toBe(PASSWORD_PROBLEMS.personal);
    expect(passwordProblem("Mitt lösenord är Şahin 2026", anna)).toBe(PASSWORD_PROBLEMS.personal);
    expect(passwordProblem("annasahin-och-katten", anna)).toBe(PASSWORD_PROBLEMS.personal);
    // Five emoji are five characters, not ten UTF-16 units.
    expect(passwordProblem("😀😁😂🤣😃", anna)).toBe(PASSWORD_PROBLEMS.short);
    // Twelve counted after trimming, in code points.
    expect(passwordProblem("  kort-lösen  ", anna)).toBe(PASSWORD_PROBLEMS.short);
  });

  it("refuses passwords from the list of common and breached ones, whatever their case", () => {
    for (const p of ["qwerty123456", "Qwerty123456", "passwordpassword", "iloveyou1234"]) expect([p, passwordProblem(p, anna)]).toEqual([p, PASSWORD_PROBLEMS.common]);
  });

  it("takes long passphrases in any script, with spaces and emoji", () => {
    for (const p of ["Korrekt-Häst-Batteri-9", "Mitt eget lösenord 2026", "Łódź ma dużo tramwajów", "😀😁😂🤣😃😄😅😆😉😊😋😎", "ett-langt-losenord"]) expect([p, passwordProblem(p, anna)]).toEqual([p, null]);
  });

  it("is the rule of portal staff add, Nytt lösenord and Byt lösenord, said on the password's field", async () => {
    const actor = { id: "cli" };
    const refused = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (isRefusal(e) ? [e.message, Object.keys(e.fields)[0]] : e));
    expect(await refused(addStaff({ email: "bo.ek@test.example", name: "Bo Ek", password: "qwertyuiopåasd", roles: ["sales"] }, actor))).toEqual([PASSWORD_PROBLEMS.run, "password"]);
    expect(await refused(addStaff({ email: "bo.ek@test.example", name: "Bo Ek", password: "bo.ek@test.example", roles: ["sales"] }, actor))).toEqual([PASSWORD_PROBLEMS.personal, "password"]);
    const id = await addStaff({ email: "bo.ek@test.example", name: "Bo Ek", password: "Korrekt-Häst-Batteri-9", roles: ["sales"] }, actor);
    expect(await refused(setStaffPassword("bo.ek@test.example", "1234567890123", actor))).toEqual([PASSWORD_PROBLEMS.run, "password"]);
    expect(await refused(changeOwnPassword(id, { current: "Korrekt-Häst-Batteri-9", next: "          " }, null, staffActor(id)))).toEqual([PASSWORD_PROBLEMS.short, "nytt"]);
    expect(await refused(changeOwnPassword(id, { current: "Korrekt-Häst-Batteri-9", next: "BoEk och hans hund" }, null, staffActor(id)))).toEqual([PASSWORD_PROBLEMS.personal, "nytt"]);
    expect(await changeOwnPassword(id, { current: "Korrekt-Häst-Batteri-9", next: "Sju sjösjuka sjömän" }, null, staffActor(id))).toEqual({ sessionsEnded: 0 });
  });
});

describe("a one-time password", () => {
  it("works for one login within 72 hours; the second is refused", async () => {
    await setStaffPassword("bo.ek@test.example", "Engång-Lösen-4711", { id: "staff:1" }, { oneTime: true });
    const [row] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, "bo.ek@test.example"));
    expect(row.passwordOneTime).toBe(true);
    // Two logins at once: one takes it.
    const both = await Promise.all([takeOneTimePassword(row), takeOneTimePassword(row)]);
    expect(both.sort()).toEqual(["taken", "used"]);
    expect(await takeOneTimePassword(row)).toBe("used");
    // A fresh one, 72 hours and a minute later.
    await setStaffPassword("bo.ek@test.example", "Engång-Lösen-4712", { id: "staff:1" }, { oneTime: true });
    const [fresh] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, "bo.ek@test.example"));
    expect(await takeOneTimePassword(fresh, fresh.passwordSetAt! + ONE_TIME_VALID_MS + 60_000)).toBe("expired");
    expect(await takeOneTimePassword(fresh, fresh.passwordSetAt! + ONE_TIME_VALID_MS - 60_000)).toBe("taken");
  });

  it("made before the change (no time it was set) counts as expired", async () => {
    const old = await createStaff(db(), { email: "old-otp@test.example", name: "Gammal", password: "x-password-1", roles: "sales" });
    await db().update(schema.staffUsers).set({ passwordOneTime: true, passwordSetAt: null }).where(eq(schema.staffUsers.id, old.id));
    const [row] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, old.id));
    expect(await takeOneTimePassword(row)).toBe("expired");
  });
});
