// The customers import (docs/formats.md): its row, its checks and how it is applied.
import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { hashSecret } from "~/features/auth/passwords.server";
import { customerDetail } from "~/features/customers";
import { column } from "~/lib/csv-columns";
import { z } from "~/lib/zod";
import { chunks, classify, type Handler, inJson, type Line, MAX_ID, nowMs } from "./import-rows.server";

export type IssuedPin = { customerId: number; pin: string };

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export type CustomerRow = { id: number; name: string; address: string; zip: string; city: string; distributorId: number; phone: string; email: string };

// The details by the staff form's own rules (a postcode stored as "111 20" however it was
// written); the numbers by the file's.
const CustomerFileRow = z
  .object({
    customer_id: column.int(1, 99999),
    name: customerDetail.name(),
    address: customerDetail.address(),
    zip: customerDetail.zip(),
    city: customerDetail.city(),
    distributor_id: column.int(1, MAX_ID),
    phone: customerDetail.phone(),
    email: customerDetail.email(),
  })
  .transform(({ customer_id, distributor_id, ...details }): CustomerRow => ({ id: customer_id, distributorId: distributor_id, ...details }));

type CustomerPlanRow = CustomerRow & Line & { pinHash?: string | null };
const CUSTOMER_FIELDS = ["name", "address", "zip", "city", "distributorId", "phone", "email"] as const;

export function customersHandler(pinHashes: Map<number, { pin: string; hash: string }>, issued: IssuedPin[], issuePins: boolean): Handler<CustomerRow> {
  return {
    row: CustomerFileRow,
    key: (r) => String(r.id),
    keyColumns: "customer_id",
    async plan(tx, rows, problems) {
      const distributorIds = new Set((await tx.select({ id: schema.distributors.id }).from(schema.distributors)).map((d) => d.id));
      const existing = new Map<number, typeof schema.customers.$inferSelect>();
      for (const c of await tx.select().from(schema.customers).where(inJson(schema.customers.id, rows.map((r) => r.id)))) existing.set(c.id, c);
      const ok: (CustomerRow & Line)[] = [];
      for (const r of rows) {
        if (!distributorIds.has(r.distributorId)) problems.push({ line: r.line, column: "distributor_id", reason: `distributör ${r.distributorId} finns inte` });
        else ok.push(r);
      }
      return classify(ok, (r) => {
        const e = existing.get(r.id);
        return e ? CUSTOMER_FIELDS.every((f) => e[f] === r[f]) : null;
      });
    },
    async apply(tx, rows, progress) {
      const existingIds = new Set(
        (await tx.select({ id: schema.customers.id }).from(schema.customers).where(inJson(schema.customers.id, rows.map((r) => r.id)))).map((c) => c.id),
      );
      const withPins: CustomerPlanRow[] = [];
      for (const r of rows) {
        let pinHash: string | null = null;
        if (issuePins && !existingIds.has(r.id)) {
          let entry = pinHashes.get(r.id);
          if (!entry) {
            const pin = newPin();
            entry = { pin, hash: await hashSecret(pin) };
          }
          pinHash = entry.hash;
          issued.push({ customerId: r.id, pin: entry.pin });
        }
        withPins.push({ ...r, pinHash });
      }
      for (const part of chunks(withPins)) {
        await tx
          .insert(schema.customers)
          .values(part.map(({ line: _line, ...c }) => c))
          .onConflictDoUpdate({
            target: schema.customers.id,
            set: {
              name: sql`excluded.name`,
              address: sql`excluded.address`,
              zip: sql`excluded.zip`,
              city: sql`excluded.city`,
              distributorId: sql`excluded.distributor_id`,
              phone: sql`excluded.phone`,
              email: sql`excluded.email`,
              updatedAt: nowMs,
            },
          });
        progress(part.length);
      }
    },
  };
}

