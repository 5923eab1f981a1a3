// `portal replica run` and `portal replica status` (decision 039): the replicator as a
// command of its own (what `portal serve` starts, or a sidecar under systemd), and what an
// operator on call asks first: is the replica keeping up?
import { Command } from "commander";
import { databaseUrl } from "../../db/client";
import { parseIntArg, usage, type CliIo } from "../io";
import { refuse } from "../../app/lib/refusal";

/** REPLICA_URL and its settings, checked as a start checks them; a usage error without them. */
async function replicaSettings() {
  const { readConfig } = await import("../../app/config.server");
  const config = readConfig(process.env, { lenient: true });
  return { config, replica: config.replica };
}

export function registerReplica(program: Command, io: CliIo) {
  const replica = program
    .command("replica")
    .description("kontinuerlig replikering av databasen med Litestream (REPLICA_URL)")
    .addHelpText("after", "\nExempel:\n  REPLICA_URL=file:///mnt/replika/portal npm run portal -- replica status");
  replica
    .command("run")
    .description("replikerar databasen tills den stoppas (serve startar den själv när REPLICA_URL är satt; körs den fristående, t.ex. under systemd, replikerar bara en process åt gången)")
    .option("--parent <PID>", "avsluta när den processen inte längre är föräldern (serve sätter den)")
    .action(async (opts: { parent?: string }) => {
      const { config, replica: settings } = await replicaSettings();
      if (!settings) throw usage("REPLICA_URL är inte satt: ange vart databasen ska replikeras (file:///…, s3://…).");
      const { databaseFile } = await import("../../db/database-url");
      const file = databaseFile(config.databaseUrl);
      if (!file) throw usage("REPLICA_URL replikerar en lokal databasfil (DATABASE_URL=file:…).");
      const { runReplicator } = await import("../replicator");
      await runReplicator({ file, replica: settings, parentPid: opts.parent ? parseIntArg(opts.parent, "--parent", 1, 2 ** 31) : undefined, log: (line) => io.err(line) });
    });
  replica
    .command("status")
    .description("visar om repliken är ikapp: eftersläpning, senaste ögonblicksbild; avslutar med 1 när replikeringen ligger efter eller inte körs")
    .option("--snapshots", "fråga också repliken efter dess ögonblicksbilder (läser från repliken)")
    .addHelpText("after", "\nExempel:\n  npm run portal -- replica status --snapshots")
    .action(async (opts: { snapshots?: boolean }) => {
      const { replica: settings } = await replicaSettings();
      const { replicationState, replicationStatusLines, replicaSnapshots } = await import("../../app/features/operations/index.server");
      const { stockholmTime } = await import("../../app/lib/dates");
      const state = replicationState(settings, databaseUrl());
      for (const line of replicationStatusLines(settings, state)) io.out(line);
      if (settings && opts.snapshots) {
        const snapshots = replicaSnapshots(settings);
        const last = snapshots.at(-1);
        io.out(last ? `ögonblicksbilder: ${snapshots.length}, äldsta ${stockholmTime(snapshots[0].createdAt)}, senaste ${stockholmTime(last.createdAt)}` : "ögonblicksbilder: inga");
      }
      if (state.state === "unconfigured") throw refuse.invalid("Databasen replikeras inte: sätt REPLICA_URL.");
      if (state.state !== "ok") throw refuse.conflict("Repliken är inte ikapp; se läget ovan.");
    });
}
