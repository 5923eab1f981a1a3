// Trust, second round §3: the PIN letter is no PIN oracle. A stolen admin session that
// posts guesses to /admin/kunder/N/pinbrev learns nothing — the right PIN included gets
// the same redirect as a wrong one, no PDF — and every refused try is audited. The
// letter comes only from the ticket "Ny pinkod" seals into that admin's session, once.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { e2eDb, formToken, makeRetailer, makeStaff } from "./fixtures";
import { client, logIn } from "./own-server";

const contexts: APIRequestContext[] = [];
test.afterAll(async () => {
  // A context the runner has closed already (its worker winding down) needs no second close.
  await Promise.allSettled(contexts.map((c) => c.dispose()));
});

async function admin(baseURL: string) {
  const staff = await makeStaff("admin");
  const ctx = await client(baseURL);
  contexts.push(ctx);
  await logIn(ctx, staff.email, staff.password);
  return { ctx, staff };
}

test("30 parallel PIN guesses against the letter route, the right one among them, print nothing and are audited", async ({ baseURL }, info) => {
  // A customer number of its own (makeRetailer takes another when one is taken).
  const { id, pin } = await makeRetailer(info.workerIndex, { name: "Şahin Livs" });
  const { ctx, staff } = await admin(baseURL!);
  const csrf = await formToken(ctx);
  const guesses = [pin, ...Array.from({ length: 29 }, (_, i) => String(100000 + i * 31_337).slice(0, 6))];
  const answers = await Promise.all(guesses.map((g) => ctx.post(`/admin/kunder/${id}/pinbrev`, { form: { csrf, pin: g } })));
  for (const res of answers) {
    expect(res.status()).toBe(302);
    expect(res.headers()["content-type"] ?? "").not.toContain("pdf");
    expect(res.headers()["location"]).toBe(`/admin/kunder/${id}`);
  }
  const refused = await e2eDb()
    .select()
    .from(schema.auditLog)
    .where(and(eq(schema.auditLog.actor, `staff:${staff.id}`), eq(schema.auditLog.action, "customer.pin-letter.refused")));
  expect(refused).toHaveLength(guesses.length);
  // Never the PIN in what is kept (the random request id may hold its digits by chance: not a field anyone typed).
  expect(JSON.stringify(refused.map(({ requestId: _requestId, ...row }) => row))).not.toContain(pin);
});

test("the letter comes once from the admin's own Ny pinkod, never for another admin or another customer", async ({ baseURL }, info) => {
  const { id } = await makeRetailer(info.workerIndex, { name: "Kvällspressen Malmö" });
  const { id: other } = await makeRetailer(info.workerIndex, { name: "Pressbyrån Triangeln" });
  const a = await admin(baseURL!);
  const b = await admin(baseURL!);
  const issued = await a.ctx.post(`/admin/kunder/${id}`, { form: { csrf: await formToken(a.ctx), intent: "ny-pinkod" } });
  expect(issued.status()).toBe(200);
  // Another admin's session, and another customer's letter, hold no ticket for it.
  expect((await b.ctx.post(`/admin/kunder/${id}/pinbrev`, { form: { csrf: await formToken(b.ctx) } })).status()).toBe(302);
  expect((await a.ctx.post(`/admin/kunder/${other}/pinbrev`, { form: { csrf: await formToken(a.ctx) } })).status()).toBe(302);
  // …and the wrong customer spent the ticket: one letter, for the customer it was issued for, or none.
  const letter = await a.ctx.post(`/admin/kunder/${id}/pinbrev`, { form: { csrf: await formToken(a.ctx) } });
  expect(letter.status()).toBe(302);
  // A new PIN, then its letter: a PDF once, then never again.
  await a.ctx.post(`/admin/kunder/${id}`, { form: { csrf: await formToken(a.ctx), intent: "ny-pinkod" } });
  const first = await a.ctx.post(`/admin/kunder/${id}/pinbrev`, { form: { csrf: await formToken(a.ctx) } });
  expect(first.status()).toBe(200);
  expect(first.headers()["content-type"]).toContain("application/pdf");
  const again = await a.ctx.post(`/admin/kunder/${id}/pinbrev`, { form: { csrf: await formToken(a.ctx) } });
  expect(again.status()).toBe(302);
  // The sessions table never held the PIN in clear.
  const rows = await e2eDb().select({ data: schema.sessions.data }).from(schema.sessions);
  for (const r of rows) expect(r.data).not.toMatch(/"pinLetter":\{[^}]*"pin"/);
});
