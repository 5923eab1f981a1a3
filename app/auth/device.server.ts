// Device cookies (OWASP "Slow down online guessing attacks with device cookies"): a
// signed, long-lived cookie set after a successful login marks this browser as known
// for that account. A known device with the right secret is not held by the account's
// lock or the address's budget, only by a small budget of its own, so an attacker
// guessing a retailer's PIN cannot lock the retailer out of their own shop terminal.
import { createCookie } from "@remix-run/node";
import { randomBytes } from "node:crypto";
import { cookieSecret, isHttps } from "./session.server";

type DeviceData = { id: string; accounts: string[] };

const MAX_AGE_S = 365 * 24 * 60 * 60;
// A shared terminal can be known for a few accounts; the oldest drops out.
const MAX_ACCOUNTS = 5;

const cookies = {
  secure: createCookie("__Host-rp_device", { httpOnly: true, sameSite: "lax", secure: true, path: "/", maxAge: MAX_AGE_S, secrets: [cookieSecret] }),
  plain: createCookie("rp_device", { httpOnly: true, sameSite: "lax", secure: false, path: "/", maxAge: MAX_AGE_S, secrets: [cookieSecret] }),
};

const cookieFor = (request: Request) => (isHttps(request) ? cookies.secure : cookies.plain);

async function read(request: Request): Promise<DeviceData | null> {
  const value = (await cookieFor(request).parse(request.headers.get("Cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const { id, accounts } = value as Partial<DeviceData>;
  if (typeof id !== "string" || !/^[\w-]{16,64}$/.test(id) || !Array.isArray(accounts)) return null;
  return { id, accounts: accounts.filter((a): a is string => typeof a === "string") };
}

/** The throttle key of this browser for `accountKey`, or null when it is not known for it. */
export async function knownDeviceKey(request: Request, accountKey: string): Promise<string | null> {
  const device = await read(request);
  return device?.accounts.includes(accountKey) ? `device:${device.id}|${accountKey}` : null;
}

/** Set-Cookie that marks this browser as known for `accountKey` (after a successful login). */
export async function rememberDevice(request: Request, accountKey: string): Promise<string> {
  const device = (await read(request)) ?? { id: randomBytes(18).toString("base64url"), accounts: [] };
  const accounts = [...device.accounts.filter((a) => a !== accountKey), accountKey].slice(-MAX_ACCOUNTS);
  return cookieFor(request).serialize({ id: device.id, accounts });
}
