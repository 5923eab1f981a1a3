// `portal seed --scale national`: a deterministic country-sized data set for the
// benchmarks (bench/). The bulk rows are made by INSERT … SELECT inside SQLite, with
// "random" numbers from integer hashes of the row's keys, so 2 M deliveries take
// seconds rather than minutes and every run makes the same data.
import { sql } from "drizzle-orm";
import { addDays, addMonths, endOfMonth, isoWeekday, startOfMonth } from "../../app/lib/dates";
import { withCheckDigit } from "../../app/lib/luhn";
import { hashSecret } from "../../app/features/auth/index.server";
import type { Db } from "../../db/client";
import { EDITIONS, SEEDED_CLAIMS, SEEDED_INVOICES_CREDITED, TITLES } from "./factories";
import * as schema from "../../db/schema";
import { portalNow } from "../../db/clock";

export type NationalOptions = { customers: number; days: number; today: string; progress?: (step: string) => void };

/** A deterministic pseudo-random integer 0..mod-1 from an SQL expression of keys. */
const h = (expr: string, mod: number) => `(((${expr}) * 2654435761 + 40503) % 4294967291 % ${mod})`;

export async function seedNational(db: Db, opts: NationalOptions): Promise<Record<string, number>> {
  const { customers, days, today } = opts;
  const say = opts.progress ?? (() => undefined);
  const c = db.$client;
  const first = addDays(today, -(days - 1));
  const distributors = Math.max(1, Math.min(20, Math.ceil(customers / 325)));
  const counts: Record<string, number> = {};

  await db.transaction(async (tx) => {
    await tx.insert(schema.titles).values([...TITLES]).onConflictDoNothing();
    await tx.insert(schema.editions).values(EDITIONS.map((e) => ({ ...e }))).onConflictDoNothing();
    await tx.insert(schema.distributors).values(
      Array.from({ length: distributors }, (_, i) => ({ id: i + 1, name: `Distributör ${String(i + 1).padStart(2, "0")}` })),
    );
  });

  say("kunder");
  const pinHash = await hashSecret("1234");
  const towns = ["Stockholm", "Göteborg", "Malmö", "Uppsala", "Västerås", "Örebro", "Linköping", "Helsingborg", "Jönköping", "Norrköping", "Lund", "Umeå", "Gävle", "Borås", "Södertälje", "Eskilstuna", "Halmstad", "Växjö", "Karlstad", "Sundsvall"];
  await db.transaction(async (tx) => {
    for (let start = 1; start <= customers; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(customers + 1, start + 500); i++) {
        const d = ((i - 1) % distributors) + 1;
        rows.push({
          id: i,
          name: `Butik ${i}`,
          address: `Storgatan ${(i % 90) + 1}`,
          zip: `${100 + (i % 800)} ${10 + (i % 89)}`,
          city: towns[(d - 1) % towns.length],
          distributorId: d,
          pinHash,
          // Numbers that pass the banks' checks (a modulus-10 check digit last).
          orgNumber: withCheckDigit(`55${String(i).padStart(4, "0")}${String(i % 1000).padStart(3, "0")}`, 6),
          bankgiro: withCheckDigit(`${100 + (i % 900)}${String(i % 1000).padStart(3, "0")}`, 3),
        });
      }
      await tx.insert(schema.customers).values(rows);
    }
  });
  counts.customers = customers;

  // A day table for the INSERT … SELECTs.
  await c.execute("DROP TABLE IF EXISTS temp.seed_days");
  await c.execute("CREATE TEMP TABLE seed_days (n INTEGER PRIMARY KEY, date TEXT NOT NULL, weekday INTEGER NOT NULL, week INTEGER NOT NULL)");
  const firstMonday = addDays(first, 1 - isoWeekday(first));
  const dayRows = Array.from({ length: days }, (_, n) => {
    const date = addDays(first, n);
    return `(${n}, '${date}', ${isoWeekday(date)}, ${Math.floor((Date.parse(date) - Date.parse(firstMonday)) / (7 * 86_400_000))})`;
  });
  await c.execute(`INSERT INTO temp.seed_days VALUES ${dayRows.join(",")}`);
  const currentWeek = Math.floor((Date.parse(today) - Date.parse(firstMonday)) / (7 * 86_400_000));
  const reportedBefore = addDays(today, -1);
  const now = portalNow();

  say("leveranser");
  // Per customer and day: Aftonbladet, Expressen or Kvällsposten, Sportbladet, and for
  // every other customer Leva & Bo: 3.5 deliveries a day on average, 20–60 copies.
  await c.execute(`
    INSERT INTO deliveries (customer_id, title_id, edition_id, delivery_date, delivered, price_ore, received, received_at, reported_at, created_at, updated_at)
    SELECT cu.id, e.title_id, e.edition_id, d.date,
      20 + ${h("cu.id * 131 + d.n * 17 + e.title_id * 7 + e.edition_id", 41)},
      CASE e.type WHEN 0 THEN CASE e.title_id WHEN 1 THEN 2219 ELSE 2163 END ELSE 1090 END,
      CASE WHEN d.date < '${today}' AND ${h("cu.id * 7 + d.n * 3 + e.edition_id", 10)} = 0
        THEN 20 + ${h("cu.id * 131 + d.n * 17 + e.title_id * 7 + e.edition_id", 41)} - ${h("cu.id + d.n + e.edition_id", 4)} END,
      CASE WHEN d.date < '${today}' AND ${h("cu.id * 7 + d.n * 3 + e.edition_id", 10)} = 0 THEN ${now} END,
      CASE WHEN d.date < '${reportedBefore}' THEN ${now} END,
      ${now}, ${now}
    FROM customers cu
    CROSS JOIN temp.seed_days d
    JOIN editions e ON (e.title_id = 1 AND e.edition_id IN (1, 21))
      OR (e.title_id = 2 AND e.edition_id = CASE WHEN cu.id % 5 = 0 THEN 2 ELSE 1 END)
      OR (e.title_id = 2 AND e.edition_id = 21 AND cu.id % 2 = 0)
    ORDER BY cu.id, d.n`);
  counts.deliveries = Number((await c.execute("SELECT count(*) AS n FROM deliveries")).rows[0].n);

  say("buntar");
  // One bundle per customer, paper type and week; this week's are open.
  await c.execute(`
    INSERT INTO bundles (customer_id, number, type, open, closed_date, created_at, updated_at)
    SELECT cu.id, w.week * 2 + t.type + 1, t.type, w.week = ${currentWeek},
      CASE WHEN w.week = ${currentWeek} THEN NULL ELSE date('${firstMonday}', '+' || ((w.week + 1) * 7) || ' days') END,
      ${now}, ${now}
    FROM customers cu
    CROSS JOIN (SELECT DISTINCT week FROM temp.seed_days) w
    CROSS JOIN (SELECT 0 AS type UNION ALL SELECT 1) t`);
  counts.bundles = Number((await c.execute("SELECT count(*) AS n FROM bundles")).rows[0].n);

  say("returer");
  // Returns on about a third of the reported deliveries, 0–40 % of the delivered amount.
  await c.execute(`
    INSERT INTO returns (customer_id, bundle_id, delivery_id, amount, created_at, updated_at)
    SELECT de.customer_id, b.id, de.id,
      de.delivered * ${h("de.id", 41)} / 100, ${now}, ${now}
    FROM deliveries de
    JOIN temp.seed_days d ON d.date = de.delivery_date
    JOIN editions e ON e.title_id = de.title_id AND e.edition_id = de.edition_id
    JOIN bundles b ON b.customer_id = de.customer_id AND b.number = d.week * 2 + e.type + 1
    WHERE de.reported_at IS NOT NULL AND ${h("de.id * 3", 3)} = 0`);
  counts.returns = Number((await c.execute("SELECT count(*) AS n FROM returns")).rows[0].n);

  say("etiketter, fakturor, garantier");
  const weeks = currentWeek + 1;
  const usedTo = weeks * 2;
  const blockTo = Math.ceil(usedTo / 50) * 50;
  await c.execute(`
    INSERT INTO label_blocks (customer_id, type, status, from_date, to_date, from_number, to_number, number_unused, created_at, updated_at)
    SELECT id, 0, 'Levererad', '${addDays(first, -14)}', '${addDays(first, 351)}', 1, ${blockTo}, ${blockTo - usedTo}, ${now}, ${now} FROM customers
    UNION ALL
    SELECT id, 0, 'Levererad', '${addDays(today, -10)}', '${addDays(today, 355)}', ${blockTo + 1}, ${blockTo + 50}, 50, ${now}, ${now} FROM customers`);

  const months = [2, 1].map((back) => {
    const from = startOfMonth(addMonths(today, -back));
    return { from, to: endOfMonth(from), date: addDays(endOfMonth(from), 5) };
  });
  let invoiceBase = 700000;
  for (const m of months) {
    await c.execute(`
      INSERT INTO invoices (number, customer_id, paper_type, date, due_date, period_from, period_to, net_ore, vat_ore, amount_ore, status, created_at, updated_at)
      SELECT ${invoiceBase} + cid * 2 + type, cid, type, '${m.date}', '${addDays(m.date, 30)}', '${m.from}', '${m.to}',
        net, net * 6 / 100, net + net * 6 / 100, 'Obetald', ${now}, ${now}
      FROM (SELECT cu.id AS cid, t.type AS type,
              CASE t.type WHEN 0 THEN 1000000 + ${h("cu.id", 500000)} ELSE 80000 + ${h("cu.id * 3", 50000)} END AS net
            FROM customers cu CROSS JOIN (SELECT 0 AS type UNION ALL SELECT 1) t)`);
    invoiceBase += 2 * customers + 10;
  }
  await c.execute(`
    INSERT INTO invoice_lines (invoice_id, description, quantity, unit_price_ore, vat_permille, net_ore)
    SELECT id, CASE paper_type WHEN 0 THEN 'Huvudtidningar, sålda exemplar' ELSE 'Bilagor, sålda exemplar' END, 1, net_ore, 60, net_ore FROM invoices`);
  await c.execute(SEEDED_INVOICES_CREDITED);
  await c.execute(SEEDED_CLAIMS);
  counts.invoices = Number((await c.execute("SELECT count(*) AS n FROM invoices")).rows[0].n);

  await c.execute(`
    INSERT INTO guarantees (customer_id, ledger, amount_ore, created_at, updated_at)
    SELECT id, l.ledger, 5000 + ${h("id * 11 + l.ledger", 90000)}, ${now}, ${now}
    FROM customers CROSS JOIN (SELECT 80 AS ledger UNION ALL SELECT 83) l WHERE id % 2 = 0`);
  await c.execute(`
    INSERT INTO placards (customer_id, title_id, amount, new_amount, created_at, updated_at)
    SELECT cu.id, t.id, 1 + cu.id % 3, 1 + cu.id % 3, ${now}, ${now} FROM customers cu CROSS JOIN titles t`);

  await db.transaction(async (tx) => {
    await tx.insert(schema.messages).values([
      { type: 2, header: "Följesedeln", content: "<p>Kontrollera följesedeln samma dag.</p>", startDate: addDays(today, -3), stopDate: addDays(today, 10) },
      { type: 4, header: "Returrapportering", content: "<p>Rapportera returer senast dagen efter leverans.</p>", startDate: addDays(today, -5), stopDate: addDays(today, 20) },
    ]);
    await tx.insert(schema.holidays).values({
      description: "Julafton",
      day: `${today.slice(0, 4)}-12-24`,
      startReportDay: addDays(`${today.slice(0, 4)}-12-24`, -45),
      startForceReportDay: addDays(`${today.slice(0, 4)}-12-24`, -5),
    });
  });
  await c.execute("DROP TABLE temp.seed_days");
  await c.execute("ANALYZE");
  await db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
  return counts;
}
