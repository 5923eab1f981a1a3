// The configuration is read through one schema at start (app/config.server.ts): what
// stops a production start, and what development keeps as defaults.
import { describe, expect, it } from "vitest";
import { isRefusal } from "~/lib/refusal";
import { SELLER_ENV } from "../tests/production-env";
import { readConfig, type ConfigOptions } from "./config.server";

const STRONG = "9f1c2e7a4b8d3f6e0a5c9b2d7e4f1a3c5e8b0d2f4a6c8e1b3d5f7a9c0e2b4d6f";

function refusal(env: Record<string, string | undefined>, options?: ConfigOptions): string {
  try {
    readConfig(env, options);
  } catch (e) {
    if (isRefusal(e, "invalid")) return e.message;
    throw e;
  }
  return "";
}

describe("readConfig", () => {
  it("stops a production start without SESSION_SECRET, with a short one or a known demo value", () => {
    expect(refusal({ NODE_ENV: "production" })).toMatch(/^SESSION_SECRET saknas/);
    expect(refusal({ NODE_ENV: "production", SESSION_SECRET: "kort-hemlighet" })).toMatch(/^SESSION_SECRET är för svag \(14 tecken\)/);
    expect(refusal({ NODE_ENV: "production", SESSION_SECRET: "<long random string, the same everywhere>" })).toMatch(/känt demovärde/);
    // The `serve --demo` demo may run without one (a random one), never with a weak one.
    expect(refusal({ NODE_ENV: "production" }, { demo: true })).toBe("");
    expect(refusal({ NODE_ENV: "production", SESSION_SECRET: "bench-secret" }, { demo: true })).toMatch(/för svag/);
    expect(readConfig({ NODE_ENV: "production", SESSION_SECRET: STRONG, PORTAL_URL: "https://retur.example.se", ...SELLER_ENV }).sessionSecret).toBe(STRONG);
  });

  it("stops a production start on a long secret without variety: 32 × a, two letters repeated, 32 hex digits", () => {
    const production = (SESSION_SECRET: string) => refusal({ NODE_ENV: "production", SESSION_SECRET, PORTAL_URL: "https://retur.example.se", ...SELLER_ENV });
    expect(production("a".repeat(32))).toMatch(/^SESSION_SECRET är för enformig \(0 bitar variation, minst 128 krävs\)/);
    expect(production("ab".repeat(40))).toMatch(/^SESSION_SECRET är för enformig \(80 bitar/);
    expect(production("9f1c2e7a4b8d3f6e0a5c9b2d7e4f1a3c")).toMatch(/för enformig/);
    expect(production(STRONG)).toBe("");
    // openssl rand -hex 32 and -base64 32, as the README says.
    expect(production("c6a1d9f04e7b32a58d1e6f9c0b4a7e2d3f8c1b6a9e0d4f7c2b5a8e1d3f6c9b0a")).toBe("");
    expect(production("q8Zr1vN3kP0xT7yB2mW9cL4fH6jD5sG0aE1uI8oR3tY=")).toBe("");
  });

  it("stops a production start on a PORTAL_URL that is not https://, unless it names this machine", () => {
    const production = (PORTAL_URL: string) => refusal({ NODE_ENV: "production", SESSION_SECRET: STRONG, PORTAL_URL, ...SELLER_ENV });
    expect(production("http://retur.example.se")).toMatch(/^PORTAL_URL http:\/\/retur\.example\.se är inte https:\/\//);
    expect(production("https://retur.example.se")).toBe("");
    expect(production("http://127.0.0.1:3000")).toBe("");
    expect(production("http://localhost:3000")).toBe("");
    // Development and the demo keep plain HTTP.
    expect(refusal({ PORTAL_URL: "http://retur.example.se" })).toBe("");
    expect(refusal({ NODE_ENV: "production", PORTAL_URL: "http://retur.example.se" }, { demo: true })).toBe("");
  });

  it("stops a production start without PORTAL_URL, and never guesses the address of a production mail or letter", () => {
    expect(refusal({ NODE_ENV: "production", SESSION_SECRET: STRONG })).toMatch(/^PORTAL_URL saknas: i drift krävs portalens publika adress/);
    // A tool importing the app reads leniently: no address rather than localhost.
    expect(readConfig({ NODE_ENV: "production" }, { lenient: true }).portalUrl).toBeNull();
    expect(readConfig({ NODE_ENV: "production" }, { demo: true }).portalUrl).toBe("http://localhost:3000");
    expect(readConfig({ NODE_ENV: "production", PORTAL_URL: "https://retur.example.se/" }, { lenient: true }).portalUrl).toBe("https://retur.example.se");
  });

  it("keeps the development defaults: a random secret, the local database file, no proxy", () => {
    for (const NODE_ENV of [undefined, "development", "test"]) {
      const c = readConfig({ NODE_ENV, SESSION_SECRET: NODE_ENV === "test" ? "x" : undefined });
      expect(c.databaseUrl).toBe("file:data/portal.db");
      expect(c.trustProxy).toBe(false);
      expect(c.sessionSecret.length).toBeGreaterThanOrEqual(1);
    }
    expect(readConfig({}).sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(readConfig({}).sessionSecretRandom).toBe(true);
  });

  it("accepts the database URLs the libSQL client is used with and stops on any other scheme", () => {
    for (const url of ["file:data/portal.db", "libsql://x.turso.io", "http://127.0.0.1:8080", "https://sqld.example", ":memory:"]) {
      expect(readConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
    for (const url of ["postgres://localhost/portal", "data/portal.db", "sqlite:portal.db", "ws://x"]) {
      expect(refusal({ DATABASE_URL: url })).toMatch(/^DATABASE_URL .* har ett okänt schema; använd file:, libsql:, http:, https: eller :memory:\.$/);
    }
  });

  it("takes TRUST_PROXY as the proxies' addresses, subnets or names and stops on a hop count or anything else", () => {
    // A hop count would trust X-Forwarded-For from any client that reaches the app port.
    expect(refusal({ TRUST_PROXY: "1" })).toMatch(/^TRUST_PROXY "1" är ett antal proxyled: ange i stället proxyns adresser/);
    expect(readConfig({ TRUST_PROXY: "" }).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8" }).trustProxy).toBe("loopback,10.0.0.0/8,fd00::/8");
    for (const bad of ["true", "yes", "1.5", "-1", "10.0.0.0/33", "999", "10.0.0.300", "loopback;rm"]) {
      expect(refusal({ TRUST_PROXY: bad }), bad).toMatch(/^TRUST_PROXY .* går inte att tolka/);
    }
  });

  it("takes the mail settings (SMTP_URL, PORTAL_URL, REMIND_AT) and stops on ones that cannot work", () => {
    const c = readConfig({});
    expect([c.smtpUrl, c.portalUrl, c.remindAt]).toEqual(["", "http://localhost:3000", "07:00"]);
    const set = readConfig({ SMTP_URL: " smtps://u:p@mail.example.se:465 ", PORTAL_URL: "https://retur.example.se/", REMIND_AT: "off", MAIL_FROM: "Retur <r@example.se>" });
    expect([set.smtpUrl, set.portalUrl, set.remindAt, set.mailFrom]).toEqual(["smtps://u:p@mail.example.se:465", "https://retur.example.se", null, "Retur <r@example.se>"]);
    expect(readConfig({ REMIND_AT: "06:30" }).remindAt).toBe("06:30");
    expect(refusal({ SMTP_URL: "mail.example.se:587" })).toMatch(/^SMTP_URL ska vara/);
    expect(refusal({ PORTAL_URL: "retur.example.se" })).toMatch(/^PORTAL_URL ska vara/);
    for (const bad of ["7", "24:00", "7:00", "07:60", "never"]) expect(refusal({ REMIND_AT: bad }), bad).toMatch(/^REMIND_AT ska vara/);
  });

  it("says every reason on one line", () => {
    for (const env of [{ NODE_ENV: "production" }, { DATABASE_URL: "pg://x" }, { TRUST_PROXY: "x\ny" }]) {
      expect(refusal(env)).not.toContain("\n");
    }
  });
});
