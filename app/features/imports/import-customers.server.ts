// The customers import (docs/formats.md): its row, its checks and how it is applied.
import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { schema } from "~/db.server";
import { hashSecret } from "~/features/auth/passwords.server";
import { chunks, classify, EMAIL, type Handler, inJson, type Line, MAX_ID, nowMs, type Parsed, rowChecker } from "./import-rows.server";

export type IssuedPin = { customerId: number; pin: string };

export function newPin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export type CustomerRow = { id: number; name: string; address: string; zip: string; city: string; distributorId: number; phone: string; email: string };

function parseCustomer(v: Record<string, string>, line: number): Parsed<CustomerRow> {
  const c = rowChecker(line);
  const row = {
    line,
    id: c.int("customer_id", v.customer_id, 1, 99999),
    name: c.text("name", v.name, 200, true),
    address: c.text("address", v.address, 200, false),
    zip: c.text("zip", v.zip, 20, false),
    city: c.text("city", v.city, 100, false),
    distributorId: c.int("distributor_id", v.distributor_id, 1, MAX_ID),
    phone: c.text("phone", v.phone, 50, false),
    email: c.text("email", v.email, 200, false),
  };
  if (row.email !== "" && row.email.length <= 200 && !EMAIL.test(row.email)) c.add("email", "ska vara en e-postadress");
  return { row: c.problems.length ? null : row, problems: c.problems };
}

type CustomerPlanRow = CustomerRow & Line & { pinHash?: string | null };
const CUSTOMER_FIELDS = ["name", "address", "zip", "city", "distributorId", "phone", "email"] as const;

export function customersHandler(pinHashes: Map<number, { pin: string; hash: string }>, issued: IssuedPin[], issuePins: boolean): Handler<CustomerRow> {
  return {
    parse: parseCustomer,
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

