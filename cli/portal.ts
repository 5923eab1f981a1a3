#!/usr/bin/env -S npx tsx
// `portal`: the operators' command line. Every command calls app/features, the same
// code the web screens use.
import { Command, CommanderError, Option } from "commander";
import { getDb, prepareDb, closeDb } from "../db/client";
import { UsageError, parseIntArg, readSecret } from "./io";
import { registerImport } from "./commands/import";
import { registerJobs } from "./commands/jobs";
import { registerMaintenance } from "./commands/maintenance";

const program = new Command("portal")
  .description("Returportalen: drift- och batchkommandon")
  .showHelpAfterError()
  .exitOverride();

const db = program.command("db").description("databasen");
db.command("migrate")
  .description("kör migreringar som inte körts (säkert att köra om)")
  .addHelpText("after", "\nExempel:\n  npm run portal -- db migrate")
  .action(async () => {
    await prepareDb(getDb());
    console.log("Databasen är migrerad.");
  });

program
  .command("seed")
  .description("fyller en tom databas med data")
  .option("--demo", "demodata: 2 distributörer, 40 kunder, 21 dagars leveranser")
  .option("--scale <scale>", "national: ett helt land för benchmarks (6 500 kunder, 90 dagar)")
  .option("--customers <n>", "med --scale: antal kunder", "6500")
  .option("--days <n>", "med --scale: antal dagar med leveranser", "90")
  .option("--if-empty", "gör ingenting om databasen redan har kunder")
  .addHelpText("after", "\nExempel:\n  npm run portal -- seed --demo\n  DATABASE_URL=file:bench/data/national.db npm run portal -- seed --scale national")
  .action(async (opts: { demo?: boolean; ifEmpty?: boolean; scale?: string; customers: string; days: string }) => {
    if (opts.scale !== undefined) {
      if (opts.scale !== "national") throw new UsageError("--scale kan bara vara national.");
      const customers = parseIntArg(opts.customers, "--customers", 1, 99999);
      const days = parseIntArg(opts.days, "--days", 1, 400);
      const started = Date.now();
      const conn = getDb();
      await prepareDb(conn);
      const { schema } = await import("../db/client");
      if ((await conn.select({ id: schema.customers.id }).from(schema.customers).limit(1)).length > 0) {
        throw new Error("Databasen har redan kunder; --scale fyller bara en tom databas.");
      }
      const { seedNational } = await import("../db/seed-national");
      const { today } = await import("../app/lib/dates");
      const counts = await seedNational(conn, {
        customers,
        days,
        today: today(),
        progress: (step) => process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1)} s: ${step}\n`),
      });
      console.log(`Klart: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ")} på ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return;
    }
    if (!opts.demo) throw new UsageError("Ange vilken data: --demo eller --scale national.");
    const started = Date.now();
    const conn = getDb();
    await prepareDb(conn);
    const { seedDemo, demoLoginText } = await import("../db/seed");
    const { schema } = await import("../db/client");
    const existing = await conn.select({ id: schema.customers.id }).from(schema.customers).limit(1);
    if (existing.length > 0) {
      if (opts.ifEmpty) return;
      throw new Error("Databasen har redan kunder; seed --demo fyller bara en tom databas.");
    }
    const { today } = await import("../app/lib/dates");
    const result = await seedDemo(conn, today());
    console.log(demoLoginText());
    console.log(`Klart: ${result.customers} kunder, ${result.deliveries} leveranser på ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });

const customer = program.command("customer").description("återförsäljare");
customer
  .command("add")
  .description("lägger till en kund; pinkoden läses från terminalen eller --pin-stdin")
  .requiredOption("--id <kundnummer>", "kundnummer, 1–5 siffror")
  .requiredOption("--name <namn>", "namn")
  .requiredOption("--distributor <id>", "distributörens id")
  .option("--address <adress>", "gatuadress", "")
  .option("--zip <postnummer>", "postnummer", "")
  .option("--city <ort>", "ort", "")
  .option("--phone <telefon>", "telefon", "")
  .option("--email <e-post>", "e-post", "")
  .option("--pin-stdin", "läs pinkoden från standard in")
  .addHelpText("after", "\nExempel:\n  echo 4711 | npm run portal -- customer add --id 2001 --name 'Kiosken' --distributor 1 --pin-stdin")
  .action(async (opts) => {
    const id = parseIntArg(opts.id, "--id", 1, 99999);
    const distributorId = parseIntArg(opts.distributor, "--distributor", 1, 2 ** 31);
    const pin = await readSecret(Boolean(opts.pinStdin), "Pinkod (4–6 siffror): ");
    await prepareDb(getDb());
    const { addCustomer } = await import("../app/features/customers/index.server");
    await addCustomer(
      { id, name: opts.name, distributorId, address: opts.address, zip: opts.zip, city: opts.city, phone: opts.phone, email: opts.email, pin },
      { id: "cli" },
    );
    console.log(`Kund ${id} tillagd.`);
  });
customer
  .command("set-pin")
  .description("byter en kunds pinkod")
  .argument("<kundnummer>")
  .option("--pin-stdin", "läs pinkoden från standard in")
  .addHelpText("after", "\nExempel:\n  npm run portal -- customer set-pin 1001")
  .action(async (idText: string, opts) => {
    const id = parseIntArg(idText, "kundnummer", 1, 99999);
    const pin = await readSecret(Boolean(opts.pinStdin), "Ny pinkod (4–6 siffror): ");
    await prepareDb(getDb());
    const { setCustomerPin } = await import("../app/features/customers/index.server");
    await setCustomerPin(id, pin, { id: "cli" });
    console.log(`Pinkoden för kund ${id} är bytt; kundens sessioner är avslutade och en spärr hävd.`);
  });

/** --roles and --distributor of the staff commands, as a usage error when they are wrong. */
async function rolesAndDistributor(opts: { roles: string; distributor?: string }) {
  const { parseRoles } = await import("../app/features/staff/index.server");
  let roles;
  try {
    roles = parseRoles(opts.roles);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const distributorId = opts.distributor ? parseIntArg(opts.distributor, "--distributor", 1, 2 ** 31) : null;
  return { roles, distributorId };
}

const staff = program.command("staff").description("personal");
staff
  .command("add")
  .description("lägger till en personalanvändare; lösenordet läses från terminalen eller --password-stdin")
  .requiredOption("--email <e-post>", "e-postadress (inloggningsnamn)")
  .requiredOption("--roles <roller>", "kommaseparerat: admin,sales,utb")
  .option("--name <namn>", "namn")
  .option("--distributor <id>", "distributör (krävs för utb)")
  .option("--password-stdin", "läs lösenordet från standard in")
  .addHelpText("after", "\nExempel:\n  npm run portal -- staff add --email anna@example.se --roles admin,sales")
  .action(async (opts) => {
    const { addStaff } = await import("../app/features/staff/index.server");
    const { roles, distributorId } = await rolesAndDistributor(opts);
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.email)) throw new UsageError("--email ska vara en e-postadress.");
    if (roles.includes("utb") && !distributorId) throw new UsageError("En utb-användare kräver --distributor.");
    const password = await readSecret(Boolean(opts.passwordStdin), "Lösenord (minst 10 tecken): ");
    await prepareDb(getDb());
    const id = await addStaff({ email: opts.email, name: opts.name ?? opts.email, password, roles, distributorId }, { id: "cli" });
    console.log(`Personal ${opts.email} tillagd (id ${id}).`);
  });

staff
  .command("set-password")
  .description("byter en personalanvändares lösenord; användarens alla sessioner avslutas")
  .argument("<e-post>")
  .option("--password-stdin", "läs lösenordet från standard in")
  .addHelpText("after", "\nExempel:\n  npm run portal -- staff set-password anna@example.se")
  .action(async (email: string, opts) => {
    const password = await readSecret(Boolean(opts.passwordStdin), "Nytt lösenord (minst 10 tecken): ");
    await prepareDb(getDb());
    const { setStaffPassword } = await import("../app/features/staff/index.server");
    const ended = await setStaffPassword(email, password, { id: "cli" });
    console.log(`Lösenordet för ${email.trim().toLowerCase()} är bytt; ${ended} sessioner avslutade.`);
  });
staff
  .command("set-roles")
  .description("byter en personalanvändares roller; användarens alla sessioner avslutas")
  .argument("<e-post>")
  .requiredOption("--roles <roller>", "kommaseparerat: admin,sales,utb")
  .option("--distributor <id>", "distributör (krävs för utb)")
  .addHelpText("after", "\nExempel:\n  npm run portal -- staff set-roles anna@example.se --roles sales")
  .action(async (email: string, opts) => {
    const { setStaffRoles } = await import("../app/features/staff/index.server");
    const { roles, distributorId } = await rolesAndDistributor(opts);
    await prepareDb(getDb());
    const ended = await setStaffRoles(email, roles, distributorId, { id: "cli" });
    console.log(`Rollerna för ${email.trim().toLowerCase()} är nu ${roles.join(",")}; ${ended} sessioner avslutade.`);
  });
staff
  .command("reset-2fa")
  .description("tar bort en personalanvändares tvåstegsverifiering och återställningskoder och loggar ut användaren; appen kopplas på nytt vid nästa inloggning")
  .argument("<e-post>")
  .addHelpText("after", "\nExempel:\n  npm run portal -- staff reset-2fa anna@example.se")
  .action(async (raw: string) => {
    const email = raw.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError("Ange en e-postadress.");
    await prepareDb(getDb());
    const { resetSecondFactor } = await import("../app/features/auth/index.server");
    const { sessionsEnded } = await resetSecondFactor(email, { id: "cli" });
    console.log(
      `Tvåstegsverifieringen för ${email} är återställd (${sessionsEnded} ${sessionsEnded === 1 ? "session" : "sessioner"} avslutade). Appen kopplas på nytt vid nästa inloggning.`,
    );
  });

registerImport(program);
registerJobs(program);
registerMaintenance(program);

program
  .command("serve")
  .description("startar webbservern")
  .addOption(new Option("--port <port>", "port").env("PORT").default("3000"))
  .addOption(new Option("--host <host>", "adress att lyssna på").env("HOST").default("0.0.0.0"))
  .option("--dev", "utvecklingsläge med Vite")
  .option("--setup", "migrera, och fyll en tom databas med demodata")
  .addHelpText("after", "\nExempel:\n  npm run portal -- serve --port 3000")
  .action(async (opts: { port: string; host: string; dev?: boolean; setup?: boolean }) => {
    const port = parseIntArg(opts.port, "--port", 1, 65535);
    const conn = getDb();
    await prepareDb(conn);
    if (opts.setup) {
      const { schema } = await import("../db/client");
      const existing = await conn.select({ id: schema.customers.id }).from(schema.customers).limit(1);
      const { demoLoginText, seedDemo } = await import("../db/seed");
      if (existing.length === 0) {
        const { today } = await import("../app/lib/dates");
        await seedDemo(conn, today());
        console.log("En tom databas fylldes med demodata.");
      }
      console.log(demoLoginText());
    }
    process.env.NODE_ENV ??= opts.dev ? "development" : "production";
    const { serve } = await import("./serve");
    const server = await serve({ port, host: opts.host, dev: Boolean(opts.dev) });
    console.log(`Returportalen: http://localhost:${port}`);
    // Stop taking requests, let those under way finish, then close the database.
    await new Promise<void>((resolve) => {
      const stop = () => server.close(() => resolve());
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    });
  });

async function main() {
  try {
    await program.parseAsync(process.argv);
    closeDb();
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof UsageError) {
      console.error(`portal: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    // A failed query's message carries its SQL and parameters (hashes among them): say only why.
    const e = error as Error & { cause?: unknown };
    const message = e.message.startsWith("Failed query") && e.cause instanceof Error ? e.cause.message : e.message;
    console.error(`portal: ${message.split("\n")[0]}`);
    process.exitCode = 1;
  }
}

await main();
