// The foundation's commands, run as the real CLI: migrate, seed, customers, staff.
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { verifySecret } from "../../app/features/auth/passwords.server";
import { portal } from "./cli-run";
import { db } from "./helpers";

describe("portal db migrate and seed --demo", () => {
  beforeAll(async () => {
    expect((await portal(["db", "migrate"])).code).toBe(0);
  });

  it("migrates again harmlessly", async () => {
    const r = await portal(["db", "migrate"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Databasen är migrerad.");
  });

  it("fills an empty database once, prints the demo logins, and refuses a second time", async () => {
    const first = await portal(["seed", "--demo"]);
    expect(first.code, first.stderr).toBe(0);
    // New logins for every seeded database, printed once; never the ones once published.
    const printed = /kundnummer 1001–1040, pinkod (\d{6})\n\s+Admin:\s+admin@returportalen\.example \/ (\S{16}) /.exec(first.stdout);
    expect(printed, first.stdout).not.toBeNull();
    expect(first.stdout).not.toMatch(/demo-admin-2026|pinkod 1234\b/);
    const [shop] = await db().select({ pinHash: schema.customers.pinHash }).from(schema.customers).where(eq(schema.customers.id, 1001));
    expect(await verifySecret(printed![1], shop.pinHash)).toBe(true);
    const [admin] = await db().select({ passwordHash: schema.staffUsers.passwordHash }).from(schema.staffUsers).where(eq(schema.staffUsers.email, "admin@returportalen.example"));
    expect(await verifySecret(printed![2], admin.passwordHash)).toBe(true);
    expect(await verifySecret("demo-admin-2026", admin.passwordHash)).toBe(false);
    const customers = await db().select({ id: schema.customers.id }).from(schema.customers);
    expect(customers.length).toBe(40);
    const again = await portal(["seed", "--demo"]);
    expect(again.code).toBe(1);
    expect((await db().select({ id: schema.customers.id }).from(schema.customers)).length).toBe(40);
    expect((await portal(["seed", "--demo", "--if-empty"])).code).toBe(0);
    expect((await portal(["seed"])).code).toBe(2);
  });

  it("adds a customer with a PIN from stdin, never echoing it, and changes the PIN", async () => {
    const add = await portal(["customer", "add", "--id", "31337", "--name", "Kiosken Test", "--distributor", "1", "--city", "Umeå", "--pin-stdin"], { input: "482913\n" });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout + add.stderr).not.toContain("482913");
    const [row] = await db().select().from(schema.customers).where(eq(schema.customers.id, 31337));
    expect(row.city).toBe("Umeå");
    expect(await verifySecret("482913", row.pinHash)).toBe(true);

    // A new PIN has 6 digits: the 4-digit PINs of old go at their next change.
    const four = await portal(["customer", "set-pin", "31337", "--pin-stdin"], { input: "7070\n" });
    expect(four.code).toBe(1);
    expect(four.stderr).toBe("portal: Pinkoden ska vara 6 siffror.\n");
    const set = await portal(["customer", "set-pin", "31337", "--pin-stdin"], { input: "707070\n" });
    expect(set.code, set.stderr).toBe(0);
    const [after] = await db().select().from(schema.customers).where(eq(schema.customers.id, 31337));
    expect(await verifySecret("707070", after.pinHash)).toBe(true);
    expect(await verifySecret("482913", after.pinHash)).toBe(false);
  });

  it("refuses bad customer input without writing anything", async () => {
    // Ny kund's own schema and words, each after its option; invalid input exits 1.
    for (const [args, line] of [
      [["--id", "abc"], "portal: --id: Kundnummer är 1–5 siffror.\n"],
      [["--id", "123456"], "portal: --id: Kundnummer är 1–5 siffror.\n"],
      [["--id", "31338", "--zip", "1112"], "portal: --zip: Postnumret är fem siffror, till exempel 111 20.\n"],
      [["--id", "31338", "--email", "kiosk@example"], "portal: --email: Ange en e-postadress (namn@exempel.se).\n"],
      [["--id", "31338", "--email", "a@b.se;c@d.se"], "portal: --email: Ange en e-postadress (namn@exempel.se).\n"],
      [["--id", "31338", "--name", "K".repeat(10_000)], "portal: --name: Högst 200 tecken.\n"],
      [["--id", "31338", "--distributor", "ett"], "portal: --distributor: Välj distributör.\n"],
    ] as const) {
      const r = await portal(["customer", "add", "--name", "X", "--distributor", "1", ...args, "--pin-stdin"], { input: "123456\n" });
      expect(r.stderr).toBe(line);
      expect(r.code).toBe(1);
    }
    // The postcode is stored as the screen stores it, however it was typed.
    const zip = await portal(["customer", "add", "--id", "31336", "--name", "Şahin Livs", "--distributor", "1", "--zip", "S-11120", "--pin-stdin"], { input: "482913\n" });
    expect(zip.code, zip.stderr).toBe(0);
    expect((await db().select().from(schema.customers).where(eq(schema.customers.id, 31336)))[0]).toMatchObject({ name: "Şahin Livs", zip: "111 20" });
    expect((await portal(["customer", "add", "--id", "31338", "--name", "X"])).code).toBe(2);
    const shortPin = await portal(["customer", "add", "--id", "31338", "--name", "X", "--distributor", "1", "--pin-stdin"], { input: "12\n" });
    expect(shortPin.code).toBe(1);
    expect(shortPin.stderr).toContain("Pinkoden ska vara 6 siffror.");
    const noDistributor = await portal(["customer", "add", "--id", "31339", "--name", "X", "--distributor", "999", "--pin-stdin"], { input: "123456\n" });
    expect(noDistributor.code).toBe(1);
    expect(noDistributor.stderr).toContain("Distributör 999 finns inte.");
    expect(noDistributor.stderr).not.toContain("scrypt");
    const taken = await portal(["customer", "add", "--id", "31337", "--name", "X", "--distributor", "1", "--pin-stdin"], { input: "123456\n" });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("Kund 31337 finns redan.");
    const rows = await db().select().from(schema.customers).where(eq(schema.customers.name, "X"));
    expect(rows).toHaveLength(0);
    expect((await portal(["customer", "set-pin", "99998", "--pin-stdin"], { input: "123456\n" })).code).toBe(1);
  });

  it("adds staff with roles and a password from stdin; a utb user needs a distributor", async () => {
    const ok = await portal(["staff", "add", "--email", "Nils@Example.se", "--roles", "admin,sales", "--name", "Nils", "--password-stdin"], { input: "ett-langt-losenord\n" });
    expect(ok.code, ok.stderr).toBe(0);
    const [row] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, "nils@example.se"));
    expect(row.roles).toBe("admin,sales");
    expect(await verifySecret("ett-langt-losenord", row.passwordHash)).toBe(true);

    // The staff screen's schema and role rule, before the password is asked for.
    for (const [args, line] of [
      [["--email", "a@b.se", "--roles", "boss"], "portal: --roles: Okänd roll: boss.\n"],
      [["--email", "a@b.se", "--roles", "utb"], "portal: En utb-användare måste höra till en distributör.\n"],
      [["--email", "not-an-email", "--roles", "sales"], "portal: --email: Ange en e-postadress (namn@exempel.se).\n"],
      [["--email", "a@b.se;c@d.se", "--roles", "sales"], "portal: --email: Ange en e-postadress (namn@exempel.se).\n"],
      [["--email", `${"a".repeat(196)}@b.se`, "--roles", "sales"], "portal: --email: Högst 200 tecken.\n"],
      [["--email", "a@b.se", "--roles", "sales", "--name", "N".repeat(10_000)], "portal: --name: Högst 200 tecken.\n"],
    ] as const) {
      const r = await portal(["staff", "add", ...args, "--password-stdin"], { input: "ett-langt-losenord\n" });
      expect(r.stderr).toBe(line);
      expect(r.code).toBe(1);
    }
    const short = await portal(["staff", "add", "--email", "a@b.se", "--roles", "sales", "--password-stdin"], { input: "kort\n" });
    expect(short.code).toBe(1);
    const twice = await portal(["staff", "add", "--email", "nils@example.se", "--roles", "sales", "--password-stdin"], { input: "ett-langt-losenord\n" });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("finns redan");
    const utb = await portal(["staff", "add", "--email", "utb@b.se", "--roles", "utb", "--distributor", "2", "--password-stdin"], { input: "ett-langt-losenord\n" });
    expect(utb.code, utb.stderr).toBe(0);
    const staff = await db().select().from(schema.staffUsers);
    expect(staff.map((s) => s.email).sort()).toEqual(["admin@returportalen.example", "nils@example.se", "salj@returportalen.example", "utb.norr@returportalen.example", "utb@b.se"]);
  });

  it("changes roles by the staff screen's rules: a distributor only for utb, an existing one, and the last active admin stays admin", async () => {
    const sales = await portal(["staff", "add", "--email", "kari@example.se", "--roles", "sales", "--distributor", "2", "--name", "Kari Şahin", "--password-stdin"], { input: "ett-langt-losenord\n" });
    expect(sales.code, sales.stderr).toBe(0);
    const kari = async () => (await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.email, "kari@example.se")))[0];
    // A distributor given to a user who is not utb is not stored, as on the screen.
    expect((await kari()).distributorId).toBeNull();
    const unknown = await portal(["staff", "set-roles", "kari@example.se", "--roles", "utb", "--distributor", "77"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Distributör 77 finns inte.");
    expect((await kari()).roles).toBe("sales");
    // Every admin but one is demoted; the last active one is refused, with the screen's words.
    const admins = (await db().select().from(schema.staffUsers)).filter((s) => s.roles.split(",").includes("admin") && s.deactivatedAt === null);
    expect(admins.length).toBeGreaterThan(1);
    for (const a of admins.slice(1)) expect((await portal(["staff", "set-roles", a.email, "--roles", "sales"])).code).toBe(0);
    const last = await portal(["staff", "set-roles", admins[0]!.email, "--roles", "sales"]);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("Det måste finnas minst en aktiv administratör.");
    const [still] = await db().select().from(schema.staffUsers).where(eq(schema.staffUsers.id, admins[0]!.id));
    expect(still.roles.split(",")).toContain("admin");
  });
});
