// Many retailers saving at once, for the crash tests (one server killed in a burst of
// saves): each customer logged in with its own session, its returns form built as the page
// sends it (every line into bundle 1, a fresh form token), and the burst itself.
import { randomUUID } from "node:crypto";
import { expect } from "./fixtures";
import { formTokenOf } from "./own-server";

export type PlannedSave = { customerId: number; lines: { deliveryId: number; amount: number }[] };
export type SaveForm = PlannedSave & { cookie: string; body: string; acked: boolean };

/** Logs each customer in at `baseURL` (8 at a time) and builds its returns form. */
export async function returnForms(baseURL: string, plan: PlannedSave[], pin: string): Promise<SaveForm[]> {
  const forms: SaveForm[] = [];
  for (let i = 0; i < plan.length; i += 8) {
    const batch = await Promise.all(
      plan.slice(i, i + 8).map(async (p) => {
        const res = await fetch(`${baseURL}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: String(p.customerId), pinkod: pin }), redirect: "manual" });
        expect(res.status).toBe(302);
        const cookie = res.headers.get("set-cookie")!.split(";")[0];
        const form = new URLSearchParams({ csrf: await formTokenOf(baseURL, cookie), intent: "save", token: randomUUID() });
        for (const l of p.lines) {
          form.append("line", `d${l.deliveryId}`);
          form.append(`d${l.deliveryId}.delivery`, String(l.deliveryId));
          form.append(`d${l.deliveryId}.bundle`, "1");
          form.append(`d${l.deliveryId}.amount`, String(l.amount));
          form.append(`d${l.deliveryId}.dflt`, "");
        }
        return { ...p, cookie, body: form.toString(), acked: false };
      }),
    );
    forms.push(...batch);
  }
  return forms;
}

/** Sends one form as the browser does. */
export function postForm(baseURL: string, f: SaveForm): Promise<Response> {
  return fetch(`${baseURL}/rapportering/1`, { method: "POST", body: f.body, redirect: "manual", headers: { cookie: f.cookie, "content-type": "application/x-www-form-urlencoded" } });
}

/**
 * Every form at once; `kill` is called once a fifth are acknowledged (302). A form whose
 * connection the kill cut off is not acknowledged. Marks each form's `acked`.
 */
export async function burstWithKill(baseURL: string, forms: SaveForm[], kill: () => void): Promise<{ acked: number; killed: boolean }> {
  let acked = 0;
  let killed = false;
  await Promise.all(
    forms.map(async (f) => {
      try {
        const res = await postForm(baseURL, f);
        if (res.status === 302) {
          f.acked = true;
          acked++;
          if (acked >= forms.length / 5 && !killed) {
            killed = true;
            kill();
          }
        }
      } catch {
        /* connection reset by the kill: not acknowledged */
      }
    }),
  );
  return { acked, killed };
}
