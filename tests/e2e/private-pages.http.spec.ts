// Private pages are not stored. On a server of its own behind a
// pretend HTTPS proxy (TRUST_PROXY=loopback): every page and download behind a login answers
// `Cache-Control: no-store` (once), downloads name their file by RFC 6266 (parsed back
// with the tests' own parser), and HSTS comes only with HTTPS.
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { addDays, today } from "../../app/lib/dates";
import { schema } from "../../db/client";
import { createCustomer, createDistributor, createLabelBlock, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { parseDisposition, savedName } from "../content-disposition-parse";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";

test.describe.configure({ mode: "serial" });

const R = 43001;
const COVER = 'Şahin Łódź; x="1".jpg';
const HSTS = "max-age=31536000; includeSubDomains";
const HTTPS = { "X-Forwarded-Proto": "https" };
let server: OwnServer;
let anon: APIRequestContext;
let retailer: APIRequestContext;
let admin: APIRequestContext;
let ids: { invoice: number; block: number; pending: number; published: number };
const figures = { answers: 0, downloads: 0 };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("private-pages", { TRUST_PROXY: "loopback" });
  const db = server.db;
  const day = today();
  await ensureTitlesAndEditions(db);
  await createDistributor(db, 1);
  await createCustomer(db, { id: R, distributorId: 1, pin: "4321", orgNumber: "556677-8899", bankgiro: "123-4566" });
  await createStaff(db, { email: "admin@private.example", name: "Admin", password: "private-pass-1", roles: "admin" });
  const [invoice] = await db
    .insert(schema.invoices)
    .values({ number: 990101, customerId: R, paperType: 0, date: day, dueDate: addDays(day, 30), periodFrom: addDays(day, -30), periodTo: day, netOre: 100, vatOre: 6, amountOre: 106, status: "Obetald" })
    .returning();
  await db.insert(schema.invoiceLines).values({ invoiceId: invoice.id, description: "rad", quantity: 1, unitPriceOre: 100, vatPermille: 60, netOre: 100 });
  const block = await createLabelBlock(db, { customerId: R, type: 7, status: "Levererad", fromDate: day, toDate: day, fromNumber: 151, toNumber: 155 });
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAxAAAHgMDAKqo9y4AAAAASUVORK5CYII=", "base64");
  const [pending] = await db.insert(schema.images).values({ filename: COVER, contentType: "image/png", data: png, sha256: "p".repeat(64), published: false }).returning();
  const [published] = await db.insert(schema.images).values({ filename: "Omslag v12.png", contentType: "image/png", data: png, sha256: "q".repeat(64), published: true }).returning();
  await db.insert(schema.guarantees).values({ customerId: R, ledger: 83, amountOre: 45050, refunded: true, refundDate: addDays(day, 3) });
  ids = { invoice: invoice.number, block: block.id, pending: pending.id, published: published.id };
  anon = await client(server.baseURL);
  retailer = await client(server.baseURL);
  admin = await client(server.baseURL);
  await logIn(retailer, R, "4321");
  await logIn(admin, "admin@private.example", "private-pass-1");
});

test.afterAll(async () => {
  for (const c of [anon, retailer, admin]) await c?.dispose();
  await server?.stop();
  console.log(`private pages: ${figures.answers} answers checked for no-store, ${figures.downloads} downloads' Content-Disposition parsed back`);
});

function cacheControl(res: APIResponse): string[] {
  const values = res.headersArray().filter((h) => h.name.toLowerCase() === "cache-control");
  expect(values, `${res.url()}: one Cache-Control`).toHaveLength(1);
  return values[0].value.split(",").map((d) => d.trim().toLowerCase());
}

function notStored(res: APIResponse, status = 200) {
  expect(res.status(), res.url()).toBe(status);
  expect(cacheControl(res), res.url()).toContain("no-store");
  figures.answers++;
}

function download(res: APIResponse, name: string, type = "attachment") {
  notStored(res);
  const header = res.headers()["content-disposition"];
  expect(header, res.url()).toMatch(/^[\x20-\x7e]+$/);
  expect(parseDisposition(header).type).toBe(type);
  expect(parseDisposition(header).params.has("filename*"), header).toBe(true);
  const saved = savedName(header);
  expect(saved.name).toBe(name);
  expect(saved.fallback).toMatch(/^[A-Za-z0-9 ._()-]+$/);
  figures.downloads++;
}

const RETAILER_PAGES = ["/", "/faktura", "/historik", "/foljesedel", "/kontakt", "/rapportering/1", "/buntsok", "/journal", "/faktura.data", "/_root.data"];
const STAFF_PAGES = ["/admin", "/admin/guarantees", `/admin/guarantees?kund=${R}`, "/admin/distribution", "/admin/invoice", "/admin/dailyproducts", "/admin.data"];

test("every retailer and staff page, and its data URL, answers no-store", async () => {
  for (const path of RETAILER_PAGES) notStored(await retailer.get(path));
  for (const path of STAFF_PAGES) notStored(await admin.get(path));
  // Refusals, redirects and the login page are not stored either.
  // A staff screen a retailer may not open sends them home (spec §6): not stored either.
  notStored(await retailer.get("/admin", { maxRedirects: 0 }), 302);
  notStored(await anon.get("/faktura", { maxRedirects: 0 }), 302);
  notStored(await anon.get("/login"));
  notStored(await retailer.post("/aviseringar", { form: { redirectTo: "/faktura", csrf: await formToken(retailer) }, maxRedirects: 0 }), 302);
});

test("every download behind a login answers no-store with an RFC 6266 file name", async () => {
  const month = today().slice(0, 7);
  download(await retailer.get(`/faktura/${ids.invoice}.pdf`), `faktura-${ids.invoice}.pdf`);
  download(await retailer.get(`/journal.pdf?manad=${month}`), `tidningsjournal-${month}.pdf`);
  download(await retailer.get("/rapportering/1/returer.pdf"), "Returer.pdf");
  download(await retailer.get("/returkvitto.pdf"), `Returer-${today()}.pdf`);
  download(await retailer.get(`/nodetiketter/${ids.block}.pdf`), "nodetiketter.pdf");
  const t = today();
  download(await admin.get(`/admin/distribution/export.xlsx?fran=${t}&till=${t}`), `distribution-${t}-${t}.xlsx`);
  const csv = await admin.post("/admin/guarantees/fil", { form: { intent: "csv", ledger: "83", csrf: await formToken(admin) } });
  download(csv, savedName(csv.headers()["content-disposition"]).name);
  expect(savedName(csv.headers()["content-disposition"]).name).toMatch(/^aftonbladet-\d{4}-v\d{2}\.csv$/);
  const underlag = await admin.post("/admin/guarantees/fil", { form: { intent: "underlag-customer", kund: String(R), csrf: await formToken(admin) } });
  download(underlag, savedName(underlag.headers()["content-disposition"]).name);
  expect(savedName(underlag.headers()["content-disposition"]).name).toMatch(new RegExp(`^underlag-${R}-\\d{4}-v\\d{2}\\.pdf$`));
  // A pending cover, for staff only, under the uploader's awkward name.
  const cover = await admin.get(`/bilder/${ids.pending}`);
  download(cover, COVER, "inline");
  expect(savedName(cover.headers()["content-disposition"]).fallback).toBe("Sahin Lodz_ x__1_.jpg");
});

test("public files keep their cache: a published cover and the static assets", async () => {
  const cover = await anon.get(`/bilder/${ids.published}`);
  expect(cacheControl(cover)).toEqual(["public", "max-age=86400"]);
  expect(savedName(cover.headers()["content-disposition"]).name).toBe("Omslag v12.png");
  const html = await (await anon.get("/login")).text();
  const asset = /(?:src|href)="(\/assets\/[^"]+\.js)"/.exec(html)![1];
  const res = await anon.get(asset);
  expect(res.status()).toBe(200);
  expect(cacheControl(res)).toContain("immutable");
  expect(cacheControl(res)).not.toContain("no-store");
});

test("HSTS behind HTTPS only", async () => {
  const secure = await client(server.baseURL);
  const login = await secure.post("/login", { form: { kundnummer: String(R), pinkod: "4321" }, headers: HTTPS, maxRedirects: 0 });
  expect(login.status()).toBe(302);
  const cookie = login.headersArray().find((h) => h.name.toLowerCase() === "set-cookie")!.value.split(";")[0];
  for (const path of ["/", "/faktura", `/faktura/${ids.invoice}.pdf`]) {
    const res = await secure.get(path, { headers: { ...HTTPS, Cookie: cookie } });
    notStored(res);
    expect(res.headers()["strict-transport-security"], path).toBe(HSTS);
  }
  expect((await anon.get("/login", { headers: HTTPS })).headers()["strict-transport-security"]).toBe(HSTS);
  // Plain HTTP: none, on pages and files alike.
  for (const res of [await anon.get("/login"), await retailer.get("/faktura"), await retailer.get(`/faktura/${ids.invoice}.pdf`)]) {
    expect(res.headers()["strict-transport-security"], res.url()).toBeUndefined();
  }
  await secure.dispose();
});

test("without TRUST_PROXY a forged X-Forwarded-Proto gives no HSTS", async ({ request }) => {
  // The shared e2e server runs without TRUST_PROXY.
  const res = await request.get("/login", { headers: HTTPS });
  expect(res.status()).toBe(200);
  expect(res.headers()["strict-transport-security"]).toBeUndefined();
  expect(cacheControl(res)).toContain("no-store");
});
