// Data builders for the returns, bundle and history specs: each test makes its own.
import { addDays, today } from "../../app/lib/dates";
import { createBundle, createDelivery, createLabelBlock, createReturn, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { schema } from "../../db/client";
import { and, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { e2eDb, expect, test } from "./fixtures";
import { portalNow } from "../../db/clock";

export const day = (offset: number) => addDays(today(), offset);

export async function labelBlock(customerId: number, from = 101, to = 150) {
  return createLabelBlock(e2eDb(), { customerId, type: 0, status: "Levererad", fromDate: day(-30), toDate: day(300), fromNumber: from, toNumber: to });
}

export async function delivery(customerId: number, input: { date: string; titleId?: number; editionId?: number; delivered?: number; reported?: boolean; received?: number }) {
  await ensureTitlesAndEditions(e2eDb());
  return createDelivery(e2eDb(), {
    customerId,
    titleId: input.titleId ?? 1,
    editionId: input.editionId ?? 1,
    deliveryDate: input.date,
    delivered: input.delivered ?? 20,
    priceOre: 2200,
    reportedAt: input.reported ? portalNow() : null,
    received: input.received ?? null,
  });
}

export async function bundle(customerId: number, number: number, opts: { type?: 0 | 1; open?: boolean; closedDate?: string } = {}) {
  const open = opts.open ?? true;
  return createBundle(e2eDb(), { customerId, number, type: opts.type ?? 0, open, closedDate: open ? null : (opts.closedDate ?? day(-1)) });
}

export async function returnRow(customerId: number, bundleId: number, deliveryId: number, amount: number) {
  return createReturn(e2eDb(), { customerId, bundleId, deliveryId, amount });
}

export async function returnsOf(deliveryId: number) {
  return e2eDb().select().from(schema.returns).where(eq(schema.returns.deliveryId, deliveryId));
}

export async function bundleRow(customerId: number, number: number) {
  const [row] = await e2eDb()
    .select()
    .from(schema.bundles)
    .where(and(eq(schema.bundles.customerId, customerId), eq(schema.bundles.number, number)));
  return row;
}

/**
 * A retailer as the screens meet one on a normal morning: a label block, a bundle with a
 * return, a reported paper with a received amount, and unreported papers (a main paper
 * and an insert). For the tests that walk every page (axe, narrow screens).
 */
export async function retailerWithAMorning(customerId: number) {
  await createLabelBlock(e2eDb(), { customerId, type: 0, status: "Levererad", fromDate: today(), toDate: addDays(today(), 365), fromNumber: 1, toNumber: 50 });
  const b = await bundle(customerId, 31);
  const main = await delivery(customerId, { date: day(-3), delivered: 20, reported: true, received: 18 });
  await returnRow(customerId, b.id, main.id, 7);
  await delivery(customerId, { date: day(-1), delivered: 20 });
  await delivery(customerId, { date: day(-1), titleId: 2, editionId: 21, delivered: 9 });
}

/**
 * Spara och fortsätt with some papers left blank: with JavaScript the page asks once
 * ("Du har fyllt i 1 av 2 tidningar – spara ändå?") and this answers Spara ändå; without
 * it the form is sent as it is.
 */
export async function saveLeavingBlanks(page: Page) {
  await page.getByRole("button", { name: "Spara och fortsätt" }).click();
  if (test.info().project.name === "js-on") await page.getByRole("dialog").getByRole("button", { name: "Spara ändå" }).click();
}

/** Ändra/tillägg folds every day but the newest: opens the day of `date` (a press on its summary) unless it is open. */
export async function openDay(page: Page, date: string) {
  const group = page.locator("details.day-group").filter({ has: page.locator("summary", { hasText: `(${date})` }) });
  if ((await group.getAttribute("open")) === null) await group.locator("summary").click();
  await expect(group).toHaveAttribute("open", "");
}
