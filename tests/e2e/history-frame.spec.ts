// Historik on a 360 px phone with the text at 200 %: the table does not fit and scrolls in
// its own frame. Its rows hold nothing to press (returns not yet invoiced), so the frame
// itself is reached by Tab and scrolled with the arrow keys; axe finds nothing.
import AxeBuilder from "@axe-core/playwright";
import { expect, loginAs, makeRetailer, test } from "./fixtures";
import { retailerWithAMorning } from "./returns-data";

test.use({ viewport: { width: 360, height: 740 } });

test("the history table's frame is reached by Tab and scrolled by the arrow keys at 360 px and 200 % text", async ({ page, javaScriptEnabled }, info) => {
  const r = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  await retailerWithAMorning(r.id);
  await loginAs(page, r.id, r.pin);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 32, fixed: 26 } });
  await page.goto("/historik");
  const frame = page.getByRole("region", { name: "Tabell: Huvudtidningar" });
  await expect(frame.getByRole("cell", { name: "Aftonbladet" }).first()).toBeVisible();
  // It does not fit: the frame scrolls, the page does not.
  expect(await frame.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  // Tab from the top of the page reaches the frame; the arrow key scrolls it.
  for (let i = 0; i < 80 && !(await frame.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(frame).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => frame.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  if (javaScriptEnabled) {
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(result.violations.map((v) => `${v.id} ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
  }
});
