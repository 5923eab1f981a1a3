// Housekeeping: `maintenance prune`, which the server also runs once a day, and
// `restore`, which puts a verified backup (`backup`, cli/commands/jobs.ts) back.
import { Command } from "commander";
import { databaseUrl, getDb, openDb, prepareDb } from "../../db/client";
import type { CliIo } from "../io";
import { seconds } from "../progress";

export function registerMaintenance(program: Command, io: CliIo) {
  const maintenance = program
    .command("maintenance")
    .description("underhåll av databasen")
    .addHelpText("after", "\nExempel:\n  npm run portal -- maintenance prune");
  maintenance
    .command("prune")
    .description(
      "tar bort utgångna sessioner, inloggningsspärrar som inte längre spärrar, granskningsloggrader äldre än 400 dagar och formulärnycklar äldre än 30 dagar (servern gör det en gång per dygn)",
    )
    .addHelpText("after", "\nExempel:\n  npm run portal -- maintenance prune")
    .action(async () => {
      const started = Date.now();
      await prepareDb(getDb());
      const { prune, pruneSummary } = await import("../../app/features/operations/index.server");
      io.out(`maintenance prune: ${pruneSummary(await prune())} (${seconds(started)})`);
    });

  program
    .command("restore")
    .description(
      "lägger tillbaka en säkerhetskopia (från backup) i stället för en tom eller skadad databas; kopian kontrolleras med integrity_check och radantal. Stoppa servrarna först. Den tidigare databasen sparas bredvid, med ett nytt namn",
    )
    .argument("<FILE>", "säkerhetskopian")
    .option("--force", "skriv över en databas som har kunder eller returer")
    .addHelpText("after", "\nExempel:\n  npm run portal -- restore /srv/backup/portal-2026-03-02.db")
    .action(async (backup: string, opts: { force?: boolean }) => {
      const started = Date.now();
      const { countsText, restoreDatabase } = await import("../../app/features/operations/index.server");
      const url = databaseUrl();
      const r = await restoreDatabase(backup, url, { force: Boolean(opts.force) });
      // A backup from an older version is brought up to this version's migrations.
      const conn = openDb(url);
      try {
        await prepareDb(conn);
      } finally {
        conn.$client.close();
      }
      const before = { missing: "fanns inte", empty: "var tom", damaged: "var skadad", live: "hade data (--force)" }[r.replaced];
      io.out(`restore: ${r.from} -> ${r.file}, integrity_check ok, rader: ${countsText(r.counts)} (${seconds(started)})`);
      io.out(`restore: databasen ${before}${r.keptAs ? `; den ligger kvar som ${r.keptAs}` : ""}.`);
    });
}
