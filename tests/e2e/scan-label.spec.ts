// "Skanna" beside the bundle field reads the bundle label with the phone's
// camera. Chromium plays a video of a rendered label as its camera; headless Chromium on
// Linux has no BarcodeDetector, so this drives the WebAssembly decoder (zxing-wasm).
import { chromium, type LaunchOptions } from "@playwright/test";
import { eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { createLabelBlock } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { e2eDb, expect, loginAs, test } from "./fixtures";
import { fakeCameraFilming } from "./fake-camera";
import { day as dayFrom, delivery } from "./returns-data";

const pad = (n: number) => String(n).padStart(5, "0");

test("without a camera, or without JavaScript, there is no Skanna button and typing works as before", async ({ page, retailer }) => {
  await createLabelBlock(e2eDb(), { customerId: retailer.id, type: 0, status: "Levererad", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 1, toNumber: 50 });
  await delivery(retailer.id, { date: dayFrom(-1), delivered: 10 });
  await loginAs(page, retailer.id, retailer.pin);
  await page.goto("/rapportering/1");
  await expect(page.getByLabel(`Bunt för Aftonbladet ${dayFrom(-1)}`, { exact: true })).toBeVisible();
  if (test.info().project.name === "js-on") await page.waitForFunction(() => document.documentElement.dataset.hydrated);
  await expect(page.getByRole("button", { name: /^Skanna/ })).toHaveCount(0);
});

test("a phone's camera reads the label: another customer's is refused, one's own fills the bundle and moves on to the amount", async ({ retailer }, info) => {
  test.skip(info.project.name !== "js-on", "the camera needs JavaScript: without it the button is absent (the test above)");
  await createLabelBlock(e2eDb(), { customerId: retailer.id, type: 0, status: "Levererad", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 1, toNumber: 50 });
  const paper = await delivery(retailer.id, { date: dayFrom(-1), delivered: 10 });
  const base = info.project.use.launchOptions as LaunchOptions | undefined;
  const withCamera = (file: string) =>
    chromium.launch({
      ...base,
      args: [...(base?.args ?? []), "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", `--use-file-for-fake-video-capture=${file}`],
    });
  const bundleLabel = `Bunt för Aftonbladet ${dayFrom(-1)}`;

  // Another customer's label: said so, nothing filled.
  const other = retailer.id === 99999 ? 10001 : retailer.id + 1;
  const stranger = await withCamera(fakeCameraFilming(`${pad(other)}${pad(12)}`));
  try {
    const page = await (await stranger.newContext({ baseURL: info.project.use.baseURL, permissions: ["camera"] })).newPage();
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await page.getByRole("button", { name: `Skanna bunt för Aftonbladet ${dayFrom(-1)}` }).click();
    const dialog = page.getByRole("dialog", { name: "Skanna buntetikett" });
    await expect(dialog.getByRole("status")).toHaveText(`Etiketten hör till kundnummer ${other}, inte till er. Skanna en av era egna etiketter.`, { timeout: 20_000 });
    await dialog.getByRole("button", { name: "Avbryt" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByLabel(bundleLabel, { exact: true })).toHaveValue("");
    await expect(page.getByRole("button", { name: `Skanna bunt för Aftonbladet ${dayFrom(-1)}` })).toBeFocused();
  } finally {
    await stranger.close();
  }

  // One's own label: the bundle is filled and the amount has the focus; the save stores it.
  const own = await withCamera(fakeCameraFilming(`${pad(retailer.id)}${pad(7)}`));
  try {
    const page = await (await own.newContext({ baseURL: info.project.use.baseURL, permissions: ["camera"] })).newPage();
    await loginAs(page, retailer.id, retailer.pin);
    await page.goto("/rapportering/1");
    await page.getByRole("button", { name: `Skanna bunt för Aftonbladet ${dayFrom(-1)}` }).click();
    await expect(page.getByLabel(bundleLabel, { exact: true })).toHaveValue("7", { timeout: 20_000 });
    await expect(page.getByRole("dialog", { name: "Skanna buntetikett" })).toHaveCount(0);
    const amount = page.getByLabel(`Retur för Aftonbladet ${dayFrom(-1)}`, { exact: true });
    await expect(amount).toBeFocused();
    await amount.fill("3");
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    await expect(page.getByRole("heading", { name: "Returerna är sparade" })).toBeVisible();
    const rows = await e2eDb().select().from(schema.returns).where(eq(schema.returns.customerId, retailer.id));
    expect(rows.map((r) => [r.deliveryId, r.amount])).toEqual([[paper.id, 3]]);
  } finally {
    await own.close();
  }
});
