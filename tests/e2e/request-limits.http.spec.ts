// Request bodies are limited before they are read. 200 MB sent to the
// login form chunked, with a true and with a lying Content-Length, and to the cover
// upload as admin: 413 with the Swedish page within seconds and the connection closed
// long before the body is through, while other requests keep answering and the
// server's memory stays flat. Forms just over 64 kB, 1001 fields and 4 files are
// refused too; forms under the limits are not. A server of its own (its RSS is read
// from /proc).
import { expect, test } from "@playwright/test";
import { createCustomer, createDistributor, createStaff, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { client, formTokenOf, logIn, startOwnServer, type OwnServer } from "./own-server";
import { floodSocket, pidListeningOn, raw, rssMb, streamBody } from "./raw-http";

test.describe.configure({ mode: "serial" });

const MB = 1024 * 1024;
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const TOO_LARGE = "Förfrågan är för stor och togs inte emot.";
const TOO_MANY = "Förfrågan har för många fält eller filer och togs inte emot.";
const B = "----limits9k2JxYz";

let server: OwnServer;
let pid: number;
let admin = "";
let adminToken = "";
let retailer = "";

async function cookieOf(name: string | number, secret: string): Promise<string> {
  const ctx = await client(server.baseURL);
  await logIn(ctx, name, secret);
  const cookie = (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  await ctx.dispose();
  return cookie;
}

function multipart(fields: [string, string][], files: { name: string; bytes: Buffer }[] = []): Buffer {
  const parts: Buffer[] = fields.map(([k, v]) => Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: image/png\r\n\r\n`), f.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${B}--\r\n`));
  return Buffer.concat(parts);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startOwnServer("request-limits", { THROTTLE_IP_LIMIT: "100000" });
  await ensureTitlesAndEditions(server.db);
  await createDistributor(server.db, 1);
  await createCustomer(server.db, { id: 30101, distributorId: 1, pin: "4321", name: "Kiosk Gräns" });
  await createStaff(server.db, { email: "admin@limits.example", name: "Gräns admin", password: "limits-password-1", roles: "admin", distributorId: null });
  admin = await cookieOf("admin@limits.example", "limits-password-1");
  adminToken = await formTokenOf(server.baseURL, admin);
  retailer = await cookieOf(30101, "4321");
  const found = pidListeningOn(server.port);
  expect(found, "the server's process").not.toBeNull();
  pid = found!;
});

test.afterAll(async () => {
  await server?.stop();
});

test("200 MB to the login form, chunked, with a huge Content-Length and with a true one: 413 within seconds, connection closed early", async () => {
  test.setTimeout(240_000);
  const cases: [string, Record<string, string>][] = [
    ["chunked, no Content-Length", { ...FORM }],
    ["Content-Length 10 GB (a lie)", { ...FORM, "content-length": String(10 * 1024 * MB) }],
    ["Content-Length 200 MB", { ...FORM, "content-length": String(200 * MB) }],
  ];
  for (const [what, headers] of cases) {
    const r = await streamBody(server.baseURL, "/login", headers, 200 * MB);
    console.log(`[limits] login, ${what}: ${r.status} after ${r.msToAnswer} ms, ${Math.round(r.sentBeforeAnswer / 1024)} kB sent before the answer, ${Math.round(r.sent / MB)} MB in all, closed after ${r.msToClose} ms`);
    expect(r.status, what).toBe(413);
    expect(r.body, what).toContain(TOO_LARGE);
    // Answered before the body was read (the client stops when the answer comes); how fast is
    // not asserted on a machine the other tests share.
    expect(r.sent, `${what}: the client could stop early`).toBeLessThan(50 * MB);
  }
  // A client that does not stop: the server throws away what still comes for a moment
  // (lingering close, at most 2 s or 32 MB), then closes the connection.
  for (const [what, headers] of cases) {
    const r = await floodSocket(server.baseURL, "/login", headers, 200 * MB);
    console.log(`[limits] login, ${what}, client keeps sending: ${r.status} after ${r.msToAnswer} ms, ${Math.round(r.sent / MB)} MB sent before the server closed the connection after ${r.msToClose} ms`);
    expect([0, 413], what).toContain(r.status);
    // The server closed the connection long before the 200 MB were sent (how soon is logged
    // above: a timing, not a behaviour).
    expect(r.sent, `${what}: the server stops reading and closes`).toBeLessThan(50 * MB);
  }
});

test("200 MB chunked to the cover upload as admin: refused, and reading stops, long before the end", async () => {
  test.setTimeout(120_000);
  // The form token first (as the browser sends it), then a field that never ends.
  const prefix = Buffer.from(
    `--${B}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${adminToken}\r\n--${B}\r\nContent-Disposition: form-data; name="beskrivning"\r\n\r\n`,
  );
  const r = await streamBody(server.baseURL, "/admin/dailyproducts", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin }, 200 * MB, { prefix });
  console.log(`[limits] cover upload, chunked: ${r.status} after ${r.msToAnswer} ms, ${Math.round(r.sentBeforeAnswer / MB)} MB sent before the answer, closed after ${r.msToClose} ms`);
  // A field that outgrows the form's part limit ends the form there: the action answers with
  // its own refusal (400, "Välj titel") before the 8 MB body limit is met; either way the
  // server stops reading within seconds.
  expect([400, 413]).toContain(r.status);
  expect(r.body).toContain(r.status === 413 ? TOO_LARGE : "Välj titel");
  expect(r.sent).toBeLessThan(60 * MB);
  // A body declared larger than the limit is refused unread; one under it reaches the form.
  const big = await raw(server.baseURL, "POST", "/admin/dailyproducts", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin, "content-length": String(12 * MB) }, Buffer.alloc(0)).catch((e: Error) => ({ status: -1, body: String(e), ms: 0 }));
  expect(big.status, "12 MB declared").toBe(413);
  const cover = multipart([["csrf", adminToken], ["intent", "upload"], ["titleId", "1"], ["edition", "1:1"], ["date", "2032-02-02"]], [{ name: "big.png", bytes: Buffer.alloc(7 * MB) }]);
  const seven = await raw(server.baseURL, "POST", "/admin/dailyproducts", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin }, cover);
  expect(seven.status, "a 7 MB cover gets the form's own message").toBe(400);
  expect(seven.body).toContain("Filen är större än 2 MB.");
});

test("three parallel 200 MB floods: other pages keep answering and the server's memory stays flat", async () => {
  test.setTimeout(180_000);
  const baseline = rssMb(pid);
  const until = Date.now() + 8_000;
  const results: { status: number; ms: number; sent: number }[] = [];
  const flood = async (path: string, headers: Record<string, string>) => {
    while (Date.now() < until) {
      const r = await streamBody(server.baseURL, path, headers, 200 * MB, { giveUpMs: 30_000 });
      results.push({ status: r.status, ms: r.msToAnswer, sent: r.sent });
    }
  };
  const others: { what: string; status: number; ms: number }[] = [];
  let peak = baseline;
  const watch = async () => {
    while (Date.now() < until) {
      const [login, page] = await Promise.all([raw(server.baseURL, "GET", "/login"), raw(server.baseURL, "GET", "/kontakt", { cookie: retailer })]);
      others.push({ what: "GET /login", status: login.status, ms: login.ms }, { what: "GET /kontakt (retailer)", status: page.status, ms: page.ms });
      peak = Math.max(peak, rssMb(pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await Promise.all([
    flood("/login", { ...FORM }),
    flood("/login", { ...FORM, "content-length": String(200 * MB) }),
    flood("/admin/messages", { ...FORM, cookie: admin }),
    watch(),
  ]);
  const slowest = Math.max(...others.map((o) => o.ms));
  const median = others.map((o) => o.ms).sort((a, b) => a - b)[Math.floor(others.length / 2)];
  console.log(
    `[limits] flood: ${results.length} bodies of 200 MB refused (statuses ${JSON.stringify(results.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {}))}, slowest answer ${Math.max(...results.map((r) => r.ms))} ms); ${others.length} other requests meanwhile: median ${median} ms, slowest ${slowest} ms; server RSS ${baseline} MB before, peak ${peak} MB`,
  );
  expect(results.length).toBeGreaterThanOrEqual(3);
  // A flooding client that gets more than the 16 MB lingering bound out before it reads
  // the answer is cut off without one (status 0); every other one has its 413.
  const unanswered = results.filter((r) => r.status !== 413);
  console.log(`[limits] flood: unanswered ${unanswered.length}, sent ${unanswered.map((r) => Math.round(r.sent / MB)).join(", ")} MB`);
  expect(unanswered.filter((r) => r.status !== 0 || r.sent <= 16 * MB), JSON.stringify(unanswered.slice(0, 5))).toEqual([]);
  expect(unanswered.length).toBeLessThan(results.length / 20);
  expect(others.every((o) => o.status === 200), JSON.stringify(others.filter((o) => o.status !== 200).slice(0, 3))).toBe(true);
  // Answered all through the flood, round after round (a stalled server answers few); how
  // quickly is measured by the bench, not asserted here.
  expect(others.length, "other requests answered during the flood").toBeGreaterThanOrEqual(8);
  expect(peak - baseline, "server memory growth (MB)").toBeLessThan(150);
});

test("just over the limits: a 65 kB form, 1,001 fields, 4 files → 413; just under them the form is read", async () => {
  const over = "pinkod=" + "1".repeat(65 * 1024);
  const cases: [string, string, Record<string, string>, Buffer | string, number, string][] = [
    ["65 kB login form", "/login", { ...FORM }, over, 413, TOO_LARGE],
    ["65 kB staff form", "/admin/messages", { ...FORM, cookie: admin }, over, 413, TOO_LARGE],
    ["1,001 fields", "/admin/messages", { ...FORM, cookie: admin }, Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join("&"), 413, TOO_MANY],
    ["4 files to an ordinary form", "/admin/messages", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin }, multipart([["intent", "save"]], [1, 2, 3, 4].map((i) => ({ name: `${i}.png`, bytes: Buffer.from("x") }))), 413, TOO_MANY],
    ["4 files to the cover upload", "/admin/dailyproducts", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin }, multipart([["csrf", adminToken], ["intent", "upload"]], [1, 2, 3, 4].map((i) => ({ name: `${i}.png`, bytes: Buffer.from("x") }))), 413, TOO_MANY],
    ["1,001 fields to the order upload", "/admin/invoice", { "content-type": `multipart/form-data; boundary=${B}`, cookie: admin }, multipart([["csrf", adminToken], ...Array.from({ length: 1000 }, (_, i): [string, string] => [`f${i}`, "1"])]), 413, TOO_MANY],
    // Under the limits the action reads the form and answers as it always has (-1: not 413).
    ["63 kB login form", "/login", { ...FORM }, "kundnummer=abc&pinkod=" + "1".repeat(63 * 1024), -1, "Kundnummer"],
    ["1,000 fields", "/login", { ...FORM }, "kundnummer=abc&" + Array.from({ length: 999 }, (_, i) => `f${i}=1`).join("&"), -1, "Kundnummer"],
  ];
  for (const [what, path, headers, body, status, text] of cases) {
    const r = await raw(server.baseURL, "POST", path, headers, body);
    if (status === -1) expect([r.status < 500, r.status !== 413], what).toEqual([true, true]);
    else expect(r.status, what).toBe(status);
    expect(r.body, what).toContain(text);
    expect(String(r.headers["content-type"]), what).toContain("text/html");
  }
});
