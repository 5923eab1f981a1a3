// Settings read from the environment (README, Configuration), through one schema, once
// at start: `portal serve` calls readConfig before it opens the database, so a missing
// or weak SESSION_SECRET in production, an unknown DATABASE_URL scheme or a bad
// TRUST_PROXY stops the start with one line that says what to set. A production start
// takes nothing on trust (docs/decisions/019-production-start.md): no random secret, no
// guessed public address, unless the operator asked for the demo (`serve --demo`).
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { bankgiroOf, orgNumberOf, swedishIbanOf } from "~/lib/bank-numbers.server";
import { clockOffsetProblem, databaseFile, databaseUrlProblem, writeWaitMsOf, writeWaitProblem } from "~/db.server";
import { ROLES, type Role } from "~/catalog";
import { refuse } from "~/lib/refusal";
import { z } from "~/lib/zod";

/** Secrets that have been published (README, old tests, common placeholders): never good enough in production. */
export const KNOWN_DEMO_SECRETS = new Set([
  "<long random string, the same everywhere>",
  "long random string, the same everywhere",
  "e2e-secret-not-for-production",
  "own-server-secret-not-for-production",
  "bench-secret",
  "crash-secret",
  "changeme",
  "change-me",
  "secret",
  "session-secret",
]);

export const SESSION_SECRET_MIN_LENGTH = 32;
/** A production secret's variety (varietyBits): 32 × "a" has none, `openssl rand -hex 32` about 240. */
export const SESSION_SECRET_MIN_BITS = 128;

/**
 * The variety of a string in bits: its length times the Shannon entropy of its characters'
 * frequencies. It credits a string only for the characters it really mixes, so a long run
 * of one or two characters is weak however long (decision 035).
 */
export function varietyBits(value: string): number {
  const chars = [...value];
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / chars.length) * Math.log2(n / chars.length);
  return perChar * chars.length;
}

/** Whether a URL names this machine (a local test of a production build), where http:// is no risk. */
function isLocalUrl(value: string): boolean {
  try {
    return ["localhost", "127.0.0.1", "[::1]"].includes(new URL(value).hostname);
  } catch {
    return false;
  }
}

/** Why no mail or PIN letter is made: production without the portal's public address. */
export const PORTAL_URL_MISSING =
  "PORTAL_URL saknas: i drift krävs portalens publika adress för länkarna i pinkodsbrev och e-post (t.ex. https://retur.example.se).";

export { databaseUrlProblem };

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function proxyEntryOk(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [addr, bits, ...rest] = entry.split("/");
  const version = isIP(addr);
  if (!version || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/** TRUST_PROXY as Express takes it: off, or the addresses/subnets/names of the proxies to trust. */
export type TrustProxy = false | string;

/**
 * TRUST_PROXY: the proxies' addresses, subnets or names. A hop count is refused: it trusts
 * X-Forwarded-For from whoever connects, so a client reaching the app port directly would
 * pick its own address for the login budgets (decision 035).
 */
function parseTrustProxy(value: string | undefined): TrustProxy | undefined | "hops" {
  const v = (value ?? "").trim();
  if (v === "") return false;
  if (/^\d{1,2}$/.test(v)) return "hops";
  const entries = v.split(",").map((e) => e.trim());
  return entries.every(proxyEntryOk) ? entries.join(",") : undefined;
}

const envSchema = z.object({
  NODE_ENV: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  TRUST_PROXY: z.string().optional(),
  CONTACT_PHONE: z.string().optional(),
  CONTACT_EMAIL: z.string().optional(),
  CONTACT_HOURS: z.string().optional(),
  PUBLIC_SITE_URL: z.string().optional(),
  WEBSHOP_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  PORTAL_URL: z.string().optional(),
  REMIND_AT: z.string().optional(),
  MAINTENANCE_AT: z.string().optional(),
  CLAIM_DEADLINE: z.string().optional(),
  SUPPLY_CUTOFF: z.string().optional(),
  SUPPLY_ONE_OFF_CUTOFF: z.string().optional(),
  IMAGE_MAX_SIZE: z.string().optional(),
  SELLER_NAME: z.string().optional(),
  SELLER_ADDRESS: z.string().optional(),
  SELLER_ORG_NUMBER: z.string().optional(),
  SELLER_VAT_NUMBER: z.string().optional(),
  SELLER_BANKGIRO: z.string().optional(),
  SELLER_F_SKATT: z.string().optional(),
  PAYOUT_IBAN: z.string().optional(),
  PAYOUT_BIC: z.string().optional(),
  REPLICA_URL: z.string().optional(),
  REPLICA_MAX_LAG: z.string().optional(),
  REPLICA_SYNC_INTERVAL: z.string().optional(),
  REPLICA_SNAPSHOT_INTERVAL: z.string().optional(),
  REPLICA_RETENTION: z.string().optional(),
  DATABASE_SYNC_URL: z.string().optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  THROTTLE_WINDOW_MS: z.string().optional(),
  THROTTLE_IP_LIMIT: z.string().optional(),
  THROTTLE_GLOBAL_LIMIT: z.string().optional(),
  HASH_CONCURRENCY: z.string().optional(),
  HASH_QUEUE: z.string().optional(),
  STAFF_TOTP_ROLES: z.string().optional(),
  PORTAL_WRITE_WAIT_MS: z.string().optional(),
  PORTAL_TODAY: z.string().optional(),
  PORTAL_CLOCK_OFFSET_MS: z.string().optional(),
  PORTAL_QUIET_LOG: z.string().optional(),
  PORTAL_DEMO: z.string().optional(),
  REMIX_BUILD_DIR: z.string().optional(),
});

/** Who sends the invoices, as every invoice must say (mervärdesskattelagen 17 kap. 24 §). */
export type Seller = {
  name: string;
  /** One line: "Box 100, 111 20 Stockholm". */
  address: string;
  orgNumber: string;
  vatNumber: string;
  bankgiro: string;
  /** Approved for F-skatt: the invoice says "Godkänd för F-skatt". */
  fSkatt: boolean;
  /**
   * The account guarantee payouts are paid from (PAYOUT_IBAN, its bank's PAYOUT_BIC): the
   * debtor of the ISO 20022 payout file (decision 034). Absent: the bankgiro pays.
   */
  payoutIban?: string;
  payoutBic?: string;
};

/** The demo's seller, made up: numbers that pass the checks and belong to nobody. */
export const DEMO_SELLER: Seller = {
  name: "Returportalen Demo AB",
  address: "Box 100, 111 20 Stockholm",
  orgNumber: "559012-3450",
  vatNumber: "SE559012345001",
  bankgiro: "5050-1055",
  fSkatt: true,
};

/**
 * The seller from SELLER_*, checked. A production start requires every one; development
 * and the demo print the made-up DEMO_SELLER; a tool reading the configuration leniently in
 * production without them gets null, and makes no invoice document.
 */
function readSeller(e: z.infer<typeof envSchema>, strict: boolean, demoSeller: boolean): Seller | null {
  const given = {
    SELLER_NAME: (e.SELLER_NAME ?? "").trim(),
    SELLER_ADDRESS: (e.SELLER_ADDRESS ?? "").trim(),
    SELLER_ORG_NUMBER: (e.SELLER_ORG_NUMBER ?? "").trim(),
    SELLER_VAT_NUMBER: (e.SELLER_VAT_NUMBER ?? "").trim().toUpperCase().replace(/\s/g, ""),
    SELLER_BANKGIRO: (e.SELLER_BANKGIRO ?? "").trim(),
  };
  const missing = Object.entries(given).filter(([, v]) => v === "").map(([k]) => k);
  if (missing.length === Object.keys(given).length && !strict) return demoSeller ? DEMO_SELLER : null;
  if (missing.length > 0) {
    throw refuse.invalid(`Säljarens uppgifter för fakturorna saknas: ${missing.join(", ")} (namn, adress, organisationsnummer, momsregistreringsnummer och bankgiro).`);
  }
  const orgNumber = orgNumberOf(given.SELLER_ORG_NUMBER);
  if (!orgNumber) throw refuse.invalid("SELLER_ORG_NUMBER är inget giltigt organisationsnummer (10 siffror med kontrollsiffra, t.ex. 556016-0680).");
  const vatNumber = given.SELLER_VAT_NUMBER;
  if (vatNumber !== `SE${orgNumber.replace("-", "")}01`) {
    throw refuse.invalid(`SELLER_VAT_NUMBER ska vara SE, organisationsnumrets tio siffror och 01: SE${orgNumber.replace("-", "")}01.`);
  }
  const bankgiro = bankgiroOf(given.SELLER_BANKGIRO);
  if (!bankgiro) throw refuse.invalid("SELLER_BANKGIRO är inget giltigt bankgironummer (7–8 siffror med kontrollsiffra, t.ex. 5050-1055).");
  const fSkatt = (e.SELLER_F_SKATT ?? "ja").trim().toLowerCase();
  if (fSkatt !== "ja" && fSkatt !== "nej") throw refuse.invalid("SELLER_F_SKATT ska vara ja eller nej.");
  return { name: given.SELLER_NAME, address: given.SELLER_ADDRESS, orgNumber, vatNumber, bankgiro, fSkatt: fSkatt === "ja", ...readPayoutAccount(e) };
}

/** PAYOUT_IBAN and PAYOUT_BIC, checked: a Swedish IBAN by its check digits, a BIC by its shape. */
function readPayoutAccount(e: z.infer<typeof envSchema>): Pick<Seller, "payoutIban" | "payoutBic"> {
  const rawIban = (e.PAYOUT_IBAN ?? "").trim();
  const rawBic = (e.PAYOUT_BIC ?? "").trim().toUpperCase();
  if (!rawIban) {
    if (rawBic) throw refuse.invalid("PAYOUT_BIC utan PAYOUT_IBAN: ange kontot som garantibeloppen betalas från (IBAN, t.ex. SE45 5000 0000 0583 9825 7466).");
    return {};
  }
  const payoutIban = swedishIbanOf(rawIban);
  if (!payoutIban) throw refuse.invalid("PAYOUT_IBAN är inget giltigt svenskt IBAN (SE, två kontrollsiffror och 20 siffror, t.ex. SE45 5000 0000 0583 9825 7466).");
  if (rawBic && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(rawBic)) throw refuse.invalid("PAYOUT_BIC är ingen BIC (8 eller 11 tecken, t.ex. ESSESESS).");
  return rawBic ? { payoutIban, payoutBic: rawBic } : { payoutIban };
}

export type Config = {
  production: boolean;
  /** `serve --demo` (`npm start`): made-up data, never the real thing. */
  demo: boolean;
  /** Signs the session and device cookies; random per start outside production (and for the `serve --setup` demo). */
  sessionSecret: string;
  /** True when no SESSION_SECRET was set and a random one is used. */
  sessionSecretRandom: boolean;
  databaseUrl: string;
  /** DATABASE_AUTH_TOKEN: a remote libSQL server's token, or undefined. */
  databaseAuthToken: string | undefined;
  trustProxy: TrustProxy;
  contactPhone: string;
  contactEmail: string;
  /** When customer service answers the phone, in words ("vardagar 07.00–16.00"). */
  contactHours: string;
  publicSiteUrl: string;
  webshopUrl: string;
  clientVersion: string;
  /** The e-mail reminders: SMTP server (smtp:// or smtps://), or "" to log what would be sent. */
  smtpUrl: string;
  mailFrom: string;
  /**
   * The portal's public address, for the links in e-mails and PIN letters (never taken
   * from a request's headers). null in production when PORTAL_URL is not set: then no
   * mail or letter is made.
   */
  portalUrl: string | null;
  /** When the server sends the day's reminders (HH:MM, Stockholm time), or null for never. */
  remindAt: string | null;
  /** When the server runs `maintenance prune` (HH:MM, Stockholm time), or null for never. */
  maintenanceAt: string | null;
  /** Who sends the invoices: on every invoice, with where and how to pay (null: see readSeller). */
  seller: Seller | null;
  /** Until when a delivery may be claimed: `days` after the delivery date at `time`, Stockholm time (decision 031). */
  claimDeadline: ClaimDeadline;
  supplyCutoffs: SupplyCutoffs;
  /** The largest cover image taken, in pixels (IMAGE_MAX_SIZE, "4000x4000"; decision 035). */
  imageMaxSize: { width: number; height: number };
  /** Continuous replication of the database file (REPLICA_URL; decision 039), or null. */
  replica: ReplicaSettings | null;
  /** An embedded replica's primary (DATABASE_SYNC_URL), or null (decision 025). */
  databaseSyncUrl: string | null;
  /** The login budgets that can be set (decision 012); the rest of the policy is fixed. */
  throttle: { windowMs: number; ipLimit: number; globalLimit: number };
  /** Login hashes at once and waiting (HASH_CONCURRENCY, HASH_QUEUE); beyond them a login is refused as busy. */
  hashLimits: { concurrent: number; queue: number };
  /** Staff roles that must give a second factor (STAFF_TOTP_ROLES, decision 013). */
  totpRoles: Role[];
  /** How long a save waits for a database another process holds (PORTAL_WRITE_WAIT_MS). */
  writeWaitMs: number;
  /** PORTAL_QUIET_LOG=1: no log line per request. */
  quietLog: boolean;
  /** Where the built app is (REMIX_BUILD_DIR, default build): several checkouts may build side by side. */
  buildDir: string;
};

/**
 * A whole number setting: unset is `fallback`; anything but digits from `min` to `max` is
 * refused, never read as the default (THROTTLE_IP_LIMIT=abc does not run with 100).
 */
function readWhole(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  const v = (value ?? "").trim();
  if (v === "") return fallback;
  if (!/^\d{1,10}$/.test(v) || Number(v) < min || Number(v) > max) {
    throw refuse.invalid(`${name} ska vara ett heltal från ${min} till ${max} (utan värde: ${fallback}).`);
  }
  return Number(v);
}

/** STAFF_TOTP_ROLES: roles separated by commas, or `none`; unset is admin. */
export function parseTotpRoles(text: string | undefined): Role[] {
  const value = (text ?? "").trim();
  if (value === "") return ["admin"];
  if (value.toLowerCase() === "none") return [];
  const roles = value
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (unknown.length > 0 || roles.length === 0) {
    const what = unknown.length > 0 ? `; okänd roll: ${unknown.join(", ")}` : "";
    throw refuse.invalid(`STAFF_TOTP_ROLES ska vara roller åtskilda med komma (${ROLES.join(", ")}) eller none${what}.`);
  }
  return [...new Set(roles)] as Role[];
}

/** PORTAL_TODAY: a real date YYYY-MM-DD (spaces around it are ignored, as dates.ts does), or unset. */
function readToday(value: string | undefined): string | null {
  const v = (value ?? "").trim();
  if (v === "") return null;
  const d = new Date(`${v}T12:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
    throw refuse.invalid("PORTAL_TODAY ska vara ett datum ÅÅÅÅ-MM-DD, t.ex. 2026-03-02 (bara för demo och test).");
  }
  return v;
}

/** A yes/no switch: unset, 0, false or no is off; 1, true or yes is on. */
function readSwitch(name: string, value: string | undefined): boolean {
  const v = (value ?? "").trim().toLowerCase();
  if (["", "0", "false", "no"].includes(v)) return false;
  if (["1", "true", "yes"].includes(v)) return true;
  throw refuse.invalid(`${name} ska vara 1 (på) eller 0 (av).`);
}

/** Where and how Litestream replicates the database file (decision 039). Durations in seconds. */
export type ReplicaSettings = {
  /** file:///…, s3://bucket/path, sftp://host/path, gcs://… or abs://… */
  url: string;
  /** Above this lag /readyz says not ready (REPLICA_MAX_LAG, default 30s). */
  maxLagSeconds: number;
  /** How often new WAL is shipped (REPLICA_SYNC_INTERVAL, default 1s). */
  syncIntervalSeconds: number;
  /** How often a full snapshot is taken (REPLICA_SNAPSHOT_INTERVAL, default 24h). */
  snapshotIntervalSeconds: number;
  /** How far back a point-in-time restore reaches (REPLICA_RETENTION, default 168h). */
  retentionSeconds: number;
};

const REPLICA_SCHEMES = ["file:", "s3:", "sftp:", "gcs:", "abs:"];

/** A duration as Litestream writes it: "30s", "5m", "24h". */
function readDuration(name: string, value: string | undefined, fallback: string, min: number, max: number): number {
  const m = /^(\d{1,6})(s|m|h)$/.exec((value ?? "").trim() || fallback);
  const seconds = m ? Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as "s" | "m" | "h"] : Number.NaN;
  if (!(seconds >= min && seconds <= max)) {
    throw refuse.invalid(`${name} ska vara en tid i sekunder, minuter eller timmar (t.ex. ${fallback}), mellan ${min} s och ${max / 3600} h.`);
  }
  return seconds;
}

/** REPLICA_URL and its settings, checked; null without REPLICA_URL. Only a local database file is replicated. */
function readReplica(e: z.infer<typeof envSchema>, databaseUrl: string): ReplicaSettings | null {
  const url = (e.REPLICA_URL ?? "").trim();
  if (!url) return null;
  if (!urlOk(url, REPLICA_SCHEMES)) {
    throw refuse.invalid("REPLICA_URL ska vara file:///sökväg (en annan disk), s3://hink/sökväg, sftp://värd/sökväg, gcs://… eller abs://….");
  }
  if (!databaseFile(databaseUrl)) {
    throw refuse.invalid("REPLICA_URL replikerar en lokal databasfil (DATABASE_URL=file:…); en libsql-server (Turso, sqld) har sina egna kopior.");
  }
  if (url.startsWith("file:") && new URL(url).host !== "") throw refuse.invalid("REPLICA_URL file:///… ska vara en absolut sökväg (tre snedstreck), t.ex. file:///mnt/replika/portal.");
  return {
    url,
    maxLagSeconds: readDuration("REPLICA_MAX_LAG", e.REPLICA_MAX_LAG, "30s", 2, 24 * 3600),
    syncIntervalSeconds: readDuration("REPLICA_SYNC_INTERVAL", e.REPLICA_SYNC_INTERVAL, "1s", 1, 3600),
    snapshotIntervalSeconds: readDuration("REPLICA_SNAPSHOT_INTERVAL", e.REPLICA_SNAPSHOT_INTERVAL, "24h", 60, 31 * 24 * 3600),
    retentionSeconds: readDuration("REPLICA_RETENTION", e.REPLICA_RETENTION, "168h", 3600, 366 * 24 * 3600),
  };
}

/** DATABASE_SYNC_URL: the primary an embedded replica (a local file) follows; libsql://, https:// or http://. */
function readSyncUrl(e: z.infer<typeof envSchema>, databaseUrl: string): string | null {
  const url = (e.DATABASE_SYNC_URL ?? "").trim();
  if (!url) return null;
  if (!urlOk(url, ["libsql:", "https:", "http:"])) throw refuse.invalid("DATABASE_SYNC_URL ska vara primärdatabasens adress: libsql://…, https://… eller http://….");
  if (!databaseFile(databaseUrl)) {
    throw refuse.invalid("DATABASE_SYNC_URL kräver att DATABASE_URL är en lokal fil (file:…), den inbäddade kopian.");
  }
  if ((e.REPLICA_URL ?? "").trim()) throw refuse.invalid("DATABASE_SYNC_URL och REPLICA_URL går inte ihop: en inbäddad kopia har primärdatabasen som original; replikera primären i stället.");
  return url;
}

/** IMAGE_MAX_SIZE: "<width>x<height>" in pixels, by default 4000x4000. */
function readImageMaxSize(value: string | undefined): { width: number; height: number } {
  const m = /^(\d{2,5})\s*[x×]\s*(\d{2,5})$/.exec((value ?? "").trim() || "4000x4000");
  if (!m || Number(m[1]) > 20000 || Number(m[2]) > 20000) throw refuse.invalid("IMAGE_MAX_SIZE ska vara bredd x höjd i bildpunkter, högst 20000x20000, t.ex. 4000x4000.");
  return { width: Number(m[1]), height: Number(m[2]) };
}

export type ClaimDeadline = { days: number; time: string };

/** CLAIM_DEADLINE: "<days after delivery> <HH:MM>", by default "1 12:00" (12:00 the day after delivery). */
function readClaimDeadline(value: string | undefined): ClaimDeadline {
  const m = /^(\d{1,2}) ([01]\d|2[0-3]):([0-5]\d)$/.exec((value ?? "").trim() || "1 12:00");
  if (!m || Number(m[1]) > 14) throw refuse.invalid("CLAIM_DEADLINE ska vara dagar efter leveransen (0–14) och en tid, t.ex. 1 12:00 (kl. 12 dagen efter leveransen, svensk tid).");
  return { days: Number(m[1]), time: `${m[2]}:${m[3]}` };
}

/** Leveransändring's cut-offs (decision 037), Stockholm time. */
export type SupplyCutoffs = { weekday: number; weekdayTime: string; oneOffDays: number; oneOffTime: string };

/**
 * SUPPLY_CUTOFF "<ISO weekday> <HH:MM>" (default "3 15:00": a weekday change sent by
 * Wednesday 15:00 starts the Monday after) and SUPPLY_ONE_OFF_CUTOFF "<working days> <HH:MM>"
 * (default "2 12:00": a one-off change closes at 12:00 two working days before its date).
 */
function readSupplyCutoffs(weekly: string | undefined, oneOff: string | undefined): SupplyCutoffs {
  const w = /^([1-7]) ([01]\d|2[0-3]):([0-5]\d)$/.exec((weekly ?? "").trim() || "3 15:00");
  if (!w) throw refuse.invalid("SUPPLY_CUTOFF ska vara en veckodag (1 måndag – 7 söndag) och en tid, t.ex. 3 15:00 (onsdag kl. 15, svensk tid).");
  const o = /^(\d{1,2}) ([01]\d|2[0-3]):([0-5]\d)$/.exec((oneOff ?? "").trim() || "2 12:00");
  if (!o || Number(o[1]) > 10) throw refuse.invalid("SUPPLY_ONE_OFF_CUTOFF ska vara arbetsdagar före dagen (0–10) och en tid, t.ex. 2 12:00.");
  return { weekday: Number(w[1]), weekdayTime: `${w[2]}:${w[3]}`, oneOffDays: Number(o[1]), oneOffTime: `${o[2]}:${o[3]}` };
}

/** A daily job's time: HH:MM on Stockholm's clock, or null for "off". */
function dailyTime(e: Record<string, string | undefined>, name: "REMIND_AT" | "MAINTENANCE_AT", fallback: string): string | null {
  const value = (e[name] ?? "").trim() || fallback;
  if (value === "off") return null;
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(value)) throw refuse.invalid(`${name} ska vara en tid (TT:MM, svensk tid) eller off.`);
  return value;
}

function urlOk(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export type ConfigOptions = {
  /**
   * The operator's explicit demo (`serve --demo`, `npm start`): a production-mode server
   * may then run with a random SESSION_SECRET and a local PORTAL_URL.
   */
  demo?: boolean;
  /** Read without the production start's demands: a module or tool importing the app. */
  lenient?: boolean;
};

/**
 * The configuration from `env`, or a refusal whose message is the one line the operator
 * reads. A weak or published SESSION_SECRET is refused even in the demo.
 */
export function readConfig(env: Record<string, string | undefined> = process.env, options: ConfigOptions = {}): Config {
  const e = envSchema.parse(env);
  const production = e.NODE_ENV === "production";
  const strict = production && !options.demo && !options.lenient;
  const secret = e.SESSION_SECRET ?? "";
  if (strict && secret === "") {
    throw refuse.invalid(
      `SESSION_SECRET saknas: i drift (NODE_ENV=production) krävs en slumpad sträng på minst ${SESSION_SECRET_MIN_LENGTH} tecken, samma på alla appservrar (t.ex. openssl rand -hex 32).`,
    );
  }
  if (production && secret !== "" && (secret.length < SESSION_SECRET_MIN_LENGTH || KNOWN_DEMO_SECRETS.has(secret.trim()))) {
    throw refuse.invalid(
      secret.length < SESSION_SECRET_MIN_LENGTH
        ? `SESSION_SECRET är för svag (${secret.length} tecken): i drift krävs minst ${SESSION_SECRET_MIN_LENGTH} slumpade tecken (t.ex. openssl rand -hex 32).`
        : `SESSION_SECRET är ett känt demovärde: i drift krävs en egen slumpad sträng (t.ex. openssl rand -hex 32).`,
    );
  }
  if (production && secret !== "" && varietyBits(secret) < SESSION_SECRET_MIN_BITS) {
    throw refuse.invalid(
      `SESSION_SECRET är för enformig (${Math.floor(varietyBits(secret))} bitar variation, minst ${SESSION_SECRET_MIN_BITS} krävs): i drift krävs en slumpad sträng (t.ex. openssl rand -hex 32).`,
    );
  }
  const databaseUrl = e.DATABASE_URL || "file:data/portal.db";
  const urlProblem = databaseUrlProblem(databaseUrl);
  if (urlProblem) throw refuse.invalid(urlProblem);
  // PORTAL_TODAY is read by app/lib/dates.ts (it also runs in the browser); checked here.
  readToday(e.PORTAL_TODAY);
  // The portal's clock's shift (db/clock.ts reads it: the date module runs in the browser too).
  const clockProblem = clockOffsetProblem(e.PORTAL_CLOCK_OFFSET_MS);
  if (clockProblem) throw refuse.invalid(clockProblem);
  const waitProblem = writeWaitProblem(e.PORTAL_WRITE_WAIT_MS);
  if (waitProblem) throw refuse.invalid(waitProblem);
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (trustProxy === "hops") {
    throw refuse.invalid(
      `TRUST_PROXY ${JSON.stringify(e.TRUST_PROXY)} är ett antal proxyled: ange i stället proxyns adresser eller nät (10.0.0.1, 10.0.0.0/8, loopback) åtskilda med komma, så att bara de får ange klientens adress.`,
    );
  }
  if (trustProxy === undefined) {
    throw refuse.invalid(
      `TRUST_PROXY ${JSON.stringify(e.TRUST_PROXY)} går inte att tolka: ange proxyns adresser eller nät (10.0.0.1, 10.0.0.0/8, loopback) åtskilda med komma.`,
    );
  }
  const smtpUrl = (e.SMTP_URL ?? "").trim();
  if (smtpUrl && !urlOk(smtpUrl, ["smtp:", "smtps:"])) throw refuse.invalid("SMTP_URL ska vara en smtp://- eller smtps://-adress, t.ex. smtp://user:lösen@mail.example.se:587.");
  const givenUrl = (e.PORTAL_URL ?? "").trim().replace(/\/+$/, "");
  if (givenUrl && !urlOk(givenUrl, ["http:", "https:"])) throw refuse.invalid("PORTAL_URL ska vara portalens adress, t.ex. https://retur.example.se.");
  if (strict && !givenUrl) {
    throw refuse.invalid(PORTAL_URL_MISSING);
  }
  // Links in mails and PIN letters lead to the login: never over plain HTTP in production.
  if (production && !options.demo && givenUrl && !givenUrl.startsWith("https://") && !isLocalUrl(givenUrl)) {
    throw refuse.invalid(`PORTAL_URL ${givenUrl} är inte https://: i drift leder länkarna i e-post och pinkodsbrev till inloggningen och ska gå över HTTPS (t.ex. https://retur.example.se).`);
  }
  const portalUrl = givenUrl || (production && !options.demo ? null : "http://localhost:3000");
  const remindAt = dailyTime(e, "REMIND_AT", "07:00");
  const maintenanceAt = dailyTime(e, "MAINTENANCE_AT", "03:30");
  const seller = readSeller(e, strict, !production || Boolean(options.demo));
  return {
    production,
    demo: Boolean(options.demo),
    sessionSecret: secret || randomBytes(32).toString("hex"),
    sessionSecretRandom: secret === "",
    databaseUrl,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN || undefined,
    trustProxy,
    contactPhone: e.CONTACT_PHONE || "010-123 45 00",
    contactEmail: e.CONTACT_EMAIL || "kundservice@returportalen.example",
    contactHours: (e.CONTACT_HOURS ?? "").trim() || "vardagar 07.00–16.00",
    publicSiteUrl: e.PUBLIC_SITE_URL || "https://www.returportalen.example/",
    webshopUrl: e.WEBSHOP_URL || "https://webbshop.returportalen.example/",
    clientVersion: "1.1.2",
    smtpUrl,
    mailFrom: (e.MAIL_FROM ?? "").trim() || "Returportalen <noreply@returportalen.example>",
    portalUrl,
    remindAt,
    maintenanceAt,
    seller,
    claimDeadline: readClaimDeadline(e.CLAIM_DEADLINE),
    supplyCutoffs: readSupplyCutoffs(e.SUPPLY_CUTOFF, e.SUPPLY_ONE_OFF_CUTOFF),
    imageMaxSize: readImageMaxSize(e.IMAGE_MAX_SIZE),
    replica: readReplica(e, databaseUrl),
    databaseSyncUrl: readSyncUrl(e, databaseUrl),
    throttle: {
      windowMs: readWhole("THROTTLE_WINDOW_MS", e.THROTTLE_WINDOW_MS, 15 * 60_000, 1_000, 24 * 3600_000),
      ipLimit: readWhole("THROTTLE_IP_LIMIT", e.THROTTLE_IP_LIMIT, 100, 1, 1_000_000),
      globalLimit: readWhole("THROTTLE_GLOBAL_LIMIT", e.THROTTLE_GLOBAL_LIMIT, 2000, 1, 10_000_000),
    },
    hashLimits: {
      // One core stays free for the event loop (pages, database) on a small machine.
      concurrent: readWhole("HASH_CONCURRENCY", e.HASH_CONCURRENCY, Math.max(1, availableParallelism() - 1), 1, 256),
      queue: readWhole("HASH_QUEUE", e.HASH_QUEUE, 16, 0, 10_000),
    },
    totpRoles: parseTotpRoles(e.STAFF_TOTP_ROLES),
    writeWaitMs: writeWaitMsOf(e.PORTAL_WRITE_WAIT_MS),
    quietLog: readSwitch("PORTAL_QUIET_LOG", e.PORTAL_QUIET_LOG),
    buildDir: (e.REMIX_BUILD_DIR ?? "").trim() || "build",
  };
}

/**
 * The settings the app runs with. `portal serve` has checked the same environment with
 * readConfig before the app is loaded (and marks its demo with PORTAL_DEMO=1); read
 * leniently here so that a tool importing the app loads.
 */
export const config: Config = readConfig(process.env, { lenient: true, demo: envSchema.parse(process.env).PORTAL_DEMO === "1" });
