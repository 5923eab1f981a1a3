// Hostile uploads against the production server, as the admin's
// browser would send them (multipart). Each is refused with the spec's message and
// nothing is stored. The screens' own flows (JS off/on) are in staff-holidays-products-bundles-invoicing-payouts.spec.ts; the
// CLI import files are in tests/unit/cli-import-refuses-hostile-files.test.ts.
import { count, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { addDays } from "../../app/lib/dates";
import { e2eDb, expect, formToken, loginAs, makeStaff, test } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";

test.describe.configure({ timeout: 120_000 });

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
/** A PNG's signature and IHDR chunk claiming this size (what an image's size is read from). */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Buffer.concat([PNG.subarray(0, 8), ihdr, Buffer.alloc(64)]);
}

const ORDER_HEADER = "customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger";

async function upload(request: APIRequestContext, path: string, fields: Record<string, string>, file: { name: string; mimeType: string; buffer: Buffer }) {
  const started = Date.now();
  const res = await request.post(path, { multipart: { csrf: await formToken(request), ...fields, file }, maxRedirects: 0, timeout: 60_000 });
  return { status: res.status(), html: await res.text(), ms: Date.now() - started };
}

const totals = async () => {
  const db = e2eDb();
  const [images] = await db.select({ n: count() }).from(schema.images);
  const [files] = await db.select({ n: count() }).from(schema.orderFiles);
  const [lines] = await db.select({ n: count() }).from(schema.orderLines);
  return { images: images.n, files: files.n, lines: lines.n };
};

test("covers: wrong type, wrong content behind .png, oversized — refused, nothing stored", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const date = addDays("2032-01-01", (Date.now() % 3000) + info.workerIndex);
  const fields = { intent: "upload", titleId: "1", edition: "1:1", date };
  const cases = [
    { what: "GIF named .gif", file: { name: "a.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a\x01\x00\x01\x00") }, message: "Endast JPEG-, PNG- eller WebP-bilder kan laddas upp." },
    { what: "HTML named .png", file: { name: "a.png", mimeType: "image/png", buffer: Buffer.from("<html><script>alert(1)</script></html>") }, message: "Endast JPEG-, PNG- eller WebP-bilder kan laddas upp." },
    { what: "SVG named .jpg", file: { name: "a.jpg", mimeType: "image/jpeg", buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') }, message: "Endast JPEG-, PNG- eller WebP-bilder kan laddas upp." },
    { what: "empty .png", file: { name: "a.png", mimeType: "image/png", buffer: Buffer.alloc(0) }, message: "Endast JPEG-, PNG- eller WebP-bilder kan laddas upp." },
    { what: "3 MB PNG", file: { name: "big.png", mimeType: "image/png", buffer: Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]) }, message: "Filen är större än 2 MB." },
    // A PNG whose header says 60000 × 60000 pixels (a few kB, gigabytes to draw): refused before it is stored.
    { what: "60000 × 60000 PNG", file: { name: "huge.png", mimeType: "image/png", buffer: pngHeader(60000, 60000) }, message: "Bilden är 60000 × 60000 bildpunkter; högst 4000 × 4000 tas emot." },
    { what: "4001 × 10 PNG", file: { name: "wide.png", mimeType: "image/png", buffer: pngHeader(4001, 10) }, message: "Bilden är 4001 × 10 bildpunkter; högst 4000 × 4000 tas emot." },
    { what: "2 MB + 1 byte PNG", file: { name: "big.png", mimeType: "image/png", buffer: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG.length)]) }, message: "Filen är större än 2 MB." },
  ];
  const before = await totals();
  for (const c of cases) {
    const r = await upload(page.request, "/admin/dailyproducts", fields, c.file);
    expect(r.status, c.what).toBe(400);
    expect(r.html, c.what).toContain(c.message);
  }
  expect(await totals()).toEqual(before);
  const own = await e2eDb().select({ id: schema.images.id }).from(schema.images).where(eq(schema.images.date, date));
  expect(own).toHaveLength(0);
});

test("a cover's file name loses control and direction characters; the stored name is the one served", async ({ page }, info) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const date = addDays("2033-01-01", (Date.now() % 3000) + info.workerIndex);
  const onePixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
  const r = await upload(page.request, "/admin/dailyproducts", { intent: "upload", titleId: "1", edition: "1:1", date }, { name: "evil\u202Egnp.html\u0007", mimeType: "image/png", buffer: onePixel });
  expect(r.status).toBe(302);
  const [stored] = await e2eDb().select().from(schema.images).where(eq(schema.images.date, date));
  expect(stored.filename).toBe("evilgnp.html");
  const served = await page.request.get(`/bilder/${stored.id}`);
  expect(served.headers()["content-disposition"]).toContain('filename="evilgnp.html"');
});

test("order CSV: wrong type, binary behind .csv, oversized, huge line count and line length — refused, nothing stored", async ({ page }) => {
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const row = "1;2030-01-01;A-1;Skylt;1;100;83";
  const notCsv = "Fel: Endast CSV-filer (.csv) kan laddas upp.";
  const badRows = "Fel: Filen har felaktiga rader. Inget har sparats.";
  const cases = [
    { what: "PNG named .png", file: { name: "a.png", mimeType: "image/png", buffer: PNG }, message: notCsv },
    { what: "PNG bytes named .csv", file: { name: "a.csv", mimeType: "text/csv", buffer: PNG }, message: notCsv },
    // Not UTF-8: read as Windows-1252, where it is no order file.
    { what: "invalid UTF-8 named .csv", file: { name: "a.csv", mimeType: "text/csv", buffer: Buffer.from([0x61, 0x3b, 0xff, 0xfe, 0x0a]) }, message: badRows },
    { what: "6 MB CSV", file: { name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(`${ORDER_HEADER}\n${`${row}\n`.repeat(200_000)}`) }, message: "Fel: Filen är större än 5 MB." },
    { what: "150,000 rows (> 50,000)", file: { name: "many.csv", mimeType: "text/csv", buffer: Buffer.from(`${ORDER_HEADER}\n${`${row}\n`.repeat(150_000)}`) }, message: badRows },
    { what: "one 4 MB line", file: { name: "long.csv", mimeType: "text/csv", buffer: Buffer.from(`${ORDER_HEADER}\n1;2030-01-01;A;${"x".repeat(4_000_000)};1;1;83\n`) }, message: badRows },
    { what: "4.5 million empty lines", file: { name: "blank.csv", mimeType: "text/csv", buffer: Buffer.from(`${ORDER_HEADER}\n${"\n".repeat(4_500_000)}${row}\n`) }, message: badRows },
    { what: "header only", file: { name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("") }, message: badRows },
  ];
  const before = await totals();
  const timings: string[] = [];
  for (const c of cases) {
    const r = await upload(page.request, "/admin/invoice", { intent: "upload" }, c.file);
    expect(r.status, c.what).toBe(400);
    expect(r.html, c.what).toContain(c.message);
    timings.push(`${c.what} ${r.ms} ms`);
  }
  expect(await totals()).toEqual(before);
  console.log(`[uploads] ${timings.join("; ")}`);
});
