// A slow phone on a bad connection loads every retailer page's JavaScript in
// budget: at most 100 KB gzip, everything the page loads (the module preloads, the entry
// and the route manifest where the page imports it). No retailer page ships the form library: the forms are checked
// by the server's schema (the login, Löpsedlar, Nödetiketter), and the pages' constants
// live apart from the schemas (features/*/words.ts), so zod stays on the server.
import { readdirSync, readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { schema } from "../../db/client";
import { e2eDb, expect, makeRetailer, test } from "./fixtures";
import { retailerWithAMorning } from "./returns-data";

const PAGES = ["/", "/rapportering/1", "/rapportering/2", "/historik", "/buntsok", "/foljesedel", "/nodetiketter", "/buntblock", "/journal", "/faktura", "/helgsparr", "/order", "/provision", "/lopsedlar", "/oppettider", "/forsaljning", "/paminnelser", "/produkter", "/reklamationer", "/aterkallelser", "/leverans", "/kontakt"];

async function javaScriptOf(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  // The page script waits for the first frame (decision 026): Remix's async module was
  // rewritten. A Remix that writes it differently would leave it async, and fail here.
  expect(html, path).not.toContain('type="module" async');
  expect(html, path).toMatch(/<script nonce="[^"]+" type="module">requestAnimationFrame\(\(\)=>setTimeout\(\(\)=>Promise\.all\(\[import\("\/assets\//);
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  // The route manifest file is loaded only when the page imports it. With lazy route
  // discovery (v3_lazyRouteDiscovery) it does not: the HTML carries the page's part of the
  // manifest inline and names the file only in that data, which the browser never fetches
  // (checked with a browser's request log). Counting it had added 3.3 KB to every page.
  const manifest = [...html.matchAll(/import\s*\(?\s*"(\/assets\/manifest-[^"]+\.js)"/g)].map((m) => m[1]);
  const entry = [...html.matchAll(/import\("(\/assets\/entry\.client[^"]+\.js)"\)/g)].map((m) => m[1]);
  const assets = [...new Set([...preloads, ...manifest, ...entry])];
  let total = 0;
  const carrying: string[] = [];
  for (const a of assets) {
    const body = await (await request.get(a)).body();
    total += gzipSync(body).length;
    if (VALIDATION_CODE.test(body.toString("utf8"))) carrying.push(a);
  }
  return { total, assets, carrying };
}

/**
 * What only the validation code holds, whatever its chunk is called: zod's error class
 * ("ZodError", "$ZodError" in zod 4), the issue code conform's zod bridge reads
 * ("invalid_type"), and conform's own intent field ("__intent__").
 */
const VALIDATION_CODE = /\$?ZodError|invalid_type|__intent__/;

test("the validation code's marks are in the build, so the check below can see them", () => {
  const dir = new URL("../../build/client/assets/", import.meta.url);
  const marked = readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .filter((f) => VALIDATION_CODE.test(readFileSync(new URL(f, dir), "utf8")));
  // zod, conform's hooks and the staff forms' bridge: at least two chunks, whatever named.
  expect(marked.length).toBeGreaterThanOrEqual(2);
});

test("the login page and every retailer page load at most 100 KB of JavaScript (gzip), and no validation library", async ({ request }, info) => {
  const figures: string[] = [];
  const over: string[] = [];
  const check = async (path: string) => {
    const { total, assets, carrying } = await javaScriptOf(request, path);
    expect(assets.length, path).toBeGreaterThan(3);
    figures.push(`${path} ${(total / 1024).toFixed(1)} KB`);
    if (total > 100 * 1024 || carrying.length > 0) over.push(`${path} ${(total / 1024).toFixed(1)} KB ${carrying.join(" ")}`);
  };
  await check("/login");
  const r = await makeRetailer(info.workerIndex);
  await retailerWithAMorning(r.id);
  // No alert may lock the pages (the demo data's holidays answered): each page is itself.
  for (const h of await e2eDb().select().from(schema.holidays)) await e2eDb().insert(schema.holidayReports).values({ holidayId: h.id, customerId: r.id, open: true }).onConflictDoNothing();
  expect((await request.post("/login", { form: { kundnummer: String(r.id), pinkod: r.pin }, maxRedirects: 0 })).status()).toBe(302);
  for (const path of PAGES) await check(path);
  // The confirm step, loaded as a page after each save: the returns form and its dialog. It
  // is the form's budget plus the dialog's, and never the validation library (its field
  // names once pulled zod in with the bundle forms' schemas).
  const confirm = await javaScriptOf(request, "/rapportering/1/bekrafta");
  figures.push(`/rapportering/1/bekrafta ${(confirm.total / 1024).toFixed(1)} KB`);
  expect(confirm.carrying, "/rapportering/1/bekrafta").toEqual([]);
  // Each answer was the page asked for, not a redirect to what an alert demands.
  expect((await request.get("/lopsedlar", { maxRedirects: 0 })).status()).toBe(200);
  console.log(`JavaScript per page (gzip): ${figures.join(", ")}`);
  expect(over).toEqual([]);
});

/** GET `path` with this Accept-Encoding, undecoded: status, headers, the bytes as sent. */
function rawGet(baseURL: string, path: string, acceptEncoding: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(new URL(path, baseURL), { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
  });
}

test("the framework's JavaScript goes to a browser that takes Brotli as the build's Brotli file: the same bytes, smaller", async ({ request, baseURL }) => {
  const html = await (await request.get("/login")).text();
  const components = /<link rel="modulepreload" href="(\/assets\/components-[^"]+\.js)"/.exec(html)?.[1];
  expect(components).toBeTruthy();
  const plain = await rawGet(baseURL!, components!, "identity");
  expect(plain.headers["content-encoding"]).toBeUndefined();
  const br = await rawGet(baseURL!, components!, "gzip, deflate, br");
  expect(br.status).toBe(200);
  expect(br.headers["content-encoding"]).toBe("br");
  expect(br.headers["content-type"]).toMatch(/^(application|text)\/javascript/);
  expect(br.headers["cache-control"]).toContain("immutable");
  expect(br.headers["vary"]).toMatch(/Accept-Encoding/i);
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  // Smaller than the gzip a browser without Brotli gets (still compressed on the fly).
  const gz = await rawGet(baseURL!, components!, "gzip");
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  expect(br.body.length).toBeLessThan(gz.body.length * 0.92);
  // A path that is not a built file is not served from anywhere else.
  expect((await rawGet(baseURL!, "/assets/..%2f..%2fpackage.json", "br")).status).toBe(404);
});
