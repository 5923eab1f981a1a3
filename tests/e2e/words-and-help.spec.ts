// The portal's words and the help a newsagent needs first: the login page says what to
// do about a lost PIN (customer service's number and hours) without logging in; the menu
// spells Följesedel; Buntsök asks for a Buntnummer; Historik's dates are a Datumintervall;
// Påminnelser's checkbox sits beside its label. JS off and on, 1280 and 360 px.
import { expect, loginAs, test } from "./fixtures";

for (const width of [1280, 360]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("the login page answers 'Glömt pinkod?' with customer service's phone, hours and e-mail", async ({ page }) => {
      await page.goto("/login");
      const help = page.locator("section").filter({ has: page.getByRole("heading", { name: "Glömt pinkod?" }) });
      // The field is still the only thing called Pinkod.
      await expect(page.getByLabel("Pinkod")).toHaveCount(1);
      await expect(help).toContainText("Ring kundtjänst på 010-123 45 00, vardagar 07.00–16.00.");
      await expect(help.getByRole("link", { name: "010-123 45 00" })).toHaveAttribute("href", "tel:0101234500");
      await expect(help.getByRole("link", { name: "kundservice@returportalen.example" })).toHaveAttribute("href", "mailto:kundservice@returportalen.example");
      const box = await help.getByRole("link", { name: "010-123 45 00" }).boundingBox();
      // One line: the number is never broken.
      expect(box!.height).toBeLessThan(40);
    });

    test("the menu, Buntsök and Historik use whole Swedish words; Påminnelser's checkbox sits beside its label", async ({ page, retailer }) => {
      await loginAs(page, retailer.id, retailer.pin);
      await page.goto("/");
      // (On a phone the menu is folded: the link's words are read, not its look.)
      await expect(page.locator('nav a[href="/foljesedel"]').first()).toHaveText("Följesedel/Leveransreklamation");
      await expect(page.getByText("Följsesedel")).toHaveCount(0);
      await page.goto("/buntsok");
      await expect(page.getByLabel("Buntnummer")).toBeVisible();
      await page.goto("/historik");
      await expect(page.getByRole("group", { name: "Datumintervall" })).toBeVisible();

      await page.goto("/paminnelser");
      const box = page.getByLabel("Skicka påminnelser till min e-post");
      const label = page.locator("label", { hasText: "Skicka påminnelser till min e-post" });
      const [b, l] = [(await box.boundingBox())!, (await label.boundingBox())!];
      // Beside: on the same line, the box to the left of its text.
      expect(b.x + b.width).toBeLessThanOrEqual(l.x + 1);
      expect(Math.abs(b.y + b.height / 2 - (l.y + Math.min(l.height, 40) / 2))).toBeLessThan(14);
    });
  });
}
