import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb, schema } from "~/db.server";
import { eq } from "drizzle-orm";
import { audit } from "~/domain/audit.server";
import { verifySecret } from "~/domain/passwords.server";
import { getStaffByEmail } from "~/domain/staff.server";
import { recordFailure, recordSuccess, waitBeforeLogin } from "~/domain/throttle.server";
import { requestInfo } from "~/request-context.server";

export type LoginResult = { kind: "retailer"; customerId: number } | { kind: "staff"; staffId: number };

export class LoginError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 429,
  ) {
    super(message);
  }
}

export const LOGIN_TEXTS = {
  wrongRetailer: "Felaktigt kundnummer eller pinkod.",
  wrongStaff: "Felaktig e-postadress eller lösenord.",
  throttled: (seconds: number) =>
    `För många misslyckade inloggningar. Vänta ${seconds} sekunder och försök igen.`,
};

export const looksLikeEmail = (name: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(name.trim());

async function checkLogin(kind: "retailer" | "staff", name: string, secret: string): Promise<LoginResult> {
  const { ip } = requestInfo();
  const accountKey = kind === "retailer" ? `customer:${name}` : `staff:${name.toLowerCase()}`;
  const ipKey = ip ? `ip:${ip}` : null;
  const wait = await waitBeforeLogin(ipKey ? [accountKey, ipKey] : [accountKey]);
  if (wait > 0) {
    await audit({ actor: "anonymous", action: "login.throttled", target: accountKey, ip, requestId: requestInfo().requestId });
    throw new LoginError(LOGIN_TEXTS.throttled(Math.ceil(wait / 1000)), 429);
  }

  let result: LoginResult | null = null;
  if (kind === "retailer") {
    const id = /^\d{1,5}$/.test(name) ? Number(name) : NaN;
    const [row] = Number.isFinite(id)
      ? await getDb()
          .select({ id: schema.customers.id, pinHash: schema.customers.pinHash })
          .from(schema.customers)
          .where(eq(schema.customers.id, id))
      : [];
    // Always run the hash, so the time taken does not tell whether the customer exists.
    const ok = await verifySecret(secret, row?.pinHash);
    if (ok && row) result = { kind, customerId: row.id };
  } else {
    const row = await getStaffByEmail(name);
    const ok = await verifySecret(secret, row?.passwordHash);
    if (ok && row) result = { kind, staffId: row.id };
  }

  const info = requestInfo();
  if (!result) {
    await recordFailure(accountKey, ipKey);
    await audit({ actor: "anonymous", action: "login.failure", target: accountKey, ip, requestId: info.requestId });
    throw new LoginError(kind === "retailer" ? LOGIN_TEXTS.wrongRetailer : LOGIN_TEXTS.wrongStaff, 400);
  }
  await recordSuccess(accountKey);
  const actor = result.kind === "retailer" ? `customer:${result.customerId}` : `staff:${result.staffId}`;
  await audit({ actor, action: "login.success", ip, requestId: info.requestId });
  return result;
}

export const authenticator = new Authenticator<LoginResult>()
  .use(
    new FormStrategy(async ({ form }) =>
      checkLogin("retailer", String(form.get("kundnummer") ?? "").trim(), String(form.get("pinkod") ?? "")),
    ),
    "retailer",
  )
  .use(
    new FormStrategy(async ({ form }) =>
      checkLogin("staff", String(form.get("kundnummer") ?? "").trim(), String(form.get("pinkod") ?? "")),
    ),
    "staff",
  );
