// `portal seed --demo`: a small, deterministic, believable data set.
import { randomInt } from "node:crypto";
import { titleName } from "../../app/catalog/index";
import { addDays, addMonths, daysBetween, isoWeekday, startOfMonth, endOfMonth } from "../../app/lib/dates";
import { config, DEMO_SELLER } from "../../app/config.server";
import { CLI_ACTOR } from "../../app/features/audit/index.server";
import { runInvoicing } from "../../app/features/invoices/index.server";
import { withCheckDigit } from "../../app/lib/luhn";
import { bankAccountOf } from "../../app/lib/bank-numbers.server";
import { randomSecret } from "../../app/lib/random-secret";
import type { Db } from "../../db/client";
import {
  EDITIONS,
  SEEDED_CLAIMS,
  createCustomer,
  createDistributor,
  createStaff,
  ensureTitlesAndEditions,
  seededRandom,
} from "./factories";
import { sql } from "drizzle-orm";
import * as schema from "../../db/schema";

/** The demo's logins: the same addresses every time, new secrets for every seeded database. */
export type DemoLogins = {
  retailerPin: string;
  admin: { email: string; password: string };
  sales: { email: string; password: string };
  utb: { email: string; password: string };
};

/**
 * The passwords earlier versions seeded and published in the README. A production
 * server refuses to start while a staff account still has one (cli/program.ts serve).
 */
export const PUBLISHED_DEMO_LOGINS = [
  { email: "admin@returportalen.example", password: "demo-admin-2026" },
  { email: "salj@returportalen.example", password: "demo-salj-2026" },
  { email: "utb.norr@returportalen.example", password: "demo-utb-2026" },
] as const;

/** New random logins for a demo database: printed once when it is filled, never stored in clear. */
export function newDemoLogins(): DemoLogins {
  return {
    retailerPin: String(randomInt(0, 1_000_000)).padStart(6, "0"),
    admin: { email: "admin@returportalen.example", password: randomSecret() },
    sales: { email: "salj@returportalen.example", password: randomSecret() },
    utb: { email: "utb.norr@returportalen.example", password: randomSecret() },
  };
}

const TOWNS = [
  ["Stockholm", "111 20"], ["Göteborg", "411 05"], ["Malmö", "211 22"], ["Uppsala", "753 20"],
  ["Västerås", "722 15"], ["Örebro", "702 10"], ["Linköping", "582 24"], ["Helsingborg", "252 21"],
  ["Umeå", "903 26"], ["Luleå", "972 31"], ["Sundsvall", "852 30"], ["Gävle", "803 20"],
] as const;
const KINDS = ["Pressbyrån", "Tidningskiosken", "ICA Nära", "Circle K", "Direkten", "Tobak & Tidningar", "Coop Konsum", "Hemköp"];
const STREETS = ["Storgatan", "Drottninggatan", "Kungsgatan", "Järnvägsgatan", "Torggatan", "Skolgatan", "Östra vägen"];

export async function seedDemo(db: Db, today: string, logins: DemoLogins = newDemoLogins()): Promise<{ customers: number; deliveries: number }> {
  const rnd = seededRandom(20261122);
  let deliveryCount = 0;
  await db.transaction(async (tx) => {
    await ensureTitlesAndEditions(tx);
    await createDistributor(tx, 1, "Tidningsbud Norr AB");
    await createDistributor(tx, 2, "Tidningsbud Syd AB");

    const customers: { id: number; distributorId: number; kvp: boolean }[] = [];
    for (let i = 0; i < 40; i++) {
      const id = 1001 + i;
      const [city, zip] = TOWNS[i % TOWNS.length];
      const distributorId = i % TOWNS.length < 6 ? 1 : 2;
      await createCustomer(tx, {
        id,
        distributorId,
        pin: logins.retailerPin,
        name: id === 1001 ? "Pressbyrån Centralstationen Stockholm" : `${rnd.pick(KINDS)} ${city} ${i + 1}`,
        address: `${rnd.pick(STREETS)} ${rnd.int(1, 60)}`,
        zip,
        city,
        contact: "Föreståndare",
        phone: `070-${rnd.int(100, 999)} ${rnd.int(10, 99)} ${rnd.int(10, 99)}`,
        email: `butik${id}@example.se`,
        orgNumber: withCheckDigit(`55${rnd.int(1000, 9999)}${rnd.int(100, 999)}`, 6),
        bankgiro: i % 3 === 0 ? "" : withCheckDigit(`${rnd.int(100000, 999999)}`, 3),
        bankAccount: i % 3 === 0 ? swedbankAccount(rnd.int(100000000, 999999999)) : "",
      });
      customers.push({ id, distributorId, kvp: city === "Malmö" || city === "Helsingborg" });
    }

    // Label blocks: every customer has used numbers 1–50 weekly, and has a fresh block 51–100.
    for (const c of customers) {
      await tx.insert(schema.labelBlocks).values([
        { customerId: c.id, type: 0, status: "Levererad", fromDate: addDays(today, -70), toDate: addDays(today, 295), fromNumber: 1, toNumber: 50, numberUnused: 40 },
        { customerId: c.id, type: 0, status: "Levererad", fromDate: addDays(today, -14), toDate: addDays(today, 351), fromNumber: 51, toNumber: 100, numberUnused: 50 },
      ]);
    }

    // Deliveries from the first of last month to today: last month is invoiced by the real
    // invoice run below, this month is still open. Returns are reported for all but the last
    // two days, into one bundle per paper type and week; earlier weeks' bundles are closed.
    const first = startOfMonth(addMonths(today, -1));
    const days = daysBetween(first, today) + 1;
    const mains = EDITIONS.filter((e) => e.type === 0);
    const inserts = EDITIONS.filter((e) => e.type === 1);
    for (const c of customers) {
      const bundleIds = new Map<string, number>();
      let nextNumber = 1;
      for (let day = 0; day < days; day++) {
        const date = addDays(first, day);
        const weekday = isoWeekday(date);
        const editions = [
          ...mains.filter((e) => e.titleId === 1 || (e.editionId === 2) === c.kvp),
          ...inserts.filter((e) => (weekday === 7 && e.editionId === 20) || (weekday === 5 && e.editionId === 21)),
        ];
        const reported = day < days - 2;
        const weekStart = addDays(date, 1 - weekday);
        for (const e of editions) {
          const delivered = e.type === 0 ? rnd.int(8, 40) : rnd.int(4, 15);
          const priceOre = e.type === 0 ? (e.titleId === 1 ? 2219 : 2163) : 1090;
          const received = rnd.chance(0.08) ? delivered - rnd.int(1, 3) : null;
          const [d] = await tx
            .insert(schema.deliveries)
            .values({
              customerId: c.id,
              titleId: e.titleId,
              editionId: e.editionId,
              deliveryDate: date,
              delivered,
              priceOre,
              received,
              receivedAt: received === null ? null : Date.parse(`${date}T09:00:00Z`),
              reportedAt: reported ? Date.parse(`${addDays(date, 1)}T07:00:00Z`) : null,
            })
            .returning({ id: schema.deliveries.id });
          deliveryCount++;
          if (!reported) continue;
          const key = `${weekStart}:${e.type}`;
          let bundleId = bundleIds.get(key);
          if (bundleId === undefined) {
            const current = addDays(weekStart, 7) > today;
            const [b] = await tx
              .insert(schema.bundles)
              .values({
                customerId: c.id,
                number: nextNumber++,
                type: e.type,
                open: current,
                closedDate: current ? null : addDays(weekStart, 7),
              })
              .returning({ id: schema.bundles.id });
            bundleId = b.id;
            bundleIds.set(key, bundleId);
          }
          const amount = Math.min(delivered, Math.round(delivered * rnd.next() * 0.45));
          await tx.insert(schema.returns).values({ customerId: c.id, bundleId, deliveryId: d.id, amount });
        }
      }
    }

    await tx.run(sql.raw(SEEDED_CLAIMS));

    // Guarantees, placards.
    for (const c of customers) {
      if (rnd.chance(0.5)) {
        await tx.insert(schema.guarantees).values([
          { customerId: c.id, ledger: 83, amountOre: rnd.int(50, 900) * 100 },
          { customerId: c.id, ledger: 80, amountOre: rnd.int(50, 900) * 100 },
        ]);
      }
      await tx.insert(schema.placards).values([
        { customerId: c.id, titleId: 1, amount: rnd.int(1, 3), newAmount: c.id % 7 === 0 ? null : rnd.int(1, 3) },
        { customerId: c.id, titleId: 2, amount: rnd.int(1, 3), newAmount: c.id % 7 === 0 ? null : rnd.int(1, 3) },
      ]);
    }

    // Holidays: one past with answers, the next two coming ones.
    const year = Number(today.slice(0, 4));
    const candidates = [
      [`${year}-12-24`, "Julafton"], [`${year}-12-25`, "Juldagen"], [`${year}-12-31`, "Nyårsafton"],
      [`${year + 1}-01-01`, "Nyårsdagen"], [`${year + 1}-01-06`, "Trettondedag jul"], [`${year}-06-06`, "Sveriges nationaldag"],
      [`${year}-05-01`, "Första maj"], [`${year + 1}-05-01`, "Första maj"], [`${year + 1}-06-06`, "Sveriges nationaldag"],
    ].sort((a, b) => a[0].localeCompare(b[0]));
    const coming = candidates.filter(([d]) => d > addDays(today, 7)).slice(0, 2);
    const past = candidates.filter(([d]) => d < today).at(-1) ?? [addDays(today, -30), "Helgdag"];
    const [pastHoliday] = await tx
      .insert(schema.holidays)
      .values({ description: past[1], day: past[0], startReportDay: addDays(past[0], -30), startForceReportDay: addDays(past[0], -7) })
      .returning({ id: schema.holidays.id });
    for (const [day, description] of coming) {
      await tx.insert(schema.holidays).values({ description, day, startReportDay: addDays(day, -45), startForceReportDay: addDays(day, -5) });
    }
    for (const c of customers.slice(0, 30)) {
      await tx.insert(schema.holidayReports).values({ holidayId: pastHoliday.id, customerId: c.id, open: c.id % 4 !== 0 });
    }

    // Messages of each type.
    const [m3] = await tx
      .insert(schema.messages)
      .values([
        { type: 1, header: "Försenad leverans", content: "<p>Leveransen till Norrland kommer cirka en timme senare på grund av väglaget.</p>", startDate: addDays(today, -1), stopDate: addDays(today, -1) },
        { type: 2, header: "Följesedeln", content: "<p>Kontrollera följesedeln samma dag som leveransen kommer.</p>", startDate: addDays(today, -3), stopDate: addDays(today, 10) },
        { type: 3, header: "Nya returetiketter", content: "<p>Glöm inte att beställa nya returetiketter i god tid.</p>", startDate: addDays(today, -2), stopDate: addDays(today, 14) },
        { type: 4, header: "Returrapportering inför helgerna", content: "<p>Rapportera returer senast dagen efter leverans.<br>Tack för hjälpen!</p>", startDate: addDays(today, -5), stopDate: addDays(today, 20) },
      ])
      .returning({ id: schema.messages.id, type: schema.messages.type });
    const forCustomers = [1001, 1002, 1003, 1004, 1005];
    for (const m of [m3]) {
      await tx.insert(schema.messageCustomers).values(forCustomers.map((customerId) => ({ messageId: m.id, customerId })));
    }

    // Today's products.
    for (const e of EDITIONS.filter((x) => x.type === 0)) {
      await tx.insert(schema.dailyProducts).values({
        titleId: e.titleId,
        editionId: e.editionId,
        heading: titleName(e.titleId) ?? "",
        description: `${e.description} ${today}`,
        startDate: today,
        endDate: today,
        priceOre: e.titleId === 1 ? 3000 : 2900,
        eanCode: `73${String(e.titleId).padStart(2, "0")}${String(e.editionId).padStart(3, "0")}000000`.slice(0, 13),
      });
    }

    for (const e of EDITIONS) {
      await tx.insert(schema.productInformation).values({
        titleId: e.titleId,
        editionId: e.editionId,
        productCode: `P${e.titleId}${String(e.editionId).padStart(2, "0")}`,
        accountCode: e.titleId === 1 ? "3011" : "3012",
        articleId: e.code,
      });
    }

    // Not enrolled: the demo admin sets up the authenticator app at the first login.
    await createStaff(tx, { ...logins.admin, name: "Anna Admin", roles: "admin", totpSecret: null });
    await createStaff(tx, { ...logins.sales, name: "Sven Säljare", roles: "sales", totpSecret: null });
    await createStaff(tx, { ...logins.utb, name: "Ulla Utb Norr", roles: "utb", distributorId: 1, totpSecret: null });
  });
  // Last month's invoices, made by the real run over the demo's own deliveries and returns,
  // so Fakturor, Försäljning and Avstämning agree from the first look.
  const from = startOfMonth(addMonths(today, -1));
  const to = endOfMonth(from);
  const invoiceDate = [addDays(to, 5), today].sort()[0];
  await runInvoicing({ from, to, actor: CLI_ACTOR, date: invoiceDate, seller: config.seller ?? DEMO_SELLER });
  return { customers: 40, deliveries: deliveryCount };
}

/** What the operator is shown once, when the demo database is filled. */
export function demoLoginText(l: DemoLogins): string {
  return [
    "Demo-inloggningar (visas bara nu; byt med portal customer set-pin / portal staff set-password):",
    `  Återförsäljare: kundnummer 1001–1040, pinkod ${l.retailerPin}`,
    `  Admin:          ${l.admin.email} / ${l.admin.password} (tvåstegsverifiering: kopplar en app vid första inloggningen)`,
    `  Sälj:           ${l.sales.email} / ${l.sales.password}`,
    `  Utb (Norr):     ${l.utb.email} / ${l.utb.password}`,
  ].join("\n");
}

/** A Swedbank account (clearing 8327-9) of nine digits and the check digit that makes it one. */
function swedbankAccount(nine: number): string {
  for (let digit = 0; digit < 10; digit++) {
    const account = bankAccountOf(`8327-9 ${nine}${digit}`);
    if (account) return account;
  }
  throw new Error(`no check digit makes 8327-9 ${nine} an account`);
}
