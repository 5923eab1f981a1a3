// `npm run bench`: the national-scale figures. Starts the production build
// on 127.0.0.1 against generated databases, drives it with autocannon from this
// machine (bounded in count and time), and compares every timing with a reference
// measured in the same run. Prints one table, writes bench/results.json and
// bench/RESULTS.md.
import { createClient } from "@libsql/client";
import { createCookie } from "@remix-run/node";
import autocannon from "autocannon";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { b11, failures, p95, slowest, type B11 } from "./b11";
import { b12, type Morning, type MorningProfile } from "./b12";
import { b13, p95Of, type B13 } from "./b13";
import { b14, type B14 } from "./b14";
import { b15, type B15 } from "./b15";
import { b16 } from "./b16";
import { b17, b17Suggestions } from "./b17";
import { b18 } from "./b18";
import { checkStored, DATA, ensureDb, getLoad, gzipSize, log, median, SMOKE, startServer, summarize, timeIt, type Load } from "./lib";

type Row = {
  id: string;
  what: string;
  value: number;
  unit: string;
  reference?: number;
  ratio?: number;
  target: string;
  pass: boolean;
};
const rows: Row[] = [];
const curve: {
  customers: number;
  b1: number;
  b1Ref: number;
  b3: number;
  b3Ref: number;
  deliveries: number;
}[] = [];
const plans: Record<string, string> = {};

const quick = process.argv.includes("--quick");
const SECONDS = SMOKE ? 1 : quick ? 4 : 12;
const ROUNDS = SMOKE ? 1 : quick ? 2 : 4;
/** Load rounds of a page against its reference, and the seconds of each. */
const PAGE_ROUNDS = SMOKE ? 1 : quick ? 2 : 6;
const ROUND_SECONDS = SMOKE ? 1 : 2;
/** How often a one-off figure is taken (the median is the figure). */
const RUNS = SMOKE ? 1 : 3;
/**
 * The national database (6,500 shops, 90 days; customers up to B2_UPTO are B2's, the rest
 * B9's), or the smoke's small one.
 */
const NATIONAL = SMOKE ? { customers: 400, days: 21, b2Upto: 200 } : { customers: 6500, days: 90, b2Upto: 3000 };

function combine(loads: Load[]): Load {
  const total = loads.reduce((n, l) => n + l.total, 0);
  return {
    rps: loads.reduce((n, l) => n + l.rps, 0) / loads.length,
    p50: median(loads.map((l) => l.p50)),
    p99: Math.max(...loads.map((l) => l.p99)),
    errors: loads.reduce((n, l) => n + l.errors, 0),
    non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
    total,
  };
}
const CONNECTIONS = 20;
const PORT = 3950;

function add(row: Row) {
  rows.push(row);
  log(
    `${row.id} ${row.what}: ${row.value.toFixed(2)} ${row.unit}${
      row.ratio !== undefined ? ` (ratio ${row.ratio.toFixed(2)})` : ""
    }${SMOKE ? "" : row.pass ? " PASS" : " FAIL"}`
  );
}

function copyDb(from: string, to: string) {
  for (const s of ["", "-wal", "-shm"]) rmSync(to + s, { force: true });
  copyFileSync(from, to);
}

async function today(): Promise<string> {
  const { today } = await import("../app/lib/dates");
  return today();
}

/** Sessions made straight in the database (logging 2,000 retailers in would cost minutes of scrypt). */
/** The form token the bench's sessions hold; their posts send it. */
const benchFormToken = (customerId: number) => `bench-form-token-${customerId}`;

async function makeSessions(dbFile: string, customerIds: number[]): Promise<Map<number, string>> {
  const client = createClient({ url: `file:${dbFile}` });
  const cookie = createCookie("rp_session", {
    httpOnly: true,
    sameSite: "lax",
    secure: false,
    path: "/",
    secrets: ["bench-session-secret-not-for-production"],
  });
  const now = Date.now();
  const out = new Map<number, string>();
  const stmts = [];
  for (const id of customerIds) {
    const sid = randomBytes(32).toString("base64url");
    stmts.push({
      sql: "insert into sessions (id, customer_id, data, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?, ?)",
      args: [sid, id, JSON.stringify({ customerId: id, csrf: benchFormToken(id) }), now, now, now + 12 * 3600_000],
    });
    out.set(id, (await cookie.serialize(sid)).split(";")[0]);
  }
  await client.batch(stmts, "write");
  client.close();
  return out;
}

async function pageJsAndHtml(url: string, cookie: string) {
  const html = await (await fetch(`${url}/rapportering/1`, { headers: { cookie } })).text();
  const assets = [...new Set([...html.matchAll(/\/assets\/[A-Za-z0-9._-]+\.js/g)].map((m) => m[0]))];
  let js = 0;
  for (const a of assets) js += gzipSize(new Uint8Array(await (await fetch(url + a)).arrayBuffer()));
  return { htmlGzip: gzipSize(html), jsGzip: js, chunks: assets.length, html };
}

/**
 * B3: the staff distribution loader against its reference, the plain aggregate the
 * screen needs straight through @libsql/client. The two alternate, run for run, so a
 * noisy neighbour slows both alike; each figure is the median of its runs.
 */
async function distribution(dbFile: string, from: string, to: string, runs = SMOKE ? 1 : 7): Promise<{ ms: number; refMs: number }> {
  const client = createClient({ url: `file:${dbFile}` });
  const q = {
    sql: `select c.distributor_id, d.customer_id, count(*) as n, sum(abs(d.delivered - d.received)) as amount,
            sum(abs(d.delivered - d.received) * d.price_ore) as price
          from deliveries d join customers c on c.id = d.customer_id
          where d.received is not null and d.delivery_date between ? and ?
          group by d.customer_id`,
    args: [from, to],
  };
  plans.B3_reference = (await client.execute({ sql: `explain query plan ${q.sql}`, args: q.args })).rows
    .map((r) => r.detail)
    .join("\n");
  process.env.DATABASE_URL = `file:${dbFile}`;
  const { closeDb } = await import("../db/client");
  closeDb();
  // What the loader of /admin/distribution reads for the page.
  const { getDistributionOverview, listDistributors, listEditions } = await import("../app/features/distribution/distribution.server");
  const query = { from, to, excludeDates: [], distributorIds: [], editions: [] };
  const scope = { distributorIds: null };
  const loader = () => Promise.all([getDistributionOverview(query, scope), listDistributors(scope), listEditions()]);
  const reference = () => client.execute(q);
  await loader();
  await reference();
  const times: number[] = [];
  const refTimes: number[] = [];
  const time = async (fn: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    await fn();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < runs; i++) {
    await time(reference, refTimes);
    await time(loader, times);
  }
  closeDb();
  client.close();
  return { ms: median(times), refMs: median(refTimes) };
}

async function b1(url: string, dbFile: string, customers: number) {
  const ids = Array.from({ length: 200 }, (_, i) => 1 + Math.floor((i * customers) / 200));
  const cookies = [...(await makeSessions(dbFile, ids)).values()];
  // Both are warmed up first (JIT, SQLite's page cache), then alternate in short
  // rounds, so a noisy neighbour hits both alike.
  const page = { connections: CONNECTIONS, seconds: 1, cookies };
  await getLoad(url, "/login", { connections: CONNECTIONS, seconds: 1 });
  await getLoad(url, "/rapportering/1", page);
  const refs: Load[] = [];
  const loads: Load[] = [];
  for (let round = 0; round < PAGE_ROUNDS; round++) {
    refs.push(await getLoad(url, "/login", { connections: CONNECTIONS, seconds: ROUND_SECONDS }));
    loads.push(await getLoad(url, "/rapportering/1", { ...page, seconds: ROUND_SECONDS }));
  }
  const load = combine(loads);
  if (load.non2xx > 0 || load.errors > 0) throw new Error(`B1: ${load.non2xx} non-2xx, ${load.errors} errors`);
  return { ref: combine(refs), load, cookies };
}

async function b2(url: string, dbFile: string) {
  // Every request reports 5 unreported papers of a different retailer into its open
  // bundles; one in ten is sent twice with the same form token (a double click).
  const client = createClient({ url: `file:${dbFile}` });
  const papers = (
    await client.execute(`
      select d.id, d.customer_id as customerId, d.delivered, e.type,
        (select b.number from bundles b where b.customer_id = d.customer_id and b.open = 1 and b.type = e.type order by b.number desc limit 1) as bundle
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where d.reported_at is null and d.customer_id <= ${NATIONAL.b2Upto}
      order by d.customer_id, d.id`)
  ).rows as unknown as {
    id: number;
    customerId: number;
    delivered: number;
    type: number;
    bundle: number | null;
  }[];
  client.close();
  const byCustomer = new Map<number, typeof papers>();
  for (const p of papers)
    if (p.bundle !== null) byCustomer.set(p.customerId, [...(byCustomer.get(p.customerId) ?? []), p]);
  const customers = [...byCustomer.entries()].filter(([, ps]) => ps.length >= 5).slice(0, SMOKE ? 100 : quick ? 600 : 2000);
  const cookies = await makeSessions(
    dbFile,
    customers.map(([id]) => id)
  );
  type Req = {
    customerId: number;
    body: string;
    lines: { id: number; amount: number }[];
    acked: number;
  };
  const reqs: Req[] = customers.map(([customerId, ps]) => {
    const form = new URLSearchParams({ csrf: benchFormToken(customerId), intent: "save", token: randomUUID() });
    const lines = ps.slice(0, 5).map((p, i) => ({
      id: p.id,
      amount: 1 + ((p.id + i) % Math.min(5, p.delivered)),
      bundle: p.bundle!,
    }));
    for (const l of lines) {
      form.append("line", `d${l.id}`);
      form.append(`d${l.id}.delivery`, String(l.id));
      form.append(`d${l.id}.bundle`, String(l.bundle));
      form.append(`d${l.id}.amount`, String(l.amount));
      form.append(`d${l.id}.dflt`, "");
    }
    return { customerId, body: form.toString(), lines, acked: 0 };
  });
  const sequence: Req[] = [];
  reqs.forEach((r, i) => {
    sequence.push(r);
    if (i % 10 === 5) sequence.push(reqs[i - 3]);
  });
  let next = 0;
  const refs: Load[] = [];
  const loads: Load[] = [];
  const perRound = Math.ceil(sequence.length / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    refs.push(
      await getLoad(url, "/login", {
        connections: CONNECTIONS,
        seconds: SECONDS / ROUNDS,
      })
    );
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: Math.min(perRound, sequence.length - next),
      requests: [
        {
          method: "POST",
          setupRequest: (req: autocannon.Request, context: object) => {
            const r = sequence[next++ % sequence.length];
            (context as { r?: Req }).r = r;
            return {
              ...req,
              path: "/rapportering/1",
              headers: {
                "content-type": "application/x-www-form-urlencoded",
                cookie: cookies.get(r.customerId)!,
              },
              body: r.body,
            } as autocannon.Request;
          },
          onResponse: (status: number, _body: string, context: object) => {
            const r = (context as { r?: Req }).r;
            if (r && status === 302) r.acked++;
          },
        },
      ],
    });
    loads.push(summarize(result));
  }
  const load = combine(loads);
  const ref = combine(refs);
  const { lost, doubled, unacked } = await checkStored(dbFile, reqs);
  return {
    load,
    ref,
    lost,
    doubled,
    unacked,
    sent: sequence.length,
    ratio: load.rps / ref.rps,
  };
}

/**
 * B9: a slow phone on a bad connection — Chromium with the CPU slowed ×6
 * and a 400 kbps / 400 ms link (CDP emulation), a 360 px screen. For /login and
 * /rapportering/1: when the form is on screen (the HTML alone: the first field visible)
 * and when the page is hydrated (the root's effect stamps <html data-hydrated>), both in
 * ms from the start of the navigation, median of three fresh loads. And the confirm step:
 * from pressing "Spara och fortsätt" on a filled row to the confirm page's heading, with
 * JavaScript on and off (three retailers each).
 */
async function b9(url: string, dbFile: string) {
  const { chromium } = await import("@playwright/test");
  const { existsSync } = await import("node:fs");
  const exe = "/usr/bin/chromium";
  const args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
  const browser = await chromium.launch(existsSync(exe) ? { executablePath: exe, args } : { args });
  // Retailers B2 does not touch (it takes numbers up to NATIONAL.b2Upto), each with an unreported
  // main paper and an open bundle of its type.
  const client = createClient({ url: `file:${dbFile}` });
  const rows = (
    await client.execute(`
      select d.customer_id as customerId, d.id as deliveryId,
        (select b.number from bundles b where b.customer_id = d.customer_id and b.open = 1 and b.type = 0 order by b.number desc limit 1) as bundle
      from deliveries d join editions e on e.title_id = d.title_id and e.edition_id = d.edition_id
      where d.reported_at is null and d.customer_id > ${NATIONAL.b2Upto} and e.type = 0 and d.delivered >= 2
      group by d.customer_id having bundle is not null order by d.customer_id limit 7`)
  ).rows as unknown as { customerId: number; deliveryId: number; bundle: number }[];
  client.close();
  if (rows.length < 7) throw new Error("B9: too few retailers with an open paper and bundle");
  const cookies = await makeSessions(dbFile, rows.map((r) => r.customerId));

  async function slowPage(js: boolean, customerId?: number) {
    const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 360, height: 640 }, locale: "sv-SE" });
    if (customerId !== undefined) {
      const [name, value] = cookies.get(customerId)!.split("=");
      await context.addCookies([{ name, value, url }]);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
    return { context, page };
  }
  // A function, not a string: the page's CSP refuses a string evaluated in it.
  const visibleAt = (selector: string) => {
    const el = document.querySelector(selector);
    return el && el.getBoundingClientRect().height > 0 ? performance.now() : false;
  };

  async function load(path: string, selector: string, customerId?: number) {
    const visible: number[] = [];
    const hydrated: number[] = [];
    const transferred: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { context, page } = await slowPage(true, customerId);
      await page.goto(url + path, { waitUntil: "commit" });
      const laidOut = Number(await (await page.waitForFunction(visibleAt, selector, { polling: 20, timeout: 30_000 })).jsonValue());
      // On screen = laid out and painted: the first contentful paint, if it came later.
      const fcp = Number(
        await (
          await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? false, undefined, { polling: 20, timeout: 30_000 })
        ).jsonValue(),
      );
      visible.push(Math.max(laidOut, fcp));
      await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 30_000 });
      hydrated.push(Number(await page.evaluate(() => document.documentElement.dataset.hydrated)));
      // The transfer floor: the moment its last JavaScript file had arrived. No page can be
      // hydrated before; what hydration costs beyond it is the framework's and the page's work.
      transferred.push(
        await page.evaluate(() =>
          Math.max(...performance.getEntriesByType("resource").filter((e) => /\.js(\?|$)/.test(e.name)).map((e) => (e as PerformanceResourceTiming).responseEnd)),
        ),
      );
      if (i === RUNS - 1) {
        // Every later morning: the same phone again, its JavaScript in the cache (immutable assets).
        await page.goto(url + path, { waitUntil: "commit" });
        await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 30_000 });
        warm.push(Number(await page.evaluate(() => document.documentElement.dataset.hydrated)));
      }
      await context.close();
    }
    return { visible: median(visible), hydrated: median(hydrated), transferred: median(transferred), warmHydrated: median(warm) };
  }

  async function confirmStep(js: boolean, r: { customerId: number; deliveryId: number; bundle: number }) {
    const { context, page } = await slowPage(js, r.customerId);
    await page.goto(`${url}/rapportering/1`);
    if (js) await page.waitForFunction(() => document.documentElement.dataset.hydrated, undefined, { timeout: 30_000 });
    await page.locator(`input[name="d${r.deliveryId}.bundle"]`).fill(String(r.bundle));
    await page.locator(`input[name="d${r.deliveryId}.amount"]`).fill("1");
    let started = Date.now();
    await page.getByRole("button", { name: "Spara och fortsätt" }).click();
    // With JavaScript the form first asks about the rows left empty ("spara ändå?"): the
    // step is timed from the answer, the click that saves.
    const saved = page.getByRole("heading", { name: "Returerna är sparade" });
    const ask = page.getByRole("button", { name: "Spara ändå" });
    await saved.or(ask).first().waitFor({ timeout: 30_000 });
    if (await ask.isVisible()) {
      started = Date.now();
      await ask.click();
    }
    await saved.waitFor({ timeout: 30_000 });
    const ms = Date.now() - started;
    await context.close();
    return ms;
  }

  const login = await load("/login", 'input[name="kundnummer"]');
  const returns = await load("/rapportering/1", 'input[name$=".bundle"]', rows[0].customerId);
  const off: number[] = [];
  const on: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    off.push(await confirmStep(false, rows[1 + 2 * i]));
    on.push(await confirmStep(true, rows[2 + 2 * i]));
  }
  await browser.close();
  return { login, returns, confirmOff: median(off), confirmOn: median(on) };
}

/**
 * B10: the sell-through page against the returns page, the same 200
 * retailers, alternating rounds: its 13 weeks of grouped deliveries and returns may cost
 * at most twice the returns page.
 */
async function b10(url: string, dbFile: string, customers: number) {
  const ids = Array.from({ length: 200 }, (_, i) => 2 + Math.floor((i * customers) / 200));
  const cookies = [...(await makeSessions(dbFile, ids)).values()];
  const page = { connections: CONNECTIONS, seconds: 1, cookies };
  await getLoad(url, "/rapportering/1", page);
  await getLoad(url, "/forsaljning", page);
  const returns: Load[] = [];
  const sales: Load[] = [];
  for (let round = 0; round < (SMOKE ? 1 : quick ? 2 : 4); round++) {
    returns.push(await getLoad(url, "/rapportering/1", { ...page, seconds: ROUND_SECONDS }));
    sales.push(await getLoad(url, "/forsaljning", { ...page, seconds: ROUND_SECONDS }));
  }
  const load = combine(sales);
  if (load.non2xx > 0 || load.errors > 0) throw new Error(`B10: ${load.non2xx} non-2xx, ${load.errors} errors`);
  return { ref: combine(returns), load };
}

async function b4(dbFile: string, from: string, to: string) {
  const out = `${DATA}/export.xlsx`;
  rmSync(out, { force: true });
  const started = performance.now();
  const child = spawn(
    "node",
    ["--import", "tsx", "cli/portal.ts", "export", "distribution", "--from", from, "--to", to, "--out", out],
    {
      env: { ...process.env, DATABASE_URL: `file:${dbFile}` },
      stdio: ["ignore", "ignore", "inherit"],
    }
  );
  let peakKb = 0;
  const timer = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* exited */
    }
  }, 25);
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  clearInterval(timer);
  if (code !== 0) throw new Error("B4: export failed");
  const bytes = readFileSync(out).length;
  return {
    seconds: (performance.now() - started) / 1000,
    peakMb: peakKb / 1024,
    bytes,
  };
}

async function b5(national: string) {
  // One national day: every customer's papers for tomorrow.
  const day = (await import("../app/lib/dates")).addDays(await today(), 1);
  const src = createClient({ url: `file:${national}` });
  const rowsOfDay = (
    await src.execute(
      `select customer_id, title_id, edition_id, delivered, price_ore from deliveries where delivery_date = (select max(delivery_date) from deliveries)`
    )
  ).rows;
  src.close();
  const csv = [
    "customer_id;title_id;edition_id;delivery_date;delivered;price_ore",
    ...rowsOfDay.map((r) => `${r.customer_id};${r.title_id};${r.edition_id};${day};${r.delivered};${r.price_ore}`),
  ].join("\n");
  const file = `${DATA}/day.csv`;
  writeFileSync(file, csv);

  const importDb = `${DATA}/import.db`;
  copyDb(national, importDb);
  process.env.DATABASE_URL = `file:${importDb}`;
  const { closeDb } = await import("../db/client");
  closeDb();
  const { importFile } = await import("../app/features/imports/index.server");
  let t = performance.now();
  const first = await importFile("deliveries", csv, {
    actor: { id: "bench" },
    source: file,
  });
  const firstMs = performance.now() - t;
  t = performance.now();
  const again = await importFile("deliveries", csv, {
    actor: { id: "bench" },
    source: file,
  });
  const againMs = performance.now() - t;
  closeDb();
  if (first.created !== rowsOfDay.length || again.unchanged !== rowsOfDay.length) {
    throw new Error(
      `B5: import counted ${first.created} new, re-run ${again.unchanged} unchanged of ${rowsOfDay.length}`
    );
  }

  // Reference: a plain batched INSERT of the same rows into a fresh copy.
  copyDb(national, importDb);
  const client = createClient({ url: `file:${importDb}` });
  const now = Date.now();
  t = performance.now();
  const tx = await client.transaction("write");
  for (let i = 0; i < rowsOfDay.length; i += 500) {
    const chunk = rowsOfDay.slice(i, i + 500);
    await tx.execute({
      sql: `insert into deliveries (customer_id, title_id, edition_id, delivery_date, delivered, price_ore, created_at, updated_at) values ${chunk
        .map(() => "(?,?,?,?,?,?,?,?)")
        .join(",")}`,
      args: chunk.flatMap((r) => [r.customer_id, r.title_id, r.edition_id, day, r.delivered, r.price_ore, now, now]),
    });
  }
  await tx.commit();
  const plainMs = performance.now() - t;
  client.close();
  rmSync(importDb, { force: true });
  return { rows: rowsOfDay.length, firstMs, againMs, plainMs };
}

async function b6(dbFile: string) {
  process.env.DATABASE_URL = `file:${dbFile}`;
  const { closeDb } = await import("../db/client");
  closeDb();
  const { renderLabelsPdf } = await import("../app/features/labels/labels-pdf.server");
  const { renderInvoicePdf } = await import("../app/features/invoices/invoice-pdf.server");
  const client = createClient({ url: `file:${dbFile}` });
  const inv = (await client.execute("select number, customer_id from invoices order by id limit 1")).rows[0];
  client.close();
  const labelsMs = await timeIt(
    () =>
      renderLabelsPdf({
        customerId: 1,
        customerName: "Butik 1",
        fromNumber: 101,
        toNumber: 120,
      }),
    SMOKE ? 1 : 5
  );
  const invoiceMs = await timeIt(async () => {
    const pdf = await renderInvoicePdf(Number(inv.number), Number(inv.customer_id));
    if (!pdf) throw new Error("B6: no invoice pdf");
  }, SMOKE ? 1 : 5);
  closeDb();
  return { labelsMs, invoiceMs };
}

async function queryPlans(dbFile: string) {
  const client = createClient({ url: `file:${dbFile}` });
  const explain = async (name: string, sql: string, args: (string | number)[]) => {
    plans[name] = (await client.execute({ sql: `explain query plan ${sql}`, args })).rows
      .map((r) => r.detail)
      .join("\n");
  };
  const t = await today();
  await explain(
    "returns page: unreported papers of one customer",
    "select * from deliveries where customer_id = ? and reported_at is null and delivery_date between ? and ?",
    [42, t, t]
  );
  await explain(
    "open bundles of one customer",
    "select b.number, sum(r.amount) from bundles b left join returns r on r.bundle_id = b.id where b.customer_id = ? and b.open = 1 group by b.id",
    [42]
  );
  await explain(
    "sum of returns for one delivery",
    "select coalesce(sum(amount), 0) from returns where delivery_id = ?",
    [1000]
  );
  await explain(
    "distribution aggregate (reported rows of a month)",
    "select customer_id, sum(abs(delivered - received)) from deliveries where received is not null and delivery_date between ? and ? group by customer_id",
    [t, t]
  );
  client.close();
}

function table(): string {
  const lines = ["| id | figure | value | reference | ratio | target | result |", "|---|---|---|---|---|---|---|"];
  for (const r of rows) {
    lines.push(
      `| ${r.id} | ${r.what} | ${r.value.toFixed(r.unit === "KB" ? 1 : 2)} ${r.unit} | ${
        r.reference !== undefined ? r.reference.toFixed(2) : "–"
      } | ${r.ratio !== undefined ? r.ratio.toFixed(2) : "–"} | ${r.target} | ${SMOKE ? "–" : r.pass ? "pass" : "FAIL"} |`
    );
  }
  return lines.join("\n");
}

/** Saves and logins during a run against the same traffic idle: p95 within 3 × idle, none failed (B11, B15). */
function trafficRows(id: string, r: B11, during: string): Row[] {
  return ([
    ["5-line saves", r.idle.saves, r.run.saves],
    ["logins", r.idle.logins, r.run.logins],
  ] as const).map(([what, idle, run]) => {
    const ratio = p95(run) / p95(idle);
    const failed = failures(idle) + failures(run);
    return {
      id,
      what: `${what} p95 ${during} (${run.length} during, ${idle.length} idle; ${failed} failed)`,
      value: p95(run),
      unit: "ms",
      reference: p95(idle),
      ratio,
      target: "≤ 3 × idle p95; 0 failed",
      pass: ratio <= 3 && failed === 0,
    };
  });
}

/** The rows of B11 for one database size (a copy of it, its server on PORT). */
async function invoiceRunUnderTraffic(national: string, customers: number): Promise<Row[]> {
  const runDb = `${DATA}/run.db`;
  copyDb(national, runDb);
  const server = await startServer(runDb, PORT);
  const t = await today();
  // The month so far: the national seed has invoiced the months before it.
  const [y, m] = t.split("-").map(Number);
  const period = { from: `${t.slice(0, 7)}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
  let r: B11;
  try {
    r = await b11(server.url, runDb, customers, period, makeSessions, benchFormToken);
  } finally {
    await server.stop();
  }
  const at = `${customers} customers`;
  const out: Row[] = trafficRows("B11", r, `during the invoice run, ${at}`);
  out.push({
    id: "B11",
    what: `/healthz slowest during the invoice run, ${at} (${r.run.health.length} polls)`,
    value: slowest(r.run.health),
    unit: "ms",
    target: "< 100 ms",
    pass: slowest(r.run.health) < 100 && failures(r.run.health) === 0,
  });
  out.push({
    id: "B11",
    what: `invoice run ${period.from}..${period.to}, ${at}: ${r.invoices} invoices${r.ranOutOfRetailers ? " (the saves ran out of retailers before it ended)" : ""}`,
    value: r.runSeconds,
    unit: "s",
    target: "reported",
    pass: Number.isFinite(r.invoices) && r.invoices > 0,
  });
  return out;
}

/** B15's rows: the month invoiced, 5 % of its returns and 1 % claims after the run, the next run under traffic, Avstämning. */
async function settledMonth(national: string, customers: number): Promise<Row[]> {
  const runDb = `${DATA}/b15.db`;
  copyDb(national, runDb);
  const server = await startServer(runDb, PORT);
  const t = await today();
  const [y, m] = t.split("-").map(Number);
  const month = { from: `${t.slice(0, 7)}-01`, to: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
  const nextFrom = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  const next = { from: nextFrom, to: new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10) };
  let r: B15;
  try {
    r = await b15(server.url, runDb, customers, month, next, makeSessions, benchFormToken);
  } finally {
    await server.stop();
  }
  const at = `${customers} customers`;
  const out: Row[] = [
    { id: "B15", what: `invoice run ${month.from}..${month.to}, ${at}`, value: r.firstRunSeconds, unit: "s", target: "reported", pass: true },
  ];
  out.push(...trafficRows("B15", r.settle, `during the run settling ${r.lateReturns} late returns and ${r.claims} claims, ${at}`));
  out.push({ id: "B15", what: `the settling run ${next.from}..${next.to}: ${r.settle.invoices} invoices`, value: r.settle.runSeconds, unit: "s", target: "reported", pass: r.settle.invoices > 0 });
  const worst = Math.max(...r.reconcileMs);
  out.push({
    id: "B15",
    what: `Avstämning ${month.from}..${month.to}, ${at} (slowest of 3; ${r.balanced ? "adds up" : `difference ${r.difference.copies} ex`})`,
    value: worst,
    unit: "ms",
    target: "≤ 2000 ms and difference 0",
    pass: worst <= 2000 && r.balanced,
  });
  return out;
}

/** B16's rows: a national recall made, its lock on every shop, and its mails from two processes. */
async function nationalRecall(national: string): Promise<Row[]> {
  const runDb = `${DATA}/b16.db`;
  copyDb(national, runDb);
  const r = await b16(runDb);
  const worstAlert = Math.max(...r.alertMs);
  return [
    { id: "B16", what: `a recall reaching ${r.customers} shops: made (one statement)`, value: r.createMs, unit: "ms", target: "≤ 1000 ms", pass: r.createMs <= 1000 },
    { id: "B16", what: `the next page of ${r.sampled} of them (every 65th): locked by the recall`, value: r.locked, unit: "shops", target: `${r.sampled}`, pass: r.locked === r.sampled },
    { id: "B16", what: "the alerts of such a page, slowest", value: worstAlert, unit: "ms", target: "< 100 ms", pass: worstAlert < 100 },
    {
      id: "B16",
      what: `its mails, two processes at once through one SMTP server: ${r.mails} mails to ${r.distinct} addresses (${r.perProcess.join(" + ")})`,
      value: r.mailSeconds,
      unit: "s",
      target: "≤ 300 s, each shop once",
      pass: r.mailSeconds <= 300 && r.mails === r.customers && r.distinct === r.customers,
    },
  ];
}

/**
 * B17's rows: Leveransändring at national scale — the retailer's page against the returns
 * page (server time), the staff queue with 6,500 open requests, their export, and the
 * country's suggestions at 20,000 shops.
 */
async function supplyAtScale(national: string, big: string | null): Promise<Row[]> {
  const runDb = `${DATA}/b17.db`;
  copyDb(national, runDb);
  const out: Row[] = [];
  const server = await startServer(runDb, PORT);
  const ids = Array.from({ length: 200 }, (_, i) => 2 + Math.floor((i * NATIONAL.customers) / 200));
  const cookies = [...(await makeSessions(runDb, ids)).values()];
  const page = { connections: CONNECTIONS, seconds: 1, cookies };
  await getLoad(server.url, "/rapportering/1", page);
  await getLoad(server.url, "/leverans", page);
  const returns: Load[] = [];
  const supply: Load[] = [];
  for (let round = 0; round < (SMOKE ? 1 : quick ? 2 : 4); round++) {
    returns.push(await getLoad(server.url, "/rapportering/1", { ...page, seconds: ROUND_SECONDS }));
    supply.push(await getLoad(server.url, "/leverans", { ...page, seconds: ROUND_SECONDS }));
  }
  await server.stop();
  const ref = combine(returns);
  const load = combine(supply);
  if (load.non2xx > 0 || load.errors > 0) throw new Error(`B17: ${load.non2xx} non-2xx, ${load.errors} errors`);
  const ratio = ref.rps / load.rps;
  out.push({ id: "B17", what: "GET /leverans against GET /rapportering/1, 200 retailers, 20 connections: server time", value: load.rps, unit: "req/s", reference: ref.rps, ratio, target: "≤ 2 × the returns page's time", pass: ratio <= 2 });
  const r = await b17(runDb);
  for (const q of r.queueMs) out.push({ id: "B17", what: `the staff queue with ${r.requests} open requests: ${q.what}`, value: q.ms, unit: "ms", target: "≤ 500 ms", pass: q.ms <= 500 });
  out.push({ id: "B17", what: `${r.exportRows} decided changes to planning: one export and its file`, value: r.exportMs / 1000, unit: "s", target: "≤ 5 s", pass: r.exportMs <= 5000 && r.exportRows === r.requests });
  if (big) {
    const bigRun = `${DATA}/b17-big.db`;
    copyDb(big, bigRun);
    const s = b17Suggestions(bigRun, `${DATA}/b17-suggestions.csv`);
    out.push({ id: "B17", what: `the suggestions of every shop of ${big.match(/national-(\d+)/)?.[1] ?? "?"} (portal supply suggest): ${s.rows} suggestions`, value: s.seconds, unit: "s", target: "≤ 10 s", pass: s.seconds <= 10 });
  }
  return out;
}

/** B14's rows: pages during a flood of 200 MB bodies, and while another process holds the write lock. */
function pressureRows(r: B14): Row[] {
  return [
    {
      id: "B14",
      what: `/login and /kontakt during three 200 MB body floods (${r.floodBodies} bodies refused, ${r.floodReads.length} reads): p95`,
      value: p95Of(r.floodReads),
      unit: "ms",
      target: "< 1500 ms",
      pass: p95Of(r.floodReads) < 1500,
    },
    { id: "B14", what: "the same: slowest read", value: Math.max(...r.floodReads), unit: "ms", target: "< 1500 ms", pass: Math.max(...r.floodReads) < 1500 },
    {
      id: "B14",
      what: `/login and /kontakt while another process holds the write lock for ${Math.round(r.lockHeldMs / 1000)} s (${r.lockReads.length} reads): slowest`,
      value: Math.max(...r.lockReads),
      unit: "ms",
      target: "< 1000 ms",
      pass: Math.max(...r.lockReads) < 1000,
    },
  ];
}

/** B12 per step: JavaScript never makes a step of the morning slower (≤ 1.1 × the same without it). */
function stepRows(profile: MorningProfile, twelve: { off: Morning; on: Morning }): Row[] {
  const where = profile === "phone" ? "390 px phone, CPU ×4, 1.6 Mbit/s / 150 ms" : "desktop 1280 px, no throttling";
  return Object.keys(twelve.off.steps).map((step) => {
    const on = twelve.on.steps[step];
    const off = twelve.off.steps[step];
    // Below 50 ms a step is instant either way: the ratio of two instants is noise.
    const ratio = on / Math.max(off, 1);
    return { id: "B12", what: `the morning's ${step} step, JS on against off (${where})`, value: on, unit: "ms", reference: off, ratio, target: "≤ 1.1 × JS off, or ≤ 50 ms more", pass: on <= Math.max(off * 1.1, off + 50) };
  });
}

/** B13's rows: other pages during a flood of wrong PINs, and the flood answered without a hash for every attempt. */
function floodRows(r: B13): Row[] {
  const med = median(r.reads);
  const p95 = p95Of(r.reads);
  return [
    {
      id: "B13",
      what: `/kontakt during ${r.logins} wrong-PIN logins at once from ${r.logins / 3} addresses (${r.reads.length} reads): median`,
      value: med,
      unit: "ms",
      target: "< 200 ms",
      pass: med < 200,
    },
    { id: "B13", what: "/kontakt during the same flood: p95", value: p95, unit: "ms", target: "< 1000 ms", pass: p95 < 1000 },
    {
      id: "B13",
      what: `a wrong PIN, customer number that does not exist against one that does (${r.known.length} each, medians)`,
      value: median(r.unknown),
      unit: "ms",
      reference: median(r.known),
      ratio: median(r.unknown) / median(r.known),
      target: "0.5–2 × (the time does not tell)",
      pass: median(r.unknown) / median(r.known) > 0.5 && median(r.unknown) / median(r.known) < 2,
    },
    {
      id: "B13",
      what: `the flood's answers: ${r.refused} × 400, ${r.busy} × 503 (hashing full), ${r.other} other`,
      value: r.busy,
      unit: "× 503",
      target: "> 0 × 503, no other answer",
      pass: r.busy > 0 && r.other === 0,
    },
  ];
}

async function main() {
  const started = Date.now();
  // Always the production build of this checkout: an old build would measure old code. The
  // smoke runs in npm test, right after its build.
  if (!SMOKE) {
    log("building");
    if (spawnSync("npm", ["run", "build"], { stdio: ["ignore", "ignore", "inherit"] }).status !== 0) throw new Error("build failed");
  }
  const national = ensureDb(NATIONAL.customers, NATIONAL.days);
  if (process.argv.includes("--b1")) {
    // `npm run bench -- --b1`: the returns page against /login, and its HTML and script, alone.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    const one = await b1(server.url, `${DATA}/run.db`, NATIONAL.customers);
    const page = await pageJsAndHtml(server.url, one.cookies[0]);
    await server.stop();
    console.log(JSON.stringify({ rapportering: one.load.rps, login: one.ref.rps, ratio: one.load.rps / one.ref.rps, htmlGzipKB: page.htmlGzip / 1024, jsGzipKB: page.jsGzip / 1024 }, null, 2));
    return;
  }
  if (process.argv.includes("--b10")) {
    // `npm run bench -- --b10`: the sell-through page against the returns page alone.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    const ten = await b10(server.url, `${DATA}/run.db`, NATIONAL.customers);
    await server.stop();
    console.log(JSON.stringify({ forsaljning: ten.load.rps, rapportering: ten.ref.rps, ratio: ten.load.rps / ten.ref.rps }, null, 2));
    return;
  }
  if (process.argv.includes("--b11")) {
    // `npm run bench -- --b11`: saves and logins during a national invoice run, alone.
    for (const n of quick ? [6500] : [6500, 20000]) {
      for (const r of await invoiceRunUnderTraffic(ensureDb(n), n)) add(r);
    }
    return;
  }
  if (process.argv.includes("--b17")) {
    // `npm run bench -- --b17`: Leveransändring at national scale, alone.
    for (const r of await supplyAtScale(national, quick ? null : ensureDb(20000))) add(r);
    return;
  }
  if (process.argv.includes("--b16")) {
    // `npm run bench -- --b16`: a national recall, alone.
    for (const r of await nationalRecall(national)) add(r);
    return;
  }
  if (process.argv.includes("--b15")) {
    // `npm run bench -- --b15`: a national month settled after its run, alone.
    for (const r of await settledMonth(national, NATIONAL.customers)) add(r);
    return;
  }
  if (process.argv.includes("--b8")) {
    // `npm run bench -- --b8`: server start to first response on the national database, five starts.
    copyDb(national, `${DATA}/run.db`);
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      const server = await startServer(`${DATA}/run.db`, PORT);
      starts.push(server.startMs);
      await server.stop();
    }
    starts.sort((a, b) => a - b);
    console.log(JSON.stringify({ startsMs: starts.map(Math.round), medianMs: Math.round(starts[2]) }, null, 2));
    return;
  }
  if (process.argv.includes("--b12")) {
    // `npm run bench -- --b12`: the morning on a phone, JS off and on, on a copy of the national database.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    const twelve = await b12(server.url, `${DATA}/run.db`);
    const desktop = await b12(server.url, `${DATA}/run.db`, "desktop");
    await server.stop();
    console.log(JSON.stringify({ phone: twelve, desktop }, null, 2));
    for (const r of [...stepRows("phone", twelve), ...stepRows("desktop", desktop)]) console.log(`${r.pass ? "ok  " : "FAIL"} ${r.what}: ${r.value} ms against ${r.reference} ms`);
    return;
  }
  if (process.argv.includes("--b13")) {
    // `npm run bench -- --b13`: pages during a flood of wrong PINs, alone.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    for (const r of floodRows(await b13(server.url, `${DATA}/run.db`))) add(r);
    await server.stop();
    return;
  }
  if (process.argv.includes("--b14")) {
    // `npm run bench -- --b14`: pages during a body flood and a held write lock, alone.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    for (const r of pressureRows(await b14(server.url, `${DATA}/run.db`))) add(r);
    await server.stop();
    return;
  }
  if (process.argv.includes("--b5")) {
    // `npm run bench -- --b5`: one national day's deliveries file imported, and again, alone.
    const five = await b5(national);
    console.log(JSON.stringify({ rows: five.rows, firstS: five.firstMs / 1000, againS: five.againMs / 1000, plainS: five.plainMs / 1000, ratio: five.firstMs / five.plainMs }, null, 2));
    return;
  }
  if (process.argv.includes("--b18")) {
    // `npm run bench -- --b18`: replication's figures alone (docs/reliability.md), on a copy of the national database.
    // B2 without replication first, on its own copy, for what replication costs it.
    copyDb(national, `${DATA}/run.db`);
    const plainServer = await startServer(`${DATA}/run.db`, PORT);
    const plain = await b2(plainServer.url, `${DATA}/run.db`);
    await plainServer.stop();
    copyDb(national, `${DATA}/run.db`);
    let two: Awaited<ReturnType<typeof b2>> | undefined;
    const eighteen = await b18(`${DATA}/run.db`, PORT, async (url) => (two = await b2(url, `${DATA}/run.db`)));
    const figures = (b: typeof plain) => ({ rps: b.load.rps, ratio: b.ratio, lost: b.lost, doubled: b.doubled, unacked: b.unacked });
    console.log(JSON.stringify({ ...eighteen, b2Plain: figures(plain), b2Replicated: two && figures(two) }, null, 2));
    return;
  }
  if (process.argv.includes("--b9")) {
    // `npm run bench -- --b9`: the slow-phone figures alone, on a copy of the national database.
    copyDb(national, `${DATA}/run.db`);
    const server = await startServer(`${DATA}/run.db`, PORT);
    const nine = await b9(server.url, `${DATA}/run.db`);
    await server.stop();
    console.log(JSON.stringify(nine, null, 2));
    return;
  }
  const sizes = SMOKE ? [NATIONAL.customers] : quick ? [1000, 6500] : [1000, 6500, 20000];
  for (const n of sizes) ensureDb(n);
  const runDb = `${DATA}/run.db`;
  const t = await today();
  const { addDays } = await import("../app/lib/dates");
  const monthFrom = addDays(t, -30);

  // B8, B1, B7, B2 on a copy of the national database.
  copyDb(national, runDb);
  let server = await startServer(runDb, PORT);
  add({
    id: "B8",
    what: "server start to first response, national database",
    value: server.startMs / 1000,
    unit: "s",
    target: "≤ 1.5 s",
    pass: server.startMs <= 1500,
  });
  const first = await b1(server.url, runDb, NATIONAL.customers);
  const b1Ratio = first.load.rps / first.ref.rps;
  add({
    id: "B1",
    what: "GET /rapportering/1, 200 retailers, 20 connections",
    value: first.load.rps,
    unit: "req/s",
    reference: first.ref.rps,
    ratio: b1Ratio,
    target: "≥ 0.6 × trivial SSR (/login)",
    pass: b1Ratio >= 0.6,
  });
  const page = await pageJsAndHtml(server.url, first.cookies[0]);
  add({
    id: "B7",
    what: `JS on /rapportering/1 (gzip, ${page.chunks} chunks)`,
    value: page.jsGzip / 1024,
    unit: "KB",
    target: "≤ 120 KB",
    pass: page.jsGzip <= 120 * 1024,
  });
  add({
    id: "B7",
    what: "HTML of /rapportering/1 (gzip)",
    value: page.htmlGzip / 1024,
    unit: "KB",
    target: "≤ 50 KB",
    pass: page.htmlGzip <= 50 * 1024,
  });
  const two = await b2(server.url, runDb);
  add({
    id: "B2",
    what: `POST 5-line returns, ${two.sent} forms (1 in 10 twice)`,
    value: two.load.rps,
    unit: "req/s",
    reference: two.ref.rps,
    ratio: two.ratio,
    target: "≥ 0.4 × trivial; 0 lost, 0 doubled",
    pass: two.ratio >= 0.4 && two.lost === 0 && two.doubled === 0 && two.load.errors === 0,
  });
  add({
    id: "B2",
    what: "returns lost / doubled / forms not acknowledged",
    value: two.lost + two.doubled,
    unit: `(${two.lost} lost, ${two.doubled} doubled, ${two.unacked} unacked)`,
    target: "0",
    pass: two.lost === 0 && two.doubled === 0 && two.unacked === 0,
  });
  const ten = await b10(server.url, runDb, NATIONAL.customers);
  add({
    id: "B10",
    what: "GET /forsaljning (13 weeks per title), 200 retailers, 20 connections",
    value: ten.load.rps,
    unit: "req/s",
    reference: ten.ref.rps,
    ratio: ten.load.rps / ten.ref.rps,
    target: "≥ 0.5 × /rapportering/1 (≤ 2 × its cost)",
    pass: ten.load.rps / ten.ref.rps >= 0.5,
  });
  const nine = await b9(server.url, runDb);
  for (const [path, m] of [["/login", nine.login], ["/rapportering/1", nine.returns]] as const) {
    add({ id: "B9", what: `slow phone: ${path} form visible (CPU ×6, 400 kbps / 400 ms)`, value: m.visible, unit: "ms", target: "≤ 1500 ms", pass: m.visible <= 1500 });
    // The first visit is bound by the link: its JavaScript takes about 2.5 s to arrive at
    // 400 kbps. It is judged against that floor, measured in the same load.
    add({
      id: "B9",
      what: `slow phone: ${path} hydrated, first visit (reference: its last JavaScript file arrived)`,
      value: m.hydrated,
      unit: "ms",
      reference: m.transferred,
      ratio: m.hydrated / m.transferred,
      target: "≤ 1.15 × the transfer floor",
      pass: m.hydrated / m.transferred <= 1.15,
    });
    add({ id: "B9", what: `slow phone: ${path} hydrated, JavaScript cached`, value: m.warmHydrated, unit: "ms", target: "≤ 3000 ms", pass: m.warmHydrated <= 3000 });
  }
  add({
    id: "B9",
    what: "slow phone: confirm step with JS on (Spara och fortsätt → confirm page)",
    value: nine.confirmOn,
    unit: "ms",
    reference: nine.confirmOff,
    ratio: nine.confirmOn / nine.confirmOff,
    target: "≤ the same with JS off",
    // A tenth of a second is the noise of one emulated round trip's scheduling.
    pass: nine.confirmOn <= nine.confirmOff + 100,
  });
  const twelve = await b12(server.url, runDb);
  const morningRow = (js: string, m: Morning) =>
    add({
      id: "B12",
      what: `the morning, 8 papers, JS ${js} (390 px, CPU ×4, 1.6 Mbit/s / 150 ms): taps and keys besides ${m.digits} digits`,
      value: m.taps + m.keys,
      unit: `(${m.taps} taps, ${m.keys} keys)`,
      target: "≤ 8 taps",
      pass: m.taps <= 8,
    });
  morningRow("off", twelve.off);
  morningRow("on", twelve.on);
  add({ id: "B12", what: "the morning, JS off: waiting for the portal, Logga in → confirm step saved", value: twelve.off.waitMs, unit: "ms", target: "≤ 3000 ms", pass: twelve.off.waitMs <= 3000 });
  add({
    id: "B12",
    what: "the morning, JS on: waiting for the portal, Logga in → confirm step saved",
    value: twelve.on.waitMs,
    unit: "ms",
    reference: twelve.off.waitMs,
    ratio: twelve.on.waitMs / twelve.off.waitMs,
    target: "≤ 3000 ms and ≤ JS off",
    pass: twelve.on.waitMs <= 3000 && twelve.on.waitMs <= twelve.off.waitMs + 100,
  });
  for (const r of stepRows("phone", twelve)) add(r);
  for (const r of stepRows("desktop", await b12(server.url, runDb, "desktop"))) add(r);
  for (const r of floodRows(await b13(server.url, runDb))) add(r);
  for (const r of pressureRows(await b14(server.url, runDb))) add(r);
  await server.stop();
  curve.push({
    customers: NATIONAL.customers,
    b1: first.load.rps,
    b1Ref: first.ref.rps,
    b3: 0,
    b3Ref: 0,
    deliveries: 0,
  });

  // B3 on the pristine national database.
  const { ms: b3, refMs: b3Ref } = await distribution(national, monthFrom, t);
  add({
    id: "B3",
    what: "distribution loader, all distributors, one month",
    value: b3,
    unit: "ms",
    reference: b3Ref,
    ratio: b3 / b3Ref,
    target: "≤ 2 × GROUP BY and ≤ 500 ms",
    pass: b3 <= 2 * b3Ref && b3 <= 500,
  });
  curve[0].b3 = b3;
  curve[0].b3Ref = b3Ref;

  const four = await b4(national, monthFrom, t);
  add({
    id: "B4",
    what: `Excel export, all distributors, one month (${(four.bytes / 1e6).toFixed(1)} MB)`,
    value: four.seconds,
    unit: "s",
    target: "≤ 15 s",
    pass: four.seconds <= 15,
  });
  add({
    id: "B4",
    what: "Excel export peak RSS",
    value: four.peakMb,
    unit: "MB",
    target: "≤ 400 MB",
    pass: four.peakMb <= 400,
  });

  const five = await b5(national);
  add({
    id: "B5",
    what: `import deliveries, one national day (${five.rows} rows)`,
    value: five.firstMs / 1000,
    unit: "s",
    reference: five.plainMs / 1000,
    ratio: five.firstMs / five.plainMs,
    target: "≤ 5 s and ≤ 3 × plain INSERT",
    pass: five.firstMs <= 5000 && five.firstMs <= 3 * five.plainMs,
  });
  add({
    id: "B5",
    what: "the same file again",
    value: five.againMs / 1000,
    unit: "s",
    target: "≤ 3 s",
    pass: five.againMs <= 3000,
  });

  const six = await b6(national);
  add({
    id: "B6",
    what: "emergency label PDF, 20 labels",
    value: six.labelsMs,
    unit: "ms",
    target: "≤ 300 ms",
    pass: six.labelsMs <= 300,
  });
  add({
    id: "B6",
    what: "invoice PDF",
    value: six.invoiceMs,
    unit: "ms",
    target: "≤ 100 ms",
    pass: six.invoiceMs <= 100,
  });

  if (SMOKE) {
    // The benchmarks that otherwise run alone (`--b11`, `--b15`, `--b16`, `--b17`), once each.
    for (const r of await invoiceRunUnderTraffic(national, NATIONAL.customers)) add(r);
    for (const r of await settledMonth(national, NATIONAL.customers)) add(r);
    for (const r of await nationalRecall(national)) add(r);
    for (const r of await supplyAtScale(national, null)) add(r);
  }

  // How cost grows: B1 and B3 at other sizes.
  for (const n of sizes.filter((s) => s !== NATIONAL.customers)) {
    const file = ensureDb(n);
    copyDb(file, runDb);
    server = await startServer(runDb, PORT);
    const r = await b1(server.url, runDb, n);
    await server.stop();
    const { ms, refMs: ref } = await distribution(file, monthFrom, t);
    curve.push({
      customers: n,
      b1: r.load.rps,
      b1Ref: r.ref.rps,
      b3: ms,
      b3Ref: ref,
      deliveries: 0,
    });
  }
  curve.sort((a, b) => a.customers - b.customers);
  await queryPlans(national);
  rmSync(runDb, { force: true });
  for (const s of ["-wal", "-shm"]) rmSync(runDb + s, { force: true });

  const curveTable = [
    "| customers | B1 req/s | trivial req/s | B1 ratio | B3 ms | GROUP BY ms |",
    "|---|---|---|---|---|---|",
    ...curve.map(
      (c) =>
        `| ${c.customers} | ${c.b1.toFixed(0)} | ${c.b1Ref.toFixed(0)} | ${(c.b1 / c.b1Ref).toFixed(
          2
        )} | ${c.b3.toFixed(1)} | ${c.b3Ref.toFixed(1)} |`
    ),
  ].join("\n");
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${
    process.version
  }`;
  console.log(`\nReturportalen benchmark — ${new Date().toISOString()} — ${machine}\n`);
  console.log(table());
  console.log(`\nHow cost grows:\n${curveTable}`);
  if (SMOKE) {
    // No targets and no results file: the figures of a small database on a busy machine.
    console.log(`\nsmoke: ${rows.length} figures measured once on ${NATIONAL.customers} shops, every benchmark ran to its end (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    return;
  }
  const passed = rows.filter((r) => r.pass).length;
  console.log(`\n${passed} passed, ${rows.length - passed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  writeFileSync(
    "bench/results.json",
    JSON.stringify({ at: new Date().toISOString(), machine, rows, curve, plans }, null, 2)
  );
  const md = readFileSync("bench/RESULTS.template.md", "utf8")
    .replace("{{date}}", new Date().toISOString().slice(0, 16).replace("T", " "))
    .replace("{{machine}}", machine)
    .replace("{{table}}", table())
    .replace("{{curve}}", curveTable)
    .replace(
      "{{plans}}",
      Object.entries(plans)
        .map(([k, v]) => `**${k}**\n\n\`\`\`\n${v}\n\`\`\``)
        .join("\n\n")
    );
  writeFileSync("bench/RESULTS.md", md);
  process.exitCode = passed === rows.length ? 0 : 1;
}

await main();
