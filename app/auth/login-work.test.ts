// The answer to a login does not tell whether the account exists, because the work behind
// it is the same: one scrypt hash with the same cost for a customer number or e-mail that
// exists and for one that does not (decision 012). Counted here, where it is certain,
// rather than timed against a shared machine's noise.
import { scrypt as realScrypt } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { baseData, newCustomer, db } from "../../tests/unit/helpers";
import { createStaff } from "../../cli/seed/factories";
import { isRefusal } from "~/lib/refusal";

const calls = vi.hoisted(() => [] as { keylen: number; saltBytes: number; options: unknown }[]);
vi.mock("node:crypto", async (original) => {
  const real = await original<typeof import("node:crypto")>();
  return {
    ...real,
    scrypt: (...args: Parameters<typeof realScrypt>) => {
      const [, salt, keylen, options] = args as unknown as [unknown, Buffer, number, unknown];
      calls.push({ keylen, saltBytes: salt.length, options });
      return (real.scrypt as (...a: unknown[]) => void)(...args);
    },
  };
});

const { logIn, STAFF_PAGE_FIELDS } = await import("./auth.server");

let n = 0;
/** The login form's POST from an address of its own (no throttle delay), refused or not. */
async function attempt(kind: "retailer" | "staff", name: string, secret: string) {
  const form: Record<string, string> = kind === "retailer" ? { kundnummer: name, pinkod: secret } : { epost: name, losenord: secret };
  const request = new Request("http://portal.test/login", { method: "POST", body: new URLSearchParams(form) });
  calls.length = 0;
  const outcome = await logIn(kind, request, { ip: `198.51.100.${++n}`, requestId: `work-${n}` }, kind === "staff" ? STAFF_PAGE_FIELDS : undefined).then(
    () => "in",
    (e: unknown) => (isRefusal(e) ? e.message : Promise.reject(e)),
  );
  return { outcome, work: [...calls] };
}

beforeAll(baseData);

describe("a login's work does not tell whether the account exists", () => {
  it("a customer number that exists and one that does not: one hash each, of the same cost, the same answer", async () => {
    const known = await newCustomer({ pin: "4711", name: "Şahin Livs" });
    // Customer numbers have at most five digits; helpers number from 10000 upwards.
    const unknown = 99_000 + (known % 900);
    const a = await attempt("retailer", String(known), "0000");
    const b = await attempt("retailer", String(unknown), "0000");
    expect(a.outcome).toBe("Felaktigt kundnummer eller pinkod.");
    expect(b.outcome).toBe(a.outcome);
    expect(a.work).toHaveLength(1);
    expect(b.work).toEqual(a.work);
    expect(a.work[0]).toMatchObject({ keylen: 32, saltBytes: 16, options: expect.objectContaining({ N: 16384 }) });
    // And the right PIN does the same work.
    expect((await attempt("retailer", String(known), "4711")).work).toEqual(a.work);
  });

  it("an e-mail address of a staff user and one of nobody: one hash each, of the same cost, the same answer", async () => {
    await createStaff(db(), { email: "karin@work.example", name: "Karin Åberg", password: "Rätt-lösenord-för-test", roles: "sales" });
    const a = await attempt("staff", "karin@work.example", "fel-lösenord");
    const b = await attempt("staff", "ingen@work.example", "fel-lösenord");
    expect(b.outcome).toBe(a.outcome);
    expect(a.work).toHaveLength(1);
    expect(b.work).toEqual(a.work);
  });
});
