// HTTP half: random form bodies against every POST form of the real
// production server. The forms are read from the rendered pages (so a new form is
// fuzzed without editing this file); each property sends random, huge, negative,
// unicode, empty, duplicated and missing fields and script/SQL payloads, and checks:
// never a 5xx, and a payload never comes back unescaped (in the answer or on the
// page a redirect leads to). Ids that could reach other tests' rows are replaced by
// this test's own ids or by values no row has, and the two global staff actions
// (transfer orders, complete payouts) are left out: e2e tests share one server.
import fc from "fast-check";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { addDays, today } from "../../app/lib/dates";
import { createBundle, createDelivery, createLabelBlock } from "../../cli/seed/factories";
import { e2eDb, expect, formToken, loginAs, makeRetailer, makeStaff, test } from "./fixtures";

test.describe.configure({ timeout: 120_000 });

const MARKS = ["<script>xss-mark</script>", '"><img src=x onerror=xssmark()>', "<svg onload=xssmark()>"];
const RAW = ["<script>xss-mark", "<img src=x onerror=xssmark", "<svg onload=xssmark"];
const PAYLOADS = [
  ...MARKS,
  "",
  " ",
  "'; DROP TABLE returns; --",
  "1 OR 1=1",
  "-1",
  "0",
  "1e3",
  "1.5",
  "1,5",
  "NaN",
  "９９",
  "\u0000",
  "\u202e12",
  "99999999999999999999999",
  "999",
  "1000",
  "2001-02-30",
  "2003-01-01",
  "x".repeat(20_000),
  "a\r\nb",
  "%00",
];
const text = fc.oneof(fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 30 }), fc.string({ unit: "grapheme", maxLength: 12 }), fc.integer({ min: -1000, max: 1000 }).map(String));
// Fields that name rows: only ids of this test's data, or values no row can have.
const ID_FIELDS = /^(id|guaranteeId|bundleId|blockId|holidayId|deliveryId|kund|kundnummer|customers|ledger|newNumber|titleId)$|\.delivery$/;
const SKIP_ACTIONS = new Set(["/logout", "/tillbaka-till-personal", "/admin/kund/oppna"]);
const SKIP_INTENTS = new Set(["transfer", "complete"]);

type FormSpec = { action: string; multipart: boolean; fields: string[]; intents: string[] };

function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? m[1].replace(/&amp;/g, "&") : null;
}

/** The POST forms of a page: action, field names and intent values. */
function formsOf(html: string, pagePath: string): FormSpec[] {
  const out: FormSpec[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const open = `<form${m[1]}>`;
    if ((attr(open, "method") ?? "get").toLowerCase() !== "post") continue;
    const url = new URL(attr(open, "action") ?? pagePath, "http://x");
    if (SKIP_ACTIONS.has(url.pathname)) continue;
    // Keep the query: a form of an index route posts to `?index`.
    const action = url.pathname + url.search;
    const fields = new Set<string>();
    const intents = new Set<string>();
    for (const t of m[2].matchAll(/<(input|select|textarea|button)\b[^>]*>/g)) {
      const name = attr(t[0], "name");
      // The form token is not fuzzed: every body carries the session's own (see send).
      if (!name || name === "csrf") continue;
      if (name === "intent") {
        const v = attr(t[0], "value");
        if (v && !SKIP_INTENTS.has(v)) intents.add(v);
      } else fields.add(name);
    }
    out.push({ action, multipart: (attr(open, "enctype") ?? "").includes("multipart"), fields: [...fields], intents: [...intents] });
  }
  return out;
}

async function collectForms(request: APIRequestContext, pages: string[]): Promise<FormSpec[]> {
  const all = new Map<string, FormSpec>();
  for (const p of pages) {
    const res = await request.get(p);
    expect(res.status(), `GET ${p}`).toBeLessThan(500);
    const u = new URL(p, "http://x");
    for (const f of formsOf(await res.text(), u.pathname + u.search)) {
      const key = `${f.action}|${f.fields.sort().join(",")}|${f.intents.sort().join(",")}`;
      all.set(key, f);
    }
  }
  return [...all.values()];
}

type Body = { action: string; multipart: boolean; entries: [string, string][]; file?: { name: string; body: string } };

function bodyArb(forms: FormSpec[], ownIds: string[]): fc.Arbitrary<Body> {
  const idValue = fc.oneof(fc.constantFrom(...ownIds), fc.constantFrom("", "-1", "abc", "<script>xss-mark</script>", "2147483648", "999999999999"));
  return fc.constantFrom(...forms).chain((form) => {
    const fieldValues = form.fields.map((name) =>
      fc.tuple(fc.constant(name), fc.array(ID_FIELDS.test(name) ? idValue : text, { minLength: 0, maxLength: 3 })),
    );
    return fc.record({
      action: fc.constant(form.action),
      multipart: fc.constant(form.multipart),
      fields: fc.tuple(...fieldValues),
      intent: form.intents.length ? fc.oneof({ arbitrary: fc.constantFrom(...form.intents), weight: 5 }, { arbitrary: text, weight: 1 }) : fc.constant(null),
      extra: fc.array(fc.tuple(fc.constantFrom("line", "token", "js", "intent", "x.amount", "__proto__"), text), { maxLength: 2 }),
      file: form.multipart ? fc.option(fc.record({ name: fc.constantFrom("a.csv", "a.png", "a.jpg", "x"), body: fc.oneof(text, fc.constant("customerNumber;orderDate;articleNumber;articleDescription;amount;price;ledger\n1;2001-01-01;A;<script>xss-mark</script>;1;1;83")) }), { nil: undefined }) : fc.constant(undefined),
    }).map((r) => {
      const entries: [string, string][] = [];
      for (const [name, values] of r.fields) for (const v of values) entries.push([name, v]);
      if (r.intent !== null) entries.push(["intent", r.intent]);
      entries.push(...r.extra);
      return { action: r.action, multipart: r.multipart, entries, file: r.file };
    });
  });
}

// The session's form token, first in every body as the portal's forms send it, so the
// random fields reach the actions (a post without it is refused before the action runs).
const tokens = new WeakMap<APIRequestContext, Promise<string>>();
async function send(request: APIRequestContext, b: Body): Promise<APIResponse> {
  if (!tokens.has(request)) tokens.set(request, formToken(request));
  const csrf = await tokens.get(request)!;
  const entries: [string, string][] = b.action === "/login" ? b.entries : [["csrf", csrf], ...b.entries];
  if (b.multipart) {
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v);
    if (b.file) form.append("file", new Blob([b.file.body], { type: "application/octet-stream" }), b.file.name);
    return request.post(b.action, { multipart: form, maxRedirects: 0 });
  }
  const params = new URLSearchParams(entries);
  return request.post(b.action, { data: params.toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, maxRedirects: 0 });
}

type Tally = { requests: number; byStatus: Record<number, number> };

async function checkAnswer(request: APIRequestContext, b: Body, res: APIResponse, tally: Tally) {
  tally.requests++;
  tally.byStatus[res.status()] = (tally.byStatus[res.status()] ?? 0) + 1;
  const what = `${b.action} ${JSON.stringify(b.entries).slice(0, 400)}`;
  expect(res.status(), what).toBeLessThan(500);
  let body = await res.text();
  const location = res.headers()["location"];
  if (res.status() >= 300 && res.status() < 400 && location && location.startsWith("/")) {
    const next = await request.get(location);
    tally.requests++;
    expect(next.status(), `${what} -> GET ${location}`).toBeLessThan(500);
    body += await next.text();
  }
  for (const raw of RAW) expect(body.includes(raw), `${what}: ${raw} unescaped`).toBe(false);
}

test("retailer forms: random bodies never give a 5xx and payloads come back escaped", async ({ page, retailer }) => {
  const db = e2eDb();
  const on = today();
  await createLabelBlock(db, { customerId: retailer.id, type: 0, status: "Levererad", fromDate: addDays(on, -30), toDate: addDays(on, 300), fromNumber: 101, toNumber: 150 });
  await createBundle(db, { customerId: retailer.id, number: 101, type: 0, open: true });
  const ids: string[] = ["101", "102"];
  for (let i = 0; i < 4; i++) {
    const d = await createDelivery(db, { customerId: retailer.id, titleId: 1 + (i % 2), editionId: 1, deliveryDate: addDays(on, -i), delivered: 10, priceOre: 2200 });
    ids.push(String(d.id));
  }
  // Another retailer's delivery: its id is offered too, and must never be changed.
  const other = await makeRetailer(test.info().workerIndex);
  const foreign = await createDelivery(db, { customerId: other.id, titleId: 1, editionId: 1, deliveryDate: on, delivered: 10, priceOre: 2200 });
  ids.push(String(foreign.id), String(retailer.id), String(other.id));

  await loginAs(page, retailer.id, retailer.pin);
  const pages = ["/", "/?bunt=101", "/rapportering/1", "/rapportering/2", "/rapportering/1/bekrafta", "/foljesedel", "/foljesedel?deliveryId=" + ids[2], "/helgsparr", "/lopsedlar", "/nodetiketter", "/order", "/historik", "/buntsok", "/provision"];
  const forms = await collectForms(page.request, pages);
  expect(forms.length, "POST forms found on the retailer pages").toBeGreaterThanOrEqual(6);
  const tally: Tally = { requests: 0, byStatus: {} };
  await fc.assert(
    fc.asyncProperty(bodyArb(forms, ids), async (b) => checkAnswer(page.request, b, await send(page.request, b), tally)),
    { numRuns: 150 },
  );
  // GET forms and query strings of the retailer's loaders.
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("/buntsok?id=", "/historik?fran=", "/historik?till=2020-01-01&fran=", "/provision?pris=", "/?bunt=", "/foljesedel?deliveryId=", "/journal?manad=", "/order?steg=", "/faktura?fel="), text, async (path, v) => {
      const res = await page.request.get(path + encodeURIComponent(v), { maxRedirects: 0 });
      tally.requests++;
      expect(res.status(), path + v.slice(0, 100)).toBeLessThan(500);
      const body = await res.text();
      for (const raw of RAW) expect(body.includes(raw)).toBe(false);
    }),
    { numRuns: 80 },
  );
  const [after] = await db.select().from((await import("../../db/client")).schema.deliveries).where((await import("drizzle-orm")).eq((await import("../../db/client")).schema.deliveries.id, foreign.id));
  expect(after.received).toBeNull();
  expect(after.reportedAt).toBeNull();
  console.log(`[bad-input] retailer: ${forms.length} forms, ${tally.requests} requests, statuses ${JSON.stringify(tally.byStatus)}`);
});

test("staff forms: random bodies never give a 5xx and payloads come back escaped", async ({ page, retailer }) => {
  const db = e2eDb();
  await createLabelBlock(db, { customerId: retailer.id, type: 0, status: "Levererad", fromDate: "2025-01-01", toDate: "2030-12-31", fromNumber: 1, toNumber: 50 });
  const bundle = await createBundle(db, { customerId: retailer.id, number: 3, type: 0, open: true });
  const ids = [String(retailer.id), String(bundle.id), "83", "80", "1"];
  const admin = await makeStaff("admin");
  await loginAs(page, admin.email, admin.password);
  const k = retailer.id;
  const pages = [
    "/admin",
    `/admin/bundles?kund=${k}`,
    `/admin/bundles?kund=${k}&flik=change`,
    "/admin/dailyproducts",
    `/admin/guarantees?kund=${k}`,
    "/admin/holidays",
    "/admin/holidays?redigera=ny",
    "/admin/invoice",
    "/admin/invoice?flik=expo",
    "/admin/invoice?ny=1",
    "/admin/messages",
    "/admin/products",
    "/admin/products?redigera=ny",
  ];
  const forms = await collectForms(page.request, pages);
  expect(forms.length, "POST forms found on the staff pages").toBeGreaterThanOrEqual(8);
  const tally: Tally = { requests: 0, byStatus: {} };
  await fc.assert(
    fc.asyncProperty(bodyArb(forms, ids), async (b) => {
      // A valid holiday or message would reach every retailer of the shared e2e server:
      // holidays here always lie in the past, messages are addressed to this retailer.
      b.entries = b.entries.map(([n, v]) => {
        if (b.action.startsWith("/admin/holidays") && /day|Day/.test(n) && /^\d{4}-\d{2}-\d{2}$/.test(v)) return [n, "2003-01-01"];
        if (b.action.startsWith("/admin/messages") && n === "customers") return [n, String(k)];
        return [n, v];
      });
      if (b.action.startsWith("/admin/messages") && !b.entries.some(([n]) => n === "customers")) b.entries.push(["customers", String(k)]);
      await checkAnswer(page.request, b, await send(page.request, b), tally);
    }),
    { numRuns: 150 },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("/admin/distribution?fran=", "/admin/distribution?till=2020-01-01&fran=", "/admin/distribution?utb=", "/admin/distribution?utgava=", "/admin/leveransreklamation?fran=", `/admin/bundles?kund=${k}&sida=`, "/admin/bundles?kund=", "/admin/guarantees?search=", "/admin/dailyproducts?datum=", "/admin/dailyproducts?valj=", "/admin/invoice?per=", "/admin/invoice?sida=", "/admin/products?redigera=", "/admin/holidays?redigera=", "/admin/messages?id="), text, async (path, v) => {
      const res = await page.request.get(path + encodeURIComponent(v), { maxRedirects: 0 });
      tally.requests++;
      expect(res.status(), path + v.slice(0, 100)).toBeLessThan(500);
      const body = await res.text();
      for (const raw of RAW) expect(body.includes(raw)).toBe(false);
    }),
    { numRuns: 80 },
  );
  console.log(`[bad-input] staff: ${forms.length} forms, ${tally.requests} requests, statuses ${JSON.stringify(tally.byStatus)}`);
});

test("login form: random bodies never give a 5xx", async ({ page }) => {
  const tally: Tally = { requests: 0, byStatus: {} };
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom("kundnummer", "pinkod", "redirectTo", "intent"), text), { maxLength: 5 }), async (entries) => {
      const b: Body = { action: "/login", multipart: false, entries: entries.map(([n, v]) => [n, n === "kundnummer" && /^\d+$/.test(v) ? `9${v}`.slice(0, 9) + "x" : v]) };
      await checkAnswer(page.request, b, await send(page.request, b), tally);
    }),
    { numRuns: 60 },
  );
});

// Found by the retailer property above: /aviseringar has no page of its own, so a
// refused close (a posted field with a direction override) came back as the form's
// JSON, with every posted value in it.
test("closing the alerts with a refused field answers with a redirect, never the posted values", async ({ page, retailer }) => {
  await loginAs(page, retailer.id, retailer.pin);
  const b: Body = { action: "/aviseringar", multipart: false, entries: [["redirectTo", MARKS[0]], ["line", "\u202e12"]] };
  const res = await send(page.request, b);
  expect(res.status()).toBe(302);
  expect(res.headers()["location"]).toBe("/");
  expect(await res.text()).not.toContain("xss-mark");
});
