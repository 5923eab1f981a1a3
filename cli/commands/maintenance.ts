// Housekeeping: `maintenance prune`, which the server also runs once a day, and
// `restore`, which puts a verified backup (`backup`, cli/commands/jobs.ts) or the
// replica (`--from-replica`, decision 039) back.
import { Command } from "commander";
import { databaseUrl, getDb, openDb, prepareDb } from "../../db/client";
import { usage, type CliIo } from "../io";
import { seconds } from "../progress";
import { portalNow } from "../../db/clock";

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
      const started = portalNow();
      await prepareDb(getDb());
      const { prune, pruneSummary } = await import("../../app/features/operations/index.server");
      io.out(`maintenance prune: ${pruneSummary(await prune())} (${seconds(started)})`);
    });

  program
    .command("restore")
    .description(
      "lägger tillbaka en säkerhetskopia (från backup) eller repliken (--from-replica) i stället för en tom eller skadad databas; kopian kontrolleras med integrity_check och radantal. Stoppa servrarna först. Den tidigare databasen sparas bredvid, med ett nytt namn",
    )
    .argument("[FILE]", "säkerhetskopian")
    .option("--from-replica", "återställ från repliken (REPLICA_URL) i stället för från en fil")
    .option("--at <DATE TIME>", "med --from-replica: databasen som den var då, svensk tid: 'ÅÅÅÅ-MM-DD TT:MM[:SS]'")
    .option("--check", "med --from-replica: återställ till en tillfällig fil, kontrollera den och ta bort den; databasen rörs inte")
    .option("--force", "skriv över en databas som har kunder eller returer")
    .addHelpText(
      "after",
      "\nExempel:\n  npm run portal -- restore /srv/backup/portal-2026-03-02.db\n  npm run portal -- restore --from-replica\n  npm run portal -- restore --from-replica --at '2026-11-27 07:45'\n  npm run portal -- restore --from-replica --check",
    )
    .action(async (backup: string | undefined, opts: { force?: boolean; fromReplica?: boolean; at?: string; check?: boolean }) => {
      const started = portalNow();
      if (opts.fromReplica && backup) throw usage("Ange antingen en säkerhetskopia eller --from-replica, inte båda.");
      if (!opts.fromReplica && !backup) throw usage("Ange säkerhetskopian (FILE) eller --from-replica.");
      if (!opts.fromReplica && (opts.at || opts.check)) throw usage("--at och --check hör till --from-replica.");
      const ops = await import("../../app/features/operations/index.server");
      const url = databaseUrl();
      let r;
      if (opts.fromReplica) {
        const { readConfig } = await import("../../app/config.server");
        const { replica } = readConfig(process.env, { lenient: true });
        if (!replica) throw usage("REPLICA_URL är inte satt: ange repliken att återställa från (file:///…, s3://…).");
        const at = opts.at === undefined ? undefined : ops.parseRestorePoint(opts.at);
        if (opts.check) {
          const c = await ops.checkReplica(replica, url, { at });
          const { stockholmTime } = await import("../../app/lib/dates");
          io.out(`restore --check: ${ops.redactedReplicaUrl(replica.url)}${at === undefined ? "" : ` (${stockholmTime(at)})`}, ${Math.round(c.bytes / 1024)} kB, integrity_check ok, rader: ${ops.countsText(c.counts)} (${seconds(started)})`);
          io.out("restore --check: kopian togs bort; databasen är orörd.");
          return;
        }
        r = await ops.restoreFromReplica(replica, url, { at, force: Boolean(opts.force) });
      } else {
        r = await ops.restoreDatabase(backup!, url, { force: Boolean(opts.force) });
      }
      // A backup from an older version is brought up to this version's migrations.
      const conn = openDb(url);
      try {
        await prepareDb(conn);
      } finally {
        conn.$client.close();
      }
      const before = { missing: "fanns inte", empty: "var tom", damaged: "var skadad", live: "hade data (--force)" }[r.replaced];
      io.out(`restore: ${r.from} -> ${r.file}, integrity_check ok, rader: ${ops.countsText(r.counts)} (${seconds(started)})`);
      io.out(`restore: databasen ${before}${r.keptAs ? `; den ligger kvar som ${r.keptAs}` : ""}.`);
    });
}
