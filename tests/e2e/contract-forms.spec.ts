// The form contract in the browser: with JavaScript the same zod schema the
// action parses with checks the form as it is filled, in Swedish, and Save stays
// disabled while the form is invalid. Without JavaScript Save is always enabled and
// the server answers with the same messages.
import { expect, loginAs, makeStaff, test } from "./fixtures";
import { today } from "../../app/lib/dates";

test("the extra invoice line form: Save is disabled while invalid, Swedish messages beside the fields", async ({ page, retailer, javaScriptEnabled }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto("/admin/invoice?ny=1");
  const save = page.getByRole("button", { name: "Lägg till" });
  if (!javaScriptEnabled) {
    // Without JavaScript nothing disables it: the server refuses the empty form, in Swedish.
    await expect(save).toBeEnabled();
    await save.click();
    await expect(page.getByText("Obligatorisk.").first()).toBeVisible();
    return;
  }
  await expect(save).toBeDisabled();
  await page.getByLabel("Tidning").selectOption("Expressen");
  await page.getByLabel("Kundnummer").fill(String(retailer.id));
  await page.getByLabel("Produktgrupp").selectOption("Exponeringsutrustning");
  await page.getByLabel("Artikelnamn").fill("Ställ");
  await page.getByLabel("Leveransdatum").fill(today());
  await page.getByLabel("Nettopris (kr)").fill("100,00");
  await page.getByLabel("Levererat antal").fill("två");
  await page.getByLabel("Levererat antal").blur();
  await expect(page.getByText("Ange ett heltal.")).toBeVisible();
  await expect(page.getByLabel("Levererat antal")).toHaveAttribute("aria-invalid", "true");
  await expect(save).toBeDisabled();
  await page.getByLabel("Levererat antal").fill("2");
  await expect(page.getByText("Ange ett heltal.")).toHaveCount(0);
  await expect(save).toBeEnabled();
  await page.getByLabel("Nettopris (kr)").fill("hundra");
  await page.getByLabel("Nettopris (kr)").blur();
  await expect(page.getByText("Ange ett belopp i kronor, t.ex. 12,50.")).toBeVisible();
  await expect(save).toBeDisabled();
});

test("Ändra Buntnummer: with JavaScript Spara waits for a number", async ({ page, retailer, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "disabling needs JavaScript");
  const { e2eDb } = await import("./fixtures");
  const { createBundle } = await import("../../cli/seed/factories");
  await createBundle(e2eDb(), { customerId: retailer.id, number: 777, type: 0 });
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  await page.goto(`/admin/bundles?flik=andra&kund=${retailer.id}`);
  const save = page.getByRole("button", { name: "Spara nytt nummer för bunt 777" });
  await expect(save).toBeDisabled();
  await page.getByLabel("Nytt buntnummer för bunt 777").fill("12a");
  await expect(save).toBeDisabled();
  await page.getByLabel("Nytt buntnummer för bunt 777").fill("12");
  await expect(save).toBeEnabled();
});
