// Shared builders for unit tests: a distributor, titles and a customer with deliveries.
import { getDb, type Db } from "../../db/client";
import { createCustomer, createDelivery, createDistributor, ensureTitlesAndEditions } from "../../cli/seed/factories";

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
