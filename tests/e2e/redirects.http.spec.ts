// Every route that takes a redirect target keeps the browser on the site. Logs in
// (retailer and admin, on both login pages) with each payload as `redirectTo`, asks the
// login pages with it while logged in, renders their forms with it, and closes the alerts
// dialog with it; every Location header, resolved as a browser does (WHATWG URL
// parser: tabs and newlines dropped, `\` read as `/`), must stay on this origin.
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { createCustomer, createDistributor, createStaff } from "../../cli/seed/factories";
import { redirectPayloads } from "../redirect-payloads";
import { client, formToken, logIn, startOwnServer, type OwnServer } from "./own-server";

test.describe.configure({ mode: "serial" });

const PAYLOADS = redirectPayloads(90);
const RETAILER = 42001;
let server: OwnServer;
let anon: APIRequestContext;
let retailer: APIRequestContext;
let admin: APIRequestContext;
const tally = { requests: 0, offSite: 0, notRedirected: 0 };
let offSite: string[] = [];
test.beforeEach(() => {
  offSite = [];
});

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("redirects");
  await createDistributor(server.db, 1);
  await createCustomer(server.db, { id: RETAILER, distributorId: 1, pin: "4321" });
  await createStaff(server.db, { email: "admin@redirects.example", name: "Admin", password: "redirects-pass-1", roles: "admin" });
  anon = await client(server.baseURL);
  retailer = await client(server.baseURL);
  admin = await client(server.baseURL);
  await logIn(retailer, RETAILER, "4321");
  await logIn(admin, "admin@redirects.example", "redirects-pass-1");
});

test.afterAll(async () => {
  for (const c of [anon, retailer, admin]) await c?.dispose();
  await server?.stop();
  console.log(`redirects: ${PAYLOADS.length} payloads, ${tally.requests} requests, ${tally.offSite} off the site, ${tally.notRedirected} not a redirect`);
});

/** Where a browser goes with this Location (or form action / hidden value). */
function landsOnSite(target: string, payload: string, where: string) {
  const origin = new URL(server.baseURL).origin;
  let landed: string;
  try {
    landed = new URL(target, `${server.baseURL}/login`).origin;
  } catch {
    landed = "unparsable";
  }
  if (landed === origin) return;
  tally.offSite++;
  offSite.push(`${where}: ${JSON.stringify(payload)} -> ${JSON.stringify(target)}`);
}

function location(res: APIResponse, payload: string, where: string, status = 302) {
  tally.requests++;
  // Anything but the redirect (a 500 for a CR in the Location, say) is a failure too.
  if (res.status() !== status) {
    tally.notRedirected++;
    offSite.push(`${where}: ${JSON.stringify(payload)} -> status ${res.status()}`);
    return;
  }
  const target = res.headers()["location"];
  landsOnSite(target, payload, where);
  // A redirect to a login page carries its own redirectTo on: that one stays on the site too.
  const carried = new URL(target, `${server.baseURL}/login`).searchParams.get("redirectTo");
  if (carried !== null) landsOnSite(carried, payload, `${where} (carried on)`);
}

/** A few at a time: the machine is shared. */
async function each(fn: (payload: string) => Promise<void>) {
  const queue = [...PAYLOADS];
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) await fn(p);
    }),
  );
}

const q = (payload: string, page = "/login") => `${page}?redirectTo=${encodeURIComponent(payload)}`;

async function loginPageKeepsOnSite(payload: string, page: string) {
  const res = await anon.get(q(payload, page), { maxRedirects: 0 });
  // /login sends a staff page's redirectTo on to the staff login page: on the site.
  if (page === "/login" && res.status() === 302) return location(res, payload, "login page");
  tally.requests++;
  if (res.status() !== 200) offSite.push(`${page}: ${JSON.stringify(payload)} -> status ${res.status()}`);
  const html = await res.text();
  const action = /<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? "";
  const hidden = /name="redirectTo" value="([^"]*)"/.exec(html)?.[1];
  const unescape = (s: string) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  const carried = new URL(unescape(action), server.baseURL).searchParams.get("redirectTo");
  for (const target of [carried, hidden === undefined ? null : unescape(hidden)]) if (target !== null) landsOnSite(target, payload, `${page} form`);
}

test("the login pages render redirectTo only as a path on the site", async () => {
  await each(async (payload) => {
    for (const page of ["/login", "/personal/logga-in"]) await loginPageKeepsOnSite(payload, page);
  });
  expect(offSite).toEqual([]);
});

test("a retailer logging in with redirectTo is sent to a path on the site", async () => {
  await each(async (payload) => {
    const c = await client(server.baseURL);
    const res = await c.post(q(payload), { form: { kundnummer: String(RETAILER), pinkod: "4321", redirectTo: payload }, maxRedirects: 0 });
    location(res, payload, "retailer login");
    await c.dispose();
  });
  expect(offSite).toEqual([]);
});

test("staff logging in with redirectTo is sent to a path on the site", async () => {
  await each(async (payload) => {
    const c = await client(server.baseURL);
    // The retailers' box sends an address on to the staff page (303), its target with it.
    const res = await c.post(q(payload), { form: { kundnummer: "admin@redirects.example", pinkod: "redirects-pass-1", redirectTo: payload }, maxRedirects: 0 });
    location(res, payload, "staff address on /login", 303);
    await c.dispose();
    const d = await client(server.baseURL);
    const own = await d.post(q(payload, "/personal/logga-in"), { form: { epost: "admin@redirects.example", losenord: "redirects-pass-1", redirectTo: payload }, maxRedirects: 0 });
    location(own, payload, "staff login on /personal/logga-in");
    await d.dispose();
  });
  expect(offSite).toEqual([]);
});

test("/login while logged in, and the alerts dialog's Stäng, redirect only on the site", async () => {
  const token = await formToken(retailer);
  await each(async (payload) => {
    location(await retailer.get(q(payload), { maxRedirects: 0 }), payload, "retailer GET /login");
    location(await admin.get(q(payload), { maxRedirects: 0 }), payload, "staff GET /login");
    location(await admin.get(q(payload, "/personal/logga-in"), { maxRedirects: 0 }), payload, "staff GET /personal/logga-in");
    location(await retailer.post("/aviseringar", { form: { redirectTo: payload, csrf: token }, maxRedirects: 0 }), payload, "POST /aviseringar");
  });
  expect(offSite).toEqual([]);
});

test("own paths still come back", async () => {
  const c = await client(server.baseURL);
  const res = await c.post(q("/historik?manad=2026-03"), { form: { kundnummer: String(RETAILER), pinkod: "4321", redirectTo: "/historik?manad=2026-03" }, maxRedirects: 0 });
  expect(res.headers()["location"]).toBe("/historik?manad=2026-03");
  await c.dispose();
  const closed = await retailer.post("/aviseringar", { form: { redirectTo: "/foljesedel", csrf: await formToken(retailer) }, maxRedirects: 0 });
  expect(closed.headers()["location"]).toBe("/foljesedel");
});
