// The `portal` command line as a function: buildProgram(io) returns the commander program
// with every command, reading and writing through io; runPortal(argv, io) runs it and
// answers the exit code. cli/portal.ts runs it on the real process; the unit tests run
// it in-process (tests/unit/cli-run.ts). Every command calls app/features, the same code
// the web screens use.
import { Command, CommanderError, Option } from "commander";
import { errorReason, getDb, isDatabaseBusy, isSettingProblem, prepareDb } from "../db/client";
import { isRefusal, refuse } from "../app/lib/refusal";
import { checkedOptions, cliIo, parseIntArg, readSecret, usage, USAGE, type CliIo, type CliStreams } from "./io";
import { registerImport } from "./commands/import";
import { registerJobs } from "./commands/jobs";
import { registerMaintenance } from "./commands/maintenance";
import { registerRecalls } from "./commands/recalls";
import { registerReplica } from "./commands/replica";
import { registerSupply } from "./commands/supply";
import { clockOffset, portalNow } from "../db/clock";

/** --roles and --distributor of the staff commands, as a usage error when they are wrong. */
async function rolesAndDistributor(opts: { roles: string; distributor?: string }) {
  const { parseRoles } = await import("../app/features/staff/index.server");
  let roles;
  try {
    roles = parseRoles(opts.roles);
  } catch (e) {
    throw usage((e as Error).message);
  }
  const distributorId = opts.distributor ? parseIntArg(opts.distributor, "--distributor", 1, 2 ** 31) : null;
  return { roles, distributorId };
}

/**
 * Fills an empty database with the demo: new random logins, printed once. null (and
 * nothing written) when the database has customers.
 */
async function fillDemo(conn: ReturnType<typeof getDb>, io: CliIo) {
  const { hasCustomers } = await import("../app/features/customers/index.server");
  if (await hasCustomers(conn)) return null;
  const { seedDemo, demoLoginText, newDemoLogins } = await import("./seed/demo");
  const { today } = await import("../app/lib/dates");
  const logins = newDemoLogins();
  const result = await seedDemo(conn, today(), logins);
  io.out(demoLoginText(logins));
  return result;
}

/**
 * A production server never runs with an account whose password was published: the
 * demo of earlier versions seeded these, and their README printed them.
 */
async function refusePublishedPasswords(conn: ReturnType<typeof getDb>) {
  const { PUBLISHED_DEMO_LOGINS } = await import("./seed/demo");
  const { activeStaffWithPasswords } = await import("../app/features/staff/index.server");
  const [email] = await activeStaffWithPasswords(PUBLISHED_DEMO_LOGINS, conn);
  if (email) {
    throw refuse.conflict(`${email} har fortfarande demolösenordet som stått i README; servern startar inte i drift. Byt det med portal staff set-password ${email}, eller stäng av kontot.`);
  }
}

/** Names and texts given on the command line follow the forms' rule (app/lib/form-fields.ts). */
async function refuseUnsafeText(values: string[]) {
  const { UNSAFE_TEXT, UNSAFE_TEXT_MESSAGE } = await import("../app/lib/form-fields");
  if (values.some((v) => UNSAFE_TEXT.test(v))) throw usage(UNSAFE_TEXT_MESSAGE);
}

export function buildProgram(streams: CliStreams | CliIo = {}): Command {
  const io = "out" in streams ? streams : cliIo(streams);
  const program = new Command("portal")
    .description("Returportalen: drift- och batchkommandon")
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // Written somewhere other than the terminal (the tests): no colours, a fixed width.
      ...(io.stdout === process.stdout ? {} : { getOutHelpWidth: () => 80, getOutHasColors: () => false }),
      ...(io.stderr === process.stderr ? {} : { getErrHelpWidth: () => 80, getErrHasColors: () => false }),
    });

  const db = program.command("db").description("databasen");
  db.command("migrate")
    .description("kör migreringar som inte körts (säkert att köra om)")
    .addHelpText("after", "\nExempel:\n  npm run portal -- db migrate")
    .action(async () => {
      await prepareDb(getDb());
      io.out("Databasen är migrerad.");
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
        if (opts.scale !== "national") throw usage("--scale kan bara vara national.");
        const customers = parseIntArg(opts.customers, "--customers", 1, 99999);
        const days = parseIntArg(opts.days, "--days", 1, 400);
        const started = portalNow();
        const conn = getDb();
        await prepareDb(conn);
        const { hasCustomers } = await import("../app/features/customers/index.server");
        if (await hasCustomers(conn)) {
          throw refuse.conflict("Databasen har redan kunder; --scale fyller bara en tom databas.");
        }
        const { seedNational } = await import("./seed/national");
        const { today } = await import("../app/lib/dates");
        const counts = await seedNational(conn, {
          customers,
          days,
          today: today(),
          progress: (step) => io.stderr.write(`${((portalNow() - started) / 1000).toFixed(1)} s: ${step}\n`),
        });
        io.out(`Klart: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ")} på ${((portalNow() - started) / 1000).toFixed(1)} s.`);
        return;
      }
      if (!opts.demo) throw usage("Ange vilken data: --demo eller --scale national.");
      const started = portalNow();
      const conn = getDb();
      await prepareDb(conn);
      const filled = await fillDemo(conn, io);
      if (filled === null) {
        if (opts.ifEmpty) return;
        throw refuse.conflict("Databasen har redan kunder; seed --demo fyller bara en tom databas.");
      }
      io.out(`Klart: ${filled.customers} kunder, ${filled.deliveries} leveranser på ${((portalNow() - started) / 1000).toFixed(1)} s.`);
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
      // Ny kund's own schema: the same rules and words as the screen and the customers file.
      const { CustomerAddSchema } = await import("../app/features/customers");
      const c = checkedOptions(
        CustomerAddSchema,
        { kundnummer: opts.id, name: opts.name, distributorId: opts.distributor, address: opts.address, zip: opts.zip, city: opts.city, phone: opts.phone, email: opts.email },
        { kundnummer: "--id", name: "--name", distributorId: "--distributor", address: "--address", zip: "--zip", city: "--city", phone: "--phone", email: "--email" },
      );
      await refuseUnsafeText([c.name, c.address, c.zip, c.city, c.phone, c.email]);
      const pin = await readSecret(io, Boolean(opts.pinStdin), "Pinkod (6 siffror): ");
      await prepareDb(getDb());
      const { addCustomer } = await import("../app/features/customers/index.server");
      const { kundnummer: id, ...details } = c;
      await addCustomer({ id, ...details, pin }, { id: "cli" });
      io.out(`Kund ${id} tillagd.`);
    });
  customer
    .command("set-pin")
    .description("byter en kunds pinkod")
    .argument("<kundnummer>")
    .option("--pin-stdin", "läs pinkoden från standard in")
    .addHelpText("after", "\nExempel:\n  npm run portal -- customer set-pin 1001")
    .action(async (idText: string, opts) => {
      const id = parseIntArg(idText, "kundnummer", 1, 99999);
      const pin = await readSecret(io, Boolean(opts.pinStdin), "Ny pinkod (6 siffror): ");
      await prepareDb(getDb());
      const { setCustomerPin } = await import("../app/features/customers/index.server");
      await setCustomerPin(id, pin, { id: "cli" });
      io.out(`Pinkoden för kund ${id} är bytt; kundens sessioner är avslutade och en spärr hävd.`);
    });

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
      // The staff screen's own schema and role rule, checked before the password is asked for.
      const { StaffAddSchema } = await import("../app/features/staff");
      const { addStaff, checkRoleChoice } = await import("../app/features/staff/index.server");
      const s = checkedOptions(
        StaffAddSchema,
        { intent: "lagg-till", email: opts.email, name: opts.name ?? opts.email, roles: String(opts.roles).split(",").map((r: string) => r.trim()).filter(Boolean), distributorId: opts.distributor },
        // Without --name the name is the address: what is wrong with it is said of --email.
        { email: "--email", name: opts.name === undefined ? "--email" : "--name", roles: "--roles", distributorId: "--distributor" },
      );
      await refuseUnsafeText([s.name]);
      checkRoleChoice(s.roles, s.distributorId);
      const password = await readSecret(io, Boolean(opts.passwordStdin), "Lösenord (minst 12 tecken, inte ett vanligt lösenord): ");
      await prepareDb(getDb());
      const id = await addStaff({ email: s.email, name: s.name, password, roles: s.roles, distributorId: s.distributorId }, { id: "cli" });
      io.out(`Personal ${s.email} tillagd (id ${id}).`);
    });

  staff
    .command("set-password")
    .description("byter en personalanvändares lösenord; användarens alla sessioner avslutas")
    .argument("<e-post>")
    .option("--password-stdin", "läs lösenordet från standard in")
    .addHelpText("after", "\nExempel:\n  npm run portal -- staff set-password anna@example.se")
    .action(async (email: string, opts) => {
      const password = await readSecret(io, Boolean(opts.passwordStdin), "Nytt lösenord (minst 12 tecken, inte ett vanligt lösenord): ");
      await prepareDb(getDb());
      const { setStaffPassword } = await import("../app/features/staff/index.server");
      const ended = await setStaffPassword(email, password, { id: "cli" });
      io.out(`Lösenordet för ${email.trim().toLowerCase()} är bytt; ${ended} sessioner avslutade.`);
    });
  staff
    .command("set-roles")
    .description("byter en personalanvändares roller; användarens alla sessioner avslutas")
    .argument("<e-post>")
    .requiredOption("--roles <roller>", "kommaseparerat: admin,sales,utb")
    .option("--distributor <id>", "distributör (krävs för utb)")
    .addHelpText("after", "\nExempel:\n  npm run portal -- staff set-roles anna@example.se --roles sales")
    .action(async (email: string, opts) => {
      const { changeStaffRoles } = await import("../app/features/staff/index.server");
      const { roles, distributorId } = await rolesAndDistributor(opts);
      await prepareDb(getDb());
      // The screen's rule: the last active admin keeps the role; an operator is no staff user.
      const ended = await changeStaffRoles({ email }, roles, distributorId, { id: "cli" }, null);
      io.out(`Rollerna för ${email.trim().toLowerCase()} är nu ${roles.join(",")}; ${ended} sessioner avslutade.`);
    });
  staff
    .command("reset-2fa")
    .description("tar bort en personalanvändares tvåstegsverifiering och återställningskoder och loggar ut användaren; appen kopplas på nytt vid nästa inloggning")
    .argument("<e-post>")
    .addHelpText("after", "\nExempel:\n  npm run portal -- staff reset-2fa anna@example.se")
    .action(async (raw: string) => {
      const email = raw.trim().toLowerCase();
      const { isEmailAddress } = await import("../app/lib/email");
      if (!isEmailAddress(email)) throw usage("Ange en e-postadress.");
      await prepareDb(getDb());
      const { resetSecondFactor } = await import("../app/features/auth/index.server");
      const { sessionsEnded } = await resetSecondFactor(email, { id: "cli" });
      io.out(
        `Tvåstegsverifieringen för ${email} är återställd (${sessionsEnded} ${sessionsEnded === 1 ? "session" : "sessioner"} avslutade). Appen kopplas på nytt vid nästa inloggning.`,
      );
    });

  registerImport(program, io);
  registerJobs(program, io);
  registerMaintenance(program, io);
  registerRecalls(program, io);
  registerSupply(program, io);
  registerReplica(program, io);

  program
    .command("serve")
    .description("startar webbservern")
    .addOption(new Option("--port <port>", "port").env("PORT").default("3000"))
    .addOption(new Option("--host <host>", "adress att lyssna på").env("HOST").default("0.0.0.0"))
    .option("--dev", "utvecklingsläge med Vite")
    .option("--demo", "DEMO, aldrig i drift: fyller en tom databas med påhittade kunder och personal (inloggningarna skrivs ut en gång) och tillåter en slumpad SESSION_SECRET")
    .addHelpText("after", "\nExempel:\n  npm run portal -- serve --port 3000\n  npm run portal -- serve --demo   (npm start)")
    .action(async (opts: { port: string; host: string; dev?: boolean; demo?: boolean }) => {
      const port = parseIntArg(opts.port, "--port", 1, 65535);
      // The flags become settings for readConfig here and in the app's modules (and the
      // children the server starts): written, not read.
      // eslint-disable-next-line no-restricted-syntax
      process.env.NODE_ENV ??= opts.dev ? "development" : "production";
      // eslint-disable-next-line no-restricted-syntax
      process.env.PORTAL_DEMO = opts.demo ? "1" : "";
      // The configuration, once, before anything opens: a bad one stops the start with one line.
      const { readConfig } = await import("../app/config.server");
      const config = readConfig(process.env, { demo: Boolean(opts.demo) });
      if (config.replica) {
        const { assertReplicationCanStart } = await import("../app/features/operations/index.server");
        assertReplicationCanStart(config.replica, config.databaseUrl);
      }
      const conn = getDb();
      await prepareDb(conn);
      // A server on a database it cannot write would answer every save with an error.
      const { assertWritable } = await import("../app/features/operations/index.server");
      await assertWritable(config.databaseUrl, config.databaseAuthToken);
      if (opts.demo) {
        io.err("portal: DEMO (--demo): påhittade kunder och personal, inte för riktiga returer.");
        if (config.sessionSecretRandom) io.err("portal: SESSION_SECRET saknas; demon använder en slumpad, så inloggningar gäller bara tills den startas om.");
        if ((await fillDemo(conn, io)) === null) io.out("Databasen har redan data; demoinloggningarna skrevs ut när den fylldes.");
        else io.out("En tom databas fylldes med demodata.");
      } else if (config.production) {
        await refusePublishedPasswords(conn);
      }
      // With REPLICA_URL, Litestream replicates the database from now on (decision 039).
      const { superviseReplicator } = await import("./replicator");
      const stopReplicator = config.replica ? superviseReplicator(process.argv[1], process.execArgv, (line) => io.err(line)) : async () => undefined;
      const { serve } = await import("./serve");
      const server = await serve({ port, host: opts.host, dev: Boolean(opts.dev) });
      io.out(`Returportalen: http://localhost:${port}`);
      // A shifted clock (tests, demos) is said at start, so nobody takes its dates for the calendar's.
      if (clockOffset() !== 0) {
        const { stockholmTime } = await import("../app/lib/dates");
        io.out(`Portalens klocka är flyttad (PORTAL_CLOCK_OFFSET_MS=${clockOffset()}): den visar ${stockholmTime(portalNow())} i Stockholm.`);
      }
      // Stop taking requests, let those under way finish, then close the database; the
      // replicator ships what it has before it stops.
      await new Promise<void>((resolve) => {
        const stop = () => server.close(() => resolve());
        process.once("SIGTERM", stop);
        process.once("SIGINT", stop);
      });
      await stopReplicator();
    });

  return program;
}

/**
 * What a command's end means to the shell that ran it (README, "Exit codes"): the one
 * place an outcome becomes a number.
 */
export const EXIT = {
  /** Done. */
  done: 0,
  /** Refused: the input, a file, a setting, a rule or a check that does not hold (a Refusal); its message says why. */
  refused: 1,
  /** The command line is wrong (commander's own errors and usage()). */
  usage: 2,
  /** Not done for now: the database was held by another process, or a mail server refused; run it again later. */
  busy: 3,
  /** Something broke that no rule foresaw (a bug, the disk, the network): the message and the error's own words. */
  broken: 4,
} as const;

/** Runs one command line (the arguments after `portal`) and answers its exit code (EXIT). */
export async function runPortal(argv: string[], streams: CliStreams = {}): Promise<number> {
  const io = cliIo(streams);
  try {
    await buildProgram(io).parseAsync(argv, { from: "user" });
    return EXIT.done;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has written its own errors already; ours are written here.
      if (error.code === USAGE) io.err(`portal: ${error.message}`);
      return error.exitCode === 0 ? EXIT.done : EXIT.usage;
    }
    if (isRefusal(error)) {
      io.err(`portal: ${error.message}`);
      return error.code === "busy" ? EXIT.busy : EXIT.refused;
    }
    // A setting db/ checks itself (DATABASE_URL, PORTAL_WRITE_WAIT_MS): refused like readConfig's.
    if (isSettingProblem(error)) {
      io.err(`portal: ${error.message}`);
      return EXIT.refused;
    }
    if (isDatabaseBusy(error)) {
      io.err(`portal: Databasen är upptagen av en annan process; kör kommandot igen om en stund.`);
      return EXIT.busy;
    }
    // A failed query's message carries its SQL and parameters (hashes among them): say only why.
    io.err(`portal: oväntat fel: ${errorReason(error)}`);
    return EXIT.broken;
  }
}
