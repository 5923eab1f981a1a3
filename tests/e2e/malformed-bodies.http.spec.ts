// A malformed request is the client's fault. Every action of the
// production build's route manifest is posted, as every kind of user, bodies no form
// sends: JSON, text/plain, XML, no Content-Type, multipart cut short or without its
// boundary, broken percent-encoding, invalid UTF-8, NaN / 1e309 / negative / huge ids
// in every field the app reads (field names and intents are read from the source, so
// a new form is covered without editing this file), control characters in
// redirectTo, and random mixes of these (fast-check). Every loader is asked the same
// with garbage query strings and path parameters. Never a 5xx; a wrong content type
// is 415 and an unparsable body 400, answered with a Swedish HTML page.
import fc from "fast-check";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { addDays, today } from "../../app/lib/dates";
import { UPLOAD_BODY_LIMITS } from "../../app/http/request-limits";
import { schema } from "../../db/client";
import { createBundle, createCustomer, createDelivery, createDistributor, createLabelBlock, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";
import { raw, type RawAnswer } from "./raw-http";

test.describe.configure({ mode: "serial" });

const ROLES = ["anon", "retailer", "impersonated", "admin", "sales", "utb"] as const;
const token: Record<string, string> = {};
type Role = (typeof ROLES)[number];

type Manifest = Record<string, { id: string; parentId?: string; path?: string; index?: boolean; module: { loader?: unknown; action?: unknown } }>;

async function manifest(): Promise<Manifest> {
  const dir = resolve(process.env.REMIX_BUILD_DIR || "build");
  return ((await import(pathToFileURL(`${dir}/server/index.js`).href)) as { routes: Manifest }).routes;
}

/** The URL of a route with its parameters filled in, or null for a layout. */
function urlOf(routes: Manifest, id: string, param: (name: string) => string): string | null {
  const parts: string[] = [];
  let addressable = false;
  for (let r = routes[id]; r; r = r.parentId ? routes[r.parentId] : (undefined as never)) {
    if (r.path) parts.unshift(r.path);
    if (r.id === id) addressable = Boolean(r.path || r.index);
  }
  if (!addressable) return null;
  const path = ("/" + parts.join("/")).replace(/:(\w+)/g, (_m, name: string) => param(name));
  return routes[id].index ? `${path}?index` : path;
}

/** The single-fetch URL of a page URL (what a JS-on form posts to). */
function dataUrl(url: string): string {
  const u = new URL(url, "http://x");
  return `${u.pathname === "/" ? "/_root" : u.pathname.replace(/\/$/, "")}.data${u.search}`;
}

// --- What the app reads, from its source -----------------------------------------

function sourceOf(id: string): string {
  for (const ext of [".tsx", ".ts"]) {
    try {
      return readFileSync(`app/${id}${ext}`, "utf8");
    } catch {
      // the other extension
    }
  }
  return "";
}

function allSource(dirs: string[]): string {
  // Recursive: feature folders (app/features/<feature>/schemas.ts) and route folders.
  return dirs.flatMap((d) => readdirSync(d, { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f)).map((f) => readFileSync(`${d}/${f}`, "utf8"))).join("\n");
}

function matches(text: string, re: RegExp): string[] {
  return [...new Set([...text.matchAll(re)].map((m) => m[1]))];
}

const SOURCE = allSource(["app/routes", "app/ui", "app/features", "app/lib", "app/http", "app/auth"]);
/** Every form field name the app reads or renders, and zod schema keys. */
const FIELDS = [
  ...new Set([
    ...matches(SOURCE, /\.get(?:All)?\("([\w.-]+)"\)/g),
    ...matches(SOURCE, /\bname="([\w.-]+)"/g),
    ...matches(SOURCE, /^\s+(\w+): z\./gm),
    "r1.delivery",
    "r1.bundle",
    "r1.amount",
    "line",
    "b.101",
  ]),
].sort();
/** Every query parameter a loader reads. */
const QUERY = [...new Set([...matches(SOURCE, /(?:searchParams|params)\.get\("([\w.-]+)"\)/g), "id", "sida", "from", "redirectTo"])].sort();

/** The intents (and other button values) a route's own file names. */
function intentsOf(id: string): string[] {
  const src = sourceOf(id);
  return [...new Set([...matches(src, /intent === "([\w-]+)"/g), ...matches(src, /case "([\w-]+)":/g), ...matches(src, /value="([a-z][\w-]*)"/g)])].sort();
}

// --- Bodies ------------------------------------------------------------------------

const BAD_NUMBERS = ["NaN", "1e309", "-1", "99999999999999999999", "Infinity"];
const HOSTILE = [...BAD_NUMBERS, "-0", "0", "9007199254740993", "0x1F", "1.5", " 7 ", "", "%E0%A4%A", "%ZZ", "\u0000", "a\r\nb", "\u202e1", "<script>x</script>", "x".repeat(5_000)];
const CONTROL_REDIRECTS = ["/\r\nSet-Cookie: x=1", "/\t/evil.example", "/\u0000", "/a\nb", "\u0007/"];
const B = "----malformed7MA4YWxkTrZu0gW";

type Body = { family: string; contentType?: string; body: Buffer | string };

// The form token of the role whose bodies are being built: every body a browser could
// send carries it first, so a well-formed body gets past the guard to the action itself.
let currentToken = "";
const withToken = (entries: [string, string][]): [string, string][] => (currentToken ? [["csrf", currentToken], ...entries] : entries);

function urlencoded(entries: [string, string][]): string {
  return new URLSearchParams(withToken(entries)).toString();
}

function multipart(given: [string, string][], boundary = B): string {
  const entries = withToken(given);
  return entries.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join("") + `--${boundary}--\r\n`;
}

/** The fixed families: each route gets every one of them. */
function fixedBodies(intents: string[]): Body[] {
  const some: [string, string][] = [["intent", intents[0] ?? "save"], ["id", "1"], ["kundnummer", "30001"]];
  const out: Body[] = [
    { family: "json", contentType: "application/json", body: JSON.stringify({ intent: intents[0] ?? "save", id: "NaN", kundnummer: 30001 }) },
    { family: "json-broken", contentType: "application/json", body: '{"intent": "sa' },
    { family: "text-plain", contentType: "text/plain", body: "intent=save\r\nid=1\r\n" },
    { family: "xml", contentType: "application/xml", body: "<form><intent>save</intent></form>" },
    { family: "no-content-type", body: urlencoded(some) },
    { family: "octet-stream", contentType: "application/octet-stream", body: Buffer.from([0, 1, 2, 0xff, 0xfe]) },
    { family: "multipart-no-boundary", contentType: "multipart/form-data", body: multipart(some) },
    { family: "multipart-truncated", contentType: `multipart/form-data; boundary=${B}`, body: multipart(some).slice(0, 80) },
    { family: "multipart-wrong-boundary", contentType: `multipart/form-data; boundary=${B}x`, body: multipart(some) },
    { family: "multipart-garbage", contentType: `multipart/form-data; boundary=${B}`, body: Buffer.from("\xff\xfe--garbage\r\n\r\n\x00", "latin1") },
    { family: "urlencoded-broken-percent", contentType: "application/x-www-form-urlencoded", body: `intent=%E0%A4%A&id=%ZZ&kundnummer=%&redirectTo=%0` },
    { family: "urlencoded-invalid-utf8", contentType: "application/x-www-form-urlencoded", body: Buffer.from([0x69, 0x64, 0x3d, 0xc3, 0x28, 0x26, 0xff, 0x3d, 0xfe]) },
    { family: "urlencoded-charset-odd", contentType: "application/x-www-form-urlencoded; charset=utf-16", body: urlencoded(some) },
  ];
  for (const to of CONTROL_REDIRECTS) out.push({ family: "redirectTo-control", contentType: "application/x-www-form-urlencoded", body: urlencoded([...some, ["redirectTo", to]]) });
  // Every field the app reads set to one bad number, with each intent of the route.
  for (const intent of [...intents, null]) {
    for (const n of BAD_NUMBERS) {
      const entries: [string, string][] = FIELDS.filter((f) => f !== "intent").map((f) => [f, n]);
      if (intent !== null) entries.unshift(["intent", intent]);
      out.push({ family: `ids-${n}`, contentType: "application/x-www-form-urlencoded", body: urlencoded(entries) });
    }
  }
  return out;
}

/** Random bodies: a content type, an intent, some fields with hostile values. */
function randomBody(intents: string[]): fc.Arbitrary<Body> {
  const value = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 12 }), fc.integer({ min: -3, max: 3 }).map(String));
  const entries = fc.tuple(
    fc.option(fc.oneof(fc.constantFrom(...(intents.length ? intents : ["save"])), fc.string({ maxLength: 8 })), { nil: null }),
    fc.array(fc.tuple(fc.constantFrom(...FIELDS), value), { maxLength: 12 }),
  );
  return fc.tuple(fc.constantFrom("urlencoded", "urlencoded-raw", "multipart", "multipart-cut", "json", "text/plain", "none"), entries, fc.nat()).map(([kind, [intent, fields], cut]) => {
    const list: [string, string][] = [...(intent === null ? [] : [["intent", intent] as [string, string]]), ...fields];
    switch (kind) {
      case "urlencoded":
        return { family: "random-urlencoded", contentType: "application/x-www-form-urlencoded", body: urlencoded(list) };
      case "urlencoded-raw":
        // Values not percent-encoded at all: stray %, &, = and bytes as they come.
        return { family: "random-urlencoded-raw", contentType: "application/x-www-form-urlencoded", body: withToken(list).map(([k, v]) => `${k}=${v}`).join("&") };
      case "multipart":
        return { family: "random-multipart", contentType: `multipart/form-data; boundary=${B}`, body: multipart(list) };
      case "multipart-cut": {
        const whole = multipart(list);
        return { family: "random-multipart-cut", contentType: `multipart/form-data; boundary=${B}`, body: whole.slice(0, cut % Math.max(1, whole.length - 1)) };
      }
      case "json":
        return { family: "random-json", contentType: "application/json", body: JSON.stringify(Object.fromEntries(list)) };
      case "text/plain":
        return { family: "random-text", contentType: "text/plain;charset=UTF-8", body: list.map(([k, v]) => `${k}=${v}`).join("\r\n") };
      default:
        return { family: "random-no-type", body: urlencoded(list) };
    }
  });
}

/**
 * What a family must be answered with once bodies are checked centrally. A multipart
 * body to an upload form streams to its route, which checks the user first (302/403)
 * and then answers 400 itself.
 */
function expectedStatus(family: string, url: string): number | null {
  if (/^(json|json-broken|text-plain|xml|no-content-type|octet-stream|random-json|random-text)$/.test(family)) return 415;
  const upload = new URL(url, "http://x").pathname.replace(/\.data$/, "") in UPLOAD_BODY_LIMITS;
  if (/^multipart-(no-boundary|truncated|wrong-boundary|garbage)$/.test(family) && !upload) return 400;
  return null;
}

// --- The server, its data and its users ---------------------------------------------

let server: OwnServer;
const cookie = {} as Record<Role, string>;
const ctx = {} as Record<Role, APIRequestContext>;
const RETAILER = 30001;
const password = "malformed-password-1";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // Staff log in once per action: without a second factor (it has tests of its own), so
  // no login waits for the next TOTP step.
  server = await startOwnServer("malformed", { THROTTLE_IP_LIMIT: "100000", STAFF_TOTP_ROLES: "none" });
  const db = server.db;
  await ensureTitlesAndEditions(db);
  for (const d of [1, 2]) await createDistributor(db, d);
  await createCustomer(db, { id: RETAILER, distributorId: 1, pin: "4321", name: "Kiosk Trasig" });
  const day = today();
  await createLabelBlock(db, { customerId: RETAILER, type: 0, status: "Levererad", fromDate: addDays(day, -30), toDate: addDays(day, 300), fromNumber: 101, toNumber: 150 });
  await createBundle(db, { customerId: RETAILER, number: 101, type: 0, open: true, closedDate: null });
  for (let i = 0; i < 3; i++) await createDelivery(db, { customerId: RETAILER, titleId: 1 + (i % 2), editionId: 1, deliveryDate: addDays(day, -i), delivered: 20, priceOre: 2200, reportedAt: null, received: null });
  const [holiday] = await db.insert(schema.holidays).values({ description: "Trasdagen", day: addDays(day, 5), startReportDay: addDays(day, -5), startForceReportDay: addDays(day, 3) }).returning();
  await db.insert(schema.holidayReports).values({ holidayId: holiday.id, customerId: RETAILER, open: true });
  for (const [role, roles, dist] of [["admin", "admin", null], ["sales", "sales", null], ["utb", "utb", 1], ["impersonated", "admin", null]] as const) {
    await createStaff(db, { email: `${role}@malformed.example`, name: `Trasig ${role}`, password, roles, distributorId: dist, totpSecret: null });
  }
  for (const role of ROLES) ctx[role] = await client(server.baseURL);
});

test.afterAll(async () => {
  for (const c of Object.values(ctx)) await c?.dispose();
  await server?.stop();
});

/** Logs every role in afresh (an action may have logged one out or switched it). */
async function logInAll() {
  for (const role of ROLES) {
    await ctx[role].dispose();
    ctx[role] = await client(server.baseURL);
    if (role === "retailer") await logIn(ctx[role], RETAILER, "4321");
    else if (role !== "anon") await logIn(ctx[role], `${role}@malformed.example`, password);
    if (role === "impersonated") {
      const res = await ctx[role].post("/admin/kund/oppna", { form: { kundnummer: String(RETAILER), csrf: await formToken(ctx[role]) }, maxRedirects: 0 });
      expect(res.status(), "admin opens the retailer's portal").toBe(302);
    }
    cookie[role] = (await ctx[role].storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    token[role] = role === "anon" ? "" : await formToken(ctx[role]);
  }
}

type Tally = { requests: number; fivexx: string[]; wrong: string[]; byStatus: Record<number, number>; combos: Set<string>; badCombos: Set<string> };
const tally = (): Tally => ({ requests: 0, fivexx: [], wrong: [], byStatus: {}, combos: new Set(), badCombos: new Set() });

function record(t: Tally, what: string, combo: string, res: RawAnswer, want: number | null) {
  t.requests++;
  t.byStatus[res.status] = (t.byStatus[res.status] ?? 0) + 1;
  t.combos.add(combo);
  if (res.status >= 500) {
    t.fivexx.push(`${res.status} ${what}`);
    t.badCombos.add(combo);
  } else if (want !== null && res.status !== want) {
    t.wrong.push(`${res.status} (want ${want}) ${what}`);
  } else if (want !== null && !(/text\/html/.test(String(res.headers["content-type"])) && /Förfrågan|Formuläret/.test(res.body))) {
    t.wrong.push(`${res.status} ${what}: not a Swedish HTML page: ${String(res.headers["content-type"])} ${res.body.slice(0, 120)}`);
  }
}

function report(name: string, t: Tally) {
  console.log(
    `[malformed] ${name}: ${t.requests} requests, ${t.combos.size} route×body combos, ${t.badCombos.size} with a 5xx (${t.fivexx.length} answers), statuses ${JSON.stringify(t.byStatus)}`,
  );
  const perRoute = new Map<string, string[]>();
  for (const combo of t.badCombos) {
    const [route, family] = combo.split("|");
    perRoute.set(route, [...(perRoute.get(route) ?? []), family]);
  }
  for (const [route, families] of perRoute) console.log(`  5xx ${route}: ${families.length} bodies (${families.join(", ").slice(0, 300)})`);
  if (t.fivexx.length) console.log(t.fivexx.slice(0, 10).join("\n"));
  if (t.wrong.length) console.log(t.wrong.slice(0, 20).join("\n"));
}

test("POST: malformed bodies to every action, as every role, never give a 5xx", async () => {
  test.setTimeout(600_000);
  const routes = await manifest();
  const param = (name: string) => (name === "reportState" ? "1" : name === "file" ? "1.pdf" : "1");
  // Logging out, going back to staff and opening a portal change who a context is: last.
  const late = ["routes/logout", "routes/tillbaka-till-personal", "routes/_staff.admin.kund.oppna"];
  const ids = Object.keys(routes)
    .filter((id) => routes[id].module.action && urlOf(routes, id, param))
    .sort((x, y) => late.indexOf(x) - late.indexOf(y) || x.localeCompare(y));
  expect(ids.length, "actions in the manifest").toBeGreaterThan(15);
  const t = tally();
  for (const id of ids) {
    const url = urlOf(routes, id, param)!;
    const intents = intentsOf(id);
    await logInAll();
    for (const role of ROLES) {
      currentToken = token[role];
      for (const b of fixedBodies(intents)) {
        const headers: Record<string, string> = { cookie: cookie[role] };
        if (b.contentType) headers["content-type"] = b.contentType;
        const res = await raw(server.baseURL, "POST", url, headers, b.body);
        record(t, `POST ${url} as ${role}: ${b.family}`, `${id}|${b.family}`, res, expectedStatus(b.family, url));
      }
      await fc.assert(
        fc.asyncProperty(randomBody(intents), fc.boolean(), async (b, single) => {
          const headers: Record<string, string> = { cookie: cookie[role] };
          if (b.contentType) headers["content-type"] = b.contentType;
          const to = single ? dataUrl(url) : url;
          const res = await raw(server.baseURL, "POST", to, headers, b.body);
          record(t, `POST ${to} as ${role}: ${b.family} ${String(b.body).slice(0, 200)}`, `${id}|${b.family}`, res, expectedStatus(b.family, to));
        }),
        { numRuns: 8 },
      );
    }
  }
  report("POST", t);
  expect(t.fivexx, "answers with a 5xx").toEqual([]);
  expect(t.wrong, "answers other than the expected 400/415 page").toEqual([]);
});

test("GET: garbage query strings and path parameters to every loader, as every role, never give a 5xx", async () => {
  test.setTimeout(600_000);
  const routes = await manifest();
  await logInAll();
  const t = tally();
  const values = ["NaN", "1e309", "-1", "99999999999999999999", "%ZZ", "%E0%A4%A", "%00", "%0D%0A", "Infinity", "0x1F"];
  const ids = Object.keys(routes).filter((id) => routes[id].module.loader && urlOf(routes, id, () => "1") && id !== "routes/logout");
  for (const id of ids.sort()) {
    for (const role of ROLES) {
      for (const v of values) {
        // The value as it stands (already percent-encoded or deliberately broken).
        const url = urlOf(routes, id, (name) => (name === "file" ? `${v}.pdf` : v))!;
        const query = QUERY.map((q) => `${q}=${v}`).join("&");
        const full = `${url}${url.includes("?") ? "&" : "?"}${query}`;
        const res = await raw(server.baseURL, "GET", full, { cookie: cookie[role] });
        record(t, `GET ${full.slice(0, 160)} as ${role}`, `${id}|${v}`, res, null);
      }
    }
    // Random subsets of parameters with random values.
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROLES), fc.array(fc.tuple(fc.constantFrom(...QUERY), fc.oneof(fc.constantFrom(...values, ...CONTROL_REDIRECTS.map(encodeURIComponent)), fc.string({ maxLength: 10 }).map(encodeURIComponent))), { minLength: 1, maxLength: 4 }), async (role, pairs) => {
        const url = urlOf(routes, id, () => "1")!;
        const full = `${url}${url.includes("?") ? "&" : "?"}${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`;
        const res = await raw(server.baseURL, "GET", full, { cookie: cookie[role] });
        record(t, `GET ${full.slice(0, 160)} as ${role}`, `${id}|random`, res, null);
      }),
      { numRuns: 10 },
    );
  }
  // Named in the issue.
  for (const path of ["/admin/invoice?id=NaN", "/admin/invoice?redigera=NaN&sida=1e309", "/login?redirectTo=/%0D%0Aevil", "/login?redirectTo=%ZZ"]) {
    for (const role of ROLES) record(t, `GET ${path} as ${role}`, `named|${path}`, await raw(server.baseURL, "GET", path, { cookie: cookie[role] }), null);
  }
  report("GET", t);
  expect(t.fivexx, "answers with a 5xx").toEqual([]);
});
