// B13: what other people's pages cost while a flood of wrong PINs arrives from many
// addresses at once. Every login hashes its PIN (scrypt) on a bounded pool; what does not
// fit is refused at once (503), so a flood costs the attacker, not the retailers reading
// pages meanwhile. The functional test (tests/e2e/login-attack.http.spec.ts) checks the
// answers; the timing is measured here, on the production build. And whether a wrong PIN
// is answered as fast for a customer number that does not exist as for one that does.
import { createClient } from "@libsql/client";
import { median, SMOKE } from "./lib";

const ROUNDS = SMOKE ? 1 : 3;
const AT_ONCE = SMOKE ? 20 : 60;

export type B13 = { reads: number[]; logins: number; refused: number; busy: number; other: number; known: number[]; unknown: number[] };

const TIMED = SMOKE ? 2 : 25;

export async function b13(url: string, dbFile: string): Promise<B13> {
  const client = createClient({ url: `file:${dbFile}` });
  const ids = (await client.execute(`select id from customers where deactivated_at is null order by id limit ${AT_ONCE}`)).rows.map((r) => Number(r.id));
  const taken = new Set((await client.execute("select id from customers")).rows.map((r) => Number(r.id)));
  client.close();
  // Customer numbers of five digits that nobody has.
  const free: number[] = [];
  for (let id = 99_999; free.length < TIMED && id > 0; id--) if (!taken.has(id)) free.push(id);
  const reads: number[] = [];
  let flooding = true;
  const reader = (async () => {
    while (flooding) {
      const t0 = performance.now();
      const res = await fetch(`${url}/kontakt`, { headers: { "X-Forwarded-For": "10.1.1.1" } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`/kontakt answered ${res.status} during the flood`);
      reads.push(performance.now() - t0);
    }
  })();
  const statuses: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const answers = await Promise.all(
      ids.map(async (id, i) => {
        const res = await fetch(`${url}/login`, {
          method: "POST",
          body: new URLSearchParams({ kundnummer: String(id), pinkod: "9999" }),
          headers: { "X-Forwarded-For": `100.80.${round}.${i}` },
          redirect: "manual",
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    statuses.push(...answers);
  }
  flooding = false;
  await reader;
  const refused = statuses.filter((s) => s === 400).length;
  const busy = statuses.filter((s) => s === 503).length;
  // After the flood, on a quiet server: whether the answer's time tells a customer number
  // that exists from one that does not (the unit test counts the work: one hash each).
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    // Alternating, each from an address of its own, so neither meets a delay.
    for (const [into, id, last] of [[known, ids[i % ids.length], 1], [unknown, free[i], 2]] as const) {
      const t0 = performance.now();
      const res = await fetch(`${url}/login`, { method: "POST", body: new URLSearchParams({ kundnummer: String(id), pinkod: "9999" }), headers: { "X-Forwarded-For": `100.64.${i}.${last}` }, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 400) throw new Error(`a wrong PIN for ${id} answered ${res.status}`);
      into.push(performance.now() - t0);
    }
  }
  return { reads, logins: statuses.length, refused, busy, other: statuses.length - refused - busy, known, unknown };
}

export function p95Of(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}

export { median };
