// Shared builders for unit tests: a distributor, titles and a customer with deliveries.
import { getDb, type Db } from "../../db/client";
import { createCustomer, createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";
import { RETURN_ROWS, saveReturns } from "../../app/features/returns/returns.server";
import { isRefusal } from "../../app/lib/refusal";
import { ATTEMPT_REFUSED, reserveAttempt } from "../../app/features/auth/throttle.server";

let nextCustomerId = 10_000;

export function db(): Db {
  return getDb();
}

export async function baseData() {
  await ensureTitlesAndEditions(getDb());
  await createDistributor(getDb(), 1, "Utb Norr");
  await createDistributor(getDb(), 2, "Utb Syd");
}

export async function newCustomer(overrides: { distributorId?: number; pin?: string; name?: string } = {}) {
  const id = nextCustomerId++;
  await createCustomer(getDb(), { id, distributorId: overrides.distributorId ?? 1, pin: overrides.pin ?? "1234", name: overrides.name ?? `Kiosk ${id}` });
  return id;
}

export async function newDelivery(customerId: number, input: { date: string; titleId?: number; editionId?: number; delivered?: number; priceOre?: number }) {
  return createDelivery(getDb(), {
    customerId,
    titleId: input.titleId ?? 1,
    editionId: input.editionId ?? 1,
    deliveryDate: input.date,
    delivered: input.delivered ?? 20,
    priceOre: input.priceOre ?? 2200,
  });
}

/**
 * saveReturns as one value for the assertions: `{ ok: true, saved, alreadyApplied }`, or
 * `{ ok: false, errors, problems, stored }` from its refusal (a form with nothing to save:
 * `errors` empty and the refusal's message as `formError`).
 */
export async function saveReturnsResult(...args: Parameters<typeof saveReturns>) {
  try {
    return { ok: true as const, ...(await saveReturns(...args)) };
  } catch (e) {
    if (!isRefusal(e, "invalid")) throw e;
    const rows = RETURN_ROWS.of(e);
    return rows ? { ok: false as const, formError: undefined, ...rows } : { ok: false as const, errors: {} as Record<string, string>, problems: {}, stored: undefined, formError: e.message };
  }
}

/** reserveAttempt's answer as one value for the assertions: the reservation, or the refusal's reason. */
export const tryAttempt = (...args: Parameters<typeof reserveAttempt>) =>
  reserveAttempt(...args).then(
    (reservation) => ({ ok: true as const, reservation }),
    (e: unknown) => {
      const why = ATTEMPT_REFUSED.of(e);
      if (isRefusal(e, "limit") && why) return { ok: false as const, refusal: why };
      throw e;
    },
  );
