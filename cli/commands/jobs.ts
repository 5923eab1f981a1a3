// The periodic jobs: invoice run, payout files, distribution export, backup.
import { Command } from "commander";
import { createWriteStream, existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { finished } from "node:stream/promises";
import { once } from "node:events";
import { basename, dirname, join, resolve } from "node:path";
import { getDb, prepareDb } from "../../db/client";
import { parseDateArg, parseIntArg, parsePeriodArgs, usage, type CliIo } from "../io";
import { progressBar, seconds } from "../progress";
import { refuse } from "../../app/lib/refusal";
import { portalNow } from "../../db/clock";

function kr(ore: number): string {
  const sign = ore < 0 ? "-" : "";
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")} kr`;
}

const PAPER_TYPES: Record<number, string> = { 0: "Huvudtidningar", 1: "Bilagor" };

/** A parent command (`invoice`, `payout`, `export`) whose help ends with one example. */
function commandGroup(program: Command, name: string, description: string, example: string): Command {
  return program.command(name).description(description).addHelpText("after", `\nExempel:\n  ${example}`);
}

export function registerJobs(program: Command, io: CliIo) {
  const invoice = commandGroup(program, "invoice", "fakturering", "npm run portal -- invoice run --from 2026-02-01 --to 2026-02-28");
  invoice
    .command("run")
    .description("fakturerar varje kund per papperstyp för perioden: (levererat − returnerat) × nettopris, plus skickade fakturaposter och överförda beställningar")
    .requiredOption("--from <DATE>", "periodens första dag, ÅÅÅÅ-MM-DD")
    .requiredOption("--to <DATE>", "periodens sista dag, ÅÅÅÅ-MM-DD")
    .option("--dry-run", "räkna och visa summorna, men skapa inga fakturor")
    .addHelpText("after", "\nExempel:\n  npm run portal -- invoice run --from 2026-02-01 --to 2026-02-28 --dry-run")
    .action(async (opts: { from: string; to: string; dryRun?: boolean }) => {
      const started = portalNow();
      const { from, to } = parsePeriodArgs(opts);
      await prepareDb(getDb());
      const { runInvoicing } = await import("../../app/features/invoices/index.server");
      const bar = progressBar("invoice run", io.stderr);
      const s = await runInvoicing({ from, to, dryRun: opts.dryRun, actor: { id: "cli" } }, (d, t) => bar.update(d, t)).finally(() => bar.finish());
      for (const t of s.perPaperType) {
        io.out(`${PAPER_TYPES[t.paperType] ?? `typ ${t.paperType}`}: ${t.invoices} fakturor, netto ${kr(t.netOre)}, moms ${kr(t.vatOre)}, att betala ${kr(t.amountOre)}`);
      }
      const numbers = s.firstNumber === null ? "" : `, nummer ${s.firstNumber}–${s.lastNumber}`;
      const planned = s.perPaperType.reduce((n, t) => n + t.invoices, 0);
      io.out(
        opts.dryRun
          ? `invoice run ${from}..${to}: ${planned} new, ${s.existing} already invoiced (${seconds(started)}) [dry-run: ingenting skapat]`
          : `invoice run ${from}..${to}: ${s.created} new, ${s.existing} already invoiced${numbers} (${seconds(started)})`,
      );
    });

  invoice
    .command("credit")
    .description("krediterar en utfärdad faktura med en kreditfaktura: hela fakturan, eller de rader som anges")
    .argument("<NUMBER>", "fakturans nummer")
    .requiredOption("--reason <TEXT>", "varför fakturan krediteras (står på kreditfakturan)")
    .option("--line <ID...>", "radernas id (som i Kreditera); utan: alla rader som inte redan är krediterade")
    .addHelpText("after", '\nExempel:\n  npm run portal -- invoice credit 500243 --reason "Fel pris på Kvällsposten"')
    .action(async (numberArg: string, opts: { reason: string; line?: string[] }) => {
      const invoiceNumber = parseIntArg(numberArg, "<NUMBER>", 1, 9_999_999_999);
      const lineIds = (opts.line ?? []).map((l) => parseIntArg(l, "--line", 1, Number.MAX_SAFE_INTEGER));
      await prepareDb(getDb());
      const { creditInvoice } = await import("../../app/features/invoices/index.server");
      const made = await creditInvoice({ invoiceNumber, reason: opts.reason, lineIds, actor: { id: "cli" } });
      io.out(`kreditfaktura ${made.number} för faktura ${made.invoice}: ${made.lines} rader, netto ${kr(made.netOre)}, moms ${kr(made.vatOre)}, totalt ${kr(made.amountOre)}`);
    });

  invoice
    .command("work", { hidden: true })
    .description("arbetar en körning som webbservern har startat (servern startar kommandot själv)")
    .argument("<run>", "körningens nummer")
    .argument("<claim>", "körningens anspråk, från servern")
    .action(async (run: string, claim: string) => {
      const started = portalNow();
      await prepareDb(getDb());
      const { workInvoiceRun } = await import("../../app/features/invoices/index.server");
      const s = await workInvoiceRun(parseIntArg(run, "<run>", 1, Number.MAX_SAFE_INTEGER), claim);
      // One line in the server's log, as its scheduled jobs write them (cli/serve.ts).
      const summary = `invoice run ${s.from}..${s.to} (körning ${s.runId}): ${s.created} new, ${s.existing} already invoiced (${seconds(started)})`;
      const { readConfig } = await import("../../app/config.server");
      if (!readConfig(process.env, { lenient: true }).quietLog) io.out(JSON.stringify({ t: new Date(portalNow()).toISOString(), job: "invoice work", level: "info", summary }));
    });

  const report = commandGroup(program, "report", "rapporter", "npm run portal -- report reconcile --from 2026-11-01 --to 2026-11-30");
  report
    .command("reconcile")
    .description("avstämning: levererat − returnerat − godkända reklamationer = fakturerat − krediterat − det som krediteras på nästa faktura, per titel (eller kund); avslutar med 1 vid någon differens")
    .requiredOption("--from <DATE>", "periodens första dag, ÅÅÅÅ-MM-DD")
    .requiredOption("--to <DATE>", "periodens sista dag, ÅÅÅÅ-MM-DD")
    .option("--by <WHAT>", "title (titel och papperstyp) eller customer (kund)", "title")
    .option("--json", "skriver avstämningen som JSON (det webbservern läser), och avslutar med 0 även vid differens")
    .action(async (opts: { from: string; to: string; by: string; json?: boolean }) => {
      const { from, to } = parsePeriodArgs(opts);
      if (opts.by !== "title" && opts.by !== "customer") throw usage("--by ska vara title eller customer.");
      await prepareDb(getDb());
      const { reconcile, reconciles } = await import("../../app/features/invoices/index.server");
      const r = await reconcile({ from, to, by: opts.by });
      if (opts.json) {
        io.out(JSON.stringify(r));
        return;
      }
      const fig = (f: { copies: number; ore: number }) => `${f.copies} ex ${kr(f.ore)}`;
      for (const row of [...r.rows, r.total]) {
        io.out(
          `${row.label}: levererat ${fig(row.delivered)}, returer ${fig({ copies: row.returnedInTime.copies + row.returnedLate.copies, ore: row.returnedInTime.ore + row.returnedLate.ore })} (sena ${row.returnedLate.copies}), reklamationer ${fig(row.claims)}, fakturerat ${fig(row.billed)}, krediterat ${fig(row.credited)}, krediteras ${fig(row.pending)}, differens ${fig(row.difference)}`,
        );
      }
      // A difference is a failure of the command: exit 1 with the difference on standard error.
      if (!reconciles(r)) throw refuse.conflict(`Avstämningen ${from}..${to} stämmer inte: differens ${fig(r.total.difference)}.`);
      io.out(`reconcile ${from}..${to}: stämmer`);
    });

  const payout = commandGroup(program, "payout", "utbetalning av garantibelopp", "npm run portal -- payout files --out utbetalningar/2026-v10");
  payout
    .command("files")
    .description("skriver utbetalningsfilerna (per titel och utbetalningsvecka en CSV, <titel>-<år>-v<vecka>.csv, och en bankfil i ISO 20022 pain.001.001.03, <titel>-<år>-v<vecka>.xml) och PDF-underlagen för de utbetalningar personalen lagt till")
    .requiredOption("--out <DIR>", "katalog att skriva till (skapas om den saknas); befintliga filer skrivs aldrig över")
    .addHelpText("after", "\nExempel:\n  npm run portal -- payout files --out utbetalningar/2026-v10")
    .action(async (opts: { out: string }) => {
      const started = portalNow();
      await prepareDb(getDb());
      const { buildPayoutFiles, incompletePayouts } = await import("../../app/features/guarantees/index.server");
      const files = await buildPayoutFiles({ id: "cli" });
      // Payouts lacking a detail are not in the files: they wait, each blocking only itself.
      for (const line of await incompletePayouts()) io.err(`portal: väntar, saknar uppgifter (inte med i filerna): ${line}`);
      if (files.length === 0) {
        io.out(`payout files: 0 files, inga utbetalningar att skriva (${seconds(started)})`);
        return;
      }
      mkdirSync(opts.out, { recursive: true });
      const clash = files.find((f) => existsSync(join(opts.out, f.filename)));
      if (clash) throw refuse.conflict(`${join(opts.out, clash.filename)} finns redan; välj en annan katalog.`);
      for (const f of files) {
        writeFileSync(join(opts.out, f.filename), f.content, { flag: "wx" });
        io.out(join(opts.out, f.filename));
      }
      io.out(`payout files: ${files.length} files (${seconds(started)})`);
    });

  const exp = commandGroup(program, "export", "exporter", "npm run portal -- export distribution --from 2026-03-01 --to 2026-03-07 --out v10.xlsx");
  exp
    .command("distribution")
    .description("personalens Excel-export av distributionsuppföljningen (leveransreklamationer)")
    .requiredOption("--from <DATE>", "första dag, ÅÅÅÅ-MM-DD")
    .requiredOption("--to <DATE>", "sista dag, ÅÅÅÅ-MM-DD")
    .option("--distributor <ID>", "bara en distributör")
    .requiredOption("--out <FILE.xlsx>", "filen att skriva; en befintlig fil skrivs aldrig över")
    .addHelpText("after", "\nExempel:\n  npm run portal -- export distribution --from 2026-03-01 --to 2026-03-07 --distributor 1 --out norr-v10.xlsx")
    .action(async (opts: { from: string; to: string; distributor?: string; out: string }) => {
      const started = portalNow();
      const { from, to } = parsePeriodArgs(opts);
      const distributorIds = opts.distributor ? [parseIntArg(opts.distributor, "--distributor", 1, 2 ** 31 - 1)] : [];
      if (!opts.out.toLowerCase().endsWith(".xlsx")) throw usage("--out ska sluta på .xlsx.");
      if (existsSync(opts.out)) throw refuse.conflict(`${opts.out} finns redan; välj ett nytt filnamn.`);
      await prepareDb(getDb());
      const { writeDistributionXlsx } = await import("../../app/features/distribution/index.server");
      // Written under a temporary name, so a failed export never leaves half a file.
      const tmp = join(dirname(resolve(opts.out)), `.${basename(opts.out)}.${process.pid}.tmp`);
      const stream = createWriteStream(tmp, { flags: "wx" });
      // A folder that does not exist (or cannot be written) is said at once, not left to
      // an error nobody listens for while the rows are read.
      await once(stream, "open").catch((e: NodeJS.ErrnoException) => {
        throw refuse.invalid(`Kan inte skriva ${opts.out}: ${e.code ?? e.message}`);
      });
      try {
        const { rows } = await writeDistributionXlsx(stream, { from, to, excludeDates: [], distributorIds, editions: [] });
        if (!stream.writableFinished) await finished(stream);
        if (existsSync(opts.out)) throw refuse.conflict(`${opts.out} finns redan; välj ett nytt filnamn.`);
        renameSync(tmp, opts.out);
        io.out(`export distribution ${from}..${to}: ${rows} rows -> ${opts.out} (${seconds(started)})`);
      } finally {
        if (existsSync(tmp)) unlinkSync(tmp);
      }
    });

  program
    .command("remind")
    .description(
      "mejlar kunder som slagit på påminnelser och har orapporterade tidningar med sista returdag i dag eller i morgon, högst en gång per dag; utan SMTP_URL skrivs bara vad som skulle skickats",
    )
    .option("--date <DATE>", "dagen att påminna för, ÅÅÅÅ-MM-DD (standard: i dag)")
    .addHelpText("after", "\nExempel:\n  SMTP_URL=smtp://mail.example.se:587 PORTAL_URL=https://retur.example.se npm run portal -- remind")
    .action(async (opts: { date?: string }) => {
      const started = portalNow();
      const on = opts.date === undefined ? undefined : parseDateArg(opts.date, "--date");
      await prepareDb(getDb());
      const { runReminders, remindSummaryText } = await import("../../app/features/reminders/index.server");
      const s = await runReminders({ on, write: (line) => io.out(line) });
      io.out(`${remindSummaryText(s)} (${seconds(started)})`);
      if (s.failed > 0) throw refuse.busy(`${s.failed} påminnelser kunde inte skickas; kör igen senare (de som skickats skickas inte igen i dag).`);
    });

  program
    .command("backup")
    .description("en konsekvent kopia av databasen medan den används (kopian och radantalen i samma lästransaktion) som kontrolleras med PRAGMA integrity_check och radantalen; skriver aldrig över")
    .requiredOption("--out <FILE>", "kopians filnamn")
    .addHelpText("after", "\nExempel:\n  npm run portal -- backup --out /srv/backup/portal-2026-03-02.db")
    .action(async (opts: { out: string }) => {
      const { backupDatabase, countsText } = await import("../../app/features/operations/index.server");
      const r = await backupDatabase(opts.out);
      io.out(`backup: ${r.file}, ${(r.bytes / 1024 / 1024).toFixed(1)} MB, integrity_check ok (${(r.ms / 1000).toFixed(1)} s)`);
      io.out(`backup: kopian har samma antal rader som databasen: ${countsText(r.counts)}`);
    });
}
