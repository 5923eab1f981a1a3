// The production server killed (SIGKILL) during a burst of return
// saves. It runs as a child process on its own database file and port; after the
// restart the database passes integrity_check, every acknowledged (302) form is
// stored with its exact amounts, no form is half stored, and re-sending the forms
// that got no answer stores each exactly once (the form token). The CLI import
// killed mid-write is tested in tests/unit/cli-invoice-payout-export-backup.test.ts ("an interrupted import").
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { and, eq, inArray } from "drizzle-orm";
import { openDb, prepareDb, schema } from "../../db/client";
import { SELLER_ENV } from "../production-env";
import { createBundle, createCustomer, createDelivery, createDistributor, createLabelBlock, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { addDays, today } from "../../app/lib/dates";
import { expect, test } from "./fixtures";
import { burstWithKill, postForm, returnForms, type SaveForm } from "./return-burst";

test.describe.configure({ timeout: 180_000 });

const PORT = Number(process.env.E2E_PORT || 3100) + 50;
const URL_ = `http://127.0.0.1:${PORT}`;
const FILE = `tests/.tmp/crash-${PORT}.db`;
const CUSTOMERS = 80;

async function startServer(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "cli/portal.ts", "serve", "--host", "127.0.0.1", "--port", String(PORT)], {
    env: { ...process.env, DATABASE_URL: `file:${FILE}`, NODE_ENV: "production", PORTAL_QUIET_LOG: "1", SESSION_SECRET: "crash-session-secret-not-for-production", PORTAL_URL: URL_, ...SELLER_ENV, THROTTLE_IP_LIMIT: "1000000" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error("server exited");
    try {
      if ((await fetch(`${URL_}/login`)).status === 200) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("server did not start");
}

test("SIGKILL during a burst of return saves loses no acknowledged save and leaves no half form", async () => {
  for (const s of ["", "-wal", "-shm"]) rmSync(FILE + s, { force: true });
  const db = openDb(`file:${FILE}`);
  await prepareDb(db);
  await ensureTitlesAndEditions(db);
  await createDistributor(db, 1, "Utb");
  const on = today();
  const plan: { customerId: number; lines: { deliveryId: number; amount: number }[] }[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customerId = 1000 + i;
    await createCustomer(db, { id: customerId, distributorId: 1, pin: "1234", name: `Kiosk ${customerId}` });
    await createLabelBlock(db, { customerId, type: 0, status: "Levererad", fromDate: addDays(on, -30), toDate: addDays(on, 300), fromNumber: 1, toNumber: 50 });
    await createBundle(db, { customerId, number: 1, type: 0, open: true });
    const lines = [];
    for (let k = 0; k < 5; k++) {
      const d = await createDelivery(db, { customerId, titleId: 1 + (k % 2), editionId: 1, deliveryDate: addDays(on, -k), delivered: 20, priceOre: 2200 });
      lines.push({ deliveryId: d.id, amount: 1 + ((i + k) % 7) });
    }
    plan.push({ customerId, lines });
  }

  let server = await startServer();
  const forms = await returnForms(URL_, plan, "1234");
  const post = (f: SaveForm) => postForm(URL_, f);
  // The burst: every form at once; the server is killed once a fifth are acknowledged.
  const victim = server;
  const exited = new Promise((r) => victim.once("exit", r));
  const { killed } = await burstWithKill(URL_, forms, () => victim.kill("SIGKILL"));
  if (!killed) victim.kill("SIGKILL");
  await exited;
  const ackedForms = forms.filter((f) => f.acked);
  const unanswered = forms.filter((f) => !f.acked);
  expect(killed, "killed mid-burst").toBe(true);
  expect(unanswered.length, "some forms were cut off by the kill").toBeGreaterThan(0);

  server = await startServer();
  try {
    const check = openDb(`file:${FILE}`);
    expect((await check.$client.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    const stored = async (f: SaveForm) => {
      const rows = await check
        .select({ deliveryId: schema.returns.deliveryId, amount: schema.returns.amount })
        .from(schema.returns)
        .where(and(eq(schema.returns.customerId, f.customerId), inArray(schema.returns.deliveryId, f.lines.map((l) => l.deliveryId))));
      return new Map(rows.map((r) => [r.deliveryId, r.amount]));
    };
    let halfStored = 0;
    let lost = 0;
    let committedUnanswered = 0;
    for (const f of forms) {
      const got = await stored(f);
      const complete = f.lines.every((l) => got.get(l.deliveryId) === l.amount) && got.size === 5;
      if (got.size > 0 && !complete) halfStored++;
      if (f.acked && !complete) lost++;
      if (!f.acked && complete) committedUnanswered++;
    }
    expect(lost, "acknowledged saves lost").toBe(0);
    expect(halfStored, "forms stored in part").toBe(0);

    // The user presses Spara again for every form that got no answer: each is stored once.
    for (const f of unanswered) expect((await post(f)).status).toBe(302);
    let wrong = 0;
    for (const f of forms) {
      const got = await stored(f);
      if (got.size !== 5 || f.lines.some((l) => got.get(l.deliveryId) !== l.amount)) wrong++;
    }
    expect(wrong, "forms not stored exactly once after the retry").toBe(0);
    check.$client.close();
    console.log(
      `[crash] ${forms.length} forms of 5 lines; killed after ${ackedForms.length} acknowledged; ${unanswered.length} unanswered (${committedUnanswered} of them committed); lost 0, half 0; after re-sending all ${forms.length} stored exactly once`,
    );
  } finally {
    const done = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await done;
    db.$client.close();
  }
});
