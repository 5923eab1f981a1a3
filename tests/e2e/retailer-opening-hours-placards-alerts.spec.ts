// The seed's missing alerts. OPPETTIDER ('Rapportera öppettider'): staff
// ask one distributor's retailers for their opening hours; from the lock day the retailer
// can do nothing else until the week is saved. LOP ('Antal löpsedlar'): placard amounts
// left unset for two weeks lock the same way. Runs with JavaScript on and off.
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createDistributor, createLabelBlock } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { LOP_FORCE_AFTER_DAYS } from "../../app/features/alerts/alerts.server";
import { e2eDb, expect, forgetUser, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

const day = today();

async function giveLabels(customerId: number) {
  await createLabelBlock(e2eDb(), { customerId, type: 0, status: "Levererad", fromDate: day, toDate: addDays(day, 365), fromNumber: 1, toNumber: 50 });
}

test("staff ask a distributor's retailers for their opening hours; the retailer is locked to Öppettider until the week is saved", async ({ page }, info) => {
  // A distributor of this project's own: the request reaches no other test's retailers.
  const distributor = await createDistributor(e2eDb(), info.project.name === "js-off" ? 84 : 83, `Öppettider Åre ${info.project.name}`);
  const run = `${Date.now().toString(36)}${info.retry}`;
  const retailer = await makeRetailer(info.workerIndex, { distributorId: distributor.id, name: `Şahin Livs ${run}` });
  await giveLabels(retailer.id);

  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/holidays");
  const section = page.getByRole("region", { name: "Öppettider" });
  await section.getByLabel("Distributör").selectOption({ label: distributor.name });
  // The lock day before the reminder day is refused, with what was typed kept.
  await section.getByLabel("Påminn från").fill(addDays(day, 1));
  await section.getByLabel("Lås från").fill(day);
  await section.getByRole("button", { name: "Begär öppettider" }).click();
  await expect(section.getByText("Lås från får inte vara före Påminn från.")).toBeVisible();
  await expect(section.getByLabel("Påminn från")).toHaveValue(addDays(day, 1));
  await section.getByLabel("Påminn från").fill(day);
  await section.getByRole("button", { name: "Begär öppettider" }).click();
  // A request reaches many retailers: the page says how many, and nothing is stored until asked again.
  const ask = section.getByRole("alert").filter({ hasText: "Begär öppettider?" });
  await expect(ask).toContainText(new RegExp(`${distributor.name}: \\d+ kunde?r? ombeds rapportera sina öppettider\\. De påminns från ${day}, och från ${day} är menyn låst för den som inte har svarat\\.`));
  await expect(section.getByLabel("Påminn från")).toHaveValue(day);
  await expect(section.getByLabel("Distributör")).toHaveValue(String(distributor.id));
  const requests = () => e2eDb().select().from(schema.openingHoursRequests).where(and(eq(schema.openingHoursRequests.distributorId, distributor.id), eq(schema.openingHoursRequests.closed, false)));
  const before = (await requests()).map((r) => r.id);
  await ask.getByRole("button", { name: "Spara ändå" }).click();
  await expect(page.getByText("Öppettider begärda.")).toBeVisible();
  expect((await requests()).map((r) => r.id)).not.toEqual(before);
  const row = page.getByRole("region", { name: "Öppettider" }).getByRole("row").filter({ hasText: distributor.name });
  await expect(row).toContainText(/0 av \d+/);

  // The retailer: every page leads to Öppettider, with the imperative text.
  await forgetUser(page);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/historik");
  await expect(page).toHaveURL("/oppettider");
  await expect(page.getByRole("heading", { name: "Öppettider", level: 1 })).toBeVisible();
  const dialog = page.getByRole("region", { name: "Att göra" });
  await expect(dialog).toContainText("Rapportera öppettider");
  await expect(dialog).toContainText("Detta måste göras innan ni kan påbörja er normala returrapportering.");
  await expect(page.getByText("Ni har inte rapporterat öppettider ännu.")).toBeVisible();

  // A half-filled week is refused day by day; what was typed stays.
  const dayGroup = (name: string) => page.getByRole("group", { name });
  await dayGroup("Måndag").getByLabel("Öppnar").fill("06:30");
  await dayGroup("Måndag").getByLabel("Stänger").fill("05:00");
  await dayGroup("Söndag").getByLabel("Stängt").check();
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(dayGroup("Måndag")).toContainText("Stänger måste vara efter Öppnar (00:00 betyder midnatt).");
  await expect(dayGroup("Tisdag")).toContainText("Ange när butiken öppnar och stänger, eller kryssa i Stängt.");
  await expect(dayGroup("Måndag").getByLabel("Öppnar")).toHaveValue("06:30");
  await expect(dayGroup("Måndag").getByLabel("Stänger")).toHaveAttribute("aria-invalid", "true");
  await expect(dayGroup("Söndag").getByLabel("Stängt")).toBeChecked();
  await expect(dayGroup("Söndag")).not.toContainText("Ange");
  expect(await e2eDb().select().from(schema.openingHours).where(eq(schema.openingHours.customerId, retailer.id))).toEqual([]);

  await dayGroup("Måndag").getByLabel("Stänger").fill("22:00");
  for (const name of ["Tisdag", "Onsdag", "Torsdag", "Fredag"]) {
    await dayGroup(name).getByLabel("Öppnar").fill("06:30");
    await dayGroup(name).getByLabel("Stänger").fill("22:00");
  }
  await dayGroup("Lördag").getByLabel("Öppnar").fill("08:00");
  await dayGroup("Lördag").getByLabel("Stänger").fill("00:00");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Öppettiderna sparade.")).toBeVisible();
  await expect(page.getByText(`Senast rapporterat: ${day}.`)).toBeVisible();
  await expect(page.getByText("Rapportera öppettider")).toHaveCount(0);
  const stored = await e2eDb()
    .select({ weekday: schema.openingHours.weekday, opens: schema.openingHours.opens, closes: schema.openingHours.closes })
    .from(schema.openingHours)
    .where(eq(schema.openingHours.customerId, retailer.id))
    .orderBy(schema.openingHours.weekday);
  expect(stored.map((d) => `${d.weekday} ${d.opens}–${d.closes}`)).toEqual([
    "1 06:30–22:00", "2 06:30–22:00", "3 06:30–22:00", "4 06:30–22:00", "5 06:30–22:00", "6 08:00–00:00", "7 null–null",
  ]);
  // The form shows what is stored; saving it unchanged is a confirmation.
  await expect(dayGroup("Lördag").getByLabel("Stänger")).toHaveValue("00:00");
  await expect(dayGroup("Söndag").getByLabel("Stängt")).toBeChecked();
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Öppettiderna bekräftade.")).toBeVisible();
  await page.goto("/historik");
  await expect(page).toHaveURL("/historik");

  // Staff see the answer, and end the request.
  await forgetUser(page);
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/holidays");
  await expect(row).toContainText(/[1-9]\d* av \d+/);
  await row.getByRole("link", { name: `Avsluta begäran om öppettider för ${distributor.name}` }).click();
  await page.getByRole("button", { name: "Avsluta begäran" }).click();
  await expect(page.getByText("Begäran om öppettider avslutad.")).toBeVisible();
  await expect(row).toHaveCount(0);
});

test("a save from a page left open while another tab saved the hours is refused; the typed week stays and saves on the next press", async ({ page, retailer }) => {
  await giveLabels(retailer.id);
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/oppettider");
  const tab2 = await page.context().newPage();
  await tab2.goto("/oppettider");
  for (const p of [tab2, page]) {
    for (let d = 0; d < 7; d++) {
      const group = p.getByRole("group", { name: ["Måndag", "Tisdag", "Onsdag", "Torsdag", "Fredag", "Lördag", "Söndag"][d] });
      await group.getByLabel("Öppnar").fill(p === tab2 ? "07:00" : "05:45");
      await group.getByLabel("Stänger").fill("19:00");
    }
  }
  await tab2.getByRole("button", { name: "Spara" }).click();
  await expect(tab2.getByText("Öppettiderna sparade.")).toBeVisible();
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Öppettiderna har sparats i en annan flik eller av någon annan" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Sparat nu" })).toContainText("Måndag: 07:00–19:00");
  await expect(page.getByRole("group", { name: "Måndag" }).getByLabel("Öppnar")).toHaveValue("05:45");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Öppettiderna sparade.")).toBeVisible();
  const [monday] = await e2eDb()
    .select({ opens: schema.openingHours.opens })
    .from(schema.openingHours)
    .where(and(eq(schema.openingHours.customerId, retailer.id), eq(schema.openingHours.weekday, 1)));
  expect(monday.opens).toBe("05:45");
});

test("placard amounts left unset for two weeks lock the retailer to Löpsedlar until they are saved", async ({ page, retailer }) => {
  await giveLabels(retailer.id);
  const added = Date.parse(`${addDays(day, -(LOP_FORCE_AFTER_DAYS + 1))}T08:00:00Z`);
  await e2eDb().insert(schema.placards).values({ customerId: retailer.id, titleId: 1, amount: 5, newAmount: null, createdAt: added, updatedAt: added });
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");
  await expect(page).toHaveURL("/lopsedlar");
  const dialog = page.getByRole("region", { name: "Att göra" });
  await expect(dialog).toContainText("Antal löpsedlar");
  await expect(dialog).toContainText("Detta måste göras innan ni kan påbörja er normala returrapportering.");
  const inputs = page.getByLabel(/^Önskat antal /);
  for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill("4");
  await page.getByRole("button", { name: "Spara" }).click();
  await expect(page.getByText("Sparat!")).toBeVisible();
  // Other alerts (a holiday of the demo data) may remain; this one and the lock are gone.
  await expect(dialog.filter({ hasText: "Antal löpsedlar" })).toHaveCount(0);
  await expect(page.getByText("Detta måste göras innan ni kan påbörja er normala returrapportering.")).toHaveCount(0);
  await page.goto("/rapportering/1");
  await expect(page).toHaveURL("/rapportering/1");
});
