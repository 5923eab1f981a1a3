// Housekeeping: `maintenance prune`, which the server also runs once a day.
import { Command } from "commander";
import { getDb, prepareDb } from "../../db/client";
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
}
