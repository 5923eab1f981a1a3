// `portal recall create` and `portal recall status` (decision 036): what staff do on
// Återkallelser, as an operator scripts it. `status` exits 1 while any shop the recall
// reaches has not acknowledged it, so a script can wait for it.
import { Command } from "commander";
import { getDb, prepareDb } from "../../db/client";
import { parseDateArg, parseIntArg, usage, type CliIo } from "../io";
import { refuse } from "../../app/lib/refusal";
import type { RecallAction } from "../../app/features/recalls";

const collect = (value: string, all: string[]) => [...all, value];

export function registerRecalls(program: Command, io: CliIo) {
  const recall = program
    .command("recall")
    .description("återkallelser: tidningar som ska bort från hyllan")
    .addHelpText("after", '\nExempel:\n  npm run portal -- recall create --title 2 --edition 2 --dates 2026-11-27..2026-11-28 --reason "Fel bilaga" --deadline "2026-11-28 12:00"');
  recall
    .command("create")
    .description("skapar en återkallelse och skriver ut dess nummer och hur många kunder den når")
    .requiredOption("--title <ID>", "titel: 1 Aftonbladet, 2 Expressen")
    .requiredOption("--edition <ID>", "utgåva (flera: upprepa)", collect, [])
    .requiredOption("--dates <FROM..TO>", "utgivningsdagar, ÅÅÅÅ-MM-DD..ÅÅÅÅ-MM-DD (eller en dag)")
    .requiredOption("--reason <TEXT>", "orsaken som återförsäljarna läser")
    .requiredOption("--deadline <DATE TIME>", "sista tid, svensk tid: ÅÅÅÅ-MM-DD TT:MM")
    .option("--action <ACTION>", "returnera (ta bort från hyllan och returnera) eller forstor (ta bort och förstör)", "returnera")
    .option("--distributor <ID>", "bara den distributören (flera: upprepa); utan: alla", collect, [])
    .action(async (opts: { title: string; edition: string[]; dates: string; reason: string; deadline: string; action: string; distributor: string[] }) => {
      const [from, to = from] = opts.dates.split("..");
      const deadline = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/.exec(opts.deadline.trim());
      if (!deadline) throw usage("--deadline ska vara ÅÅÅÅ-MM-DD TT:MM (svensk tid).");
      if (opts.action !== "returnera" && opts.action !== "forstor") throw usage("--action ska vara returnera eller forstor.");
      await prepareDb(getDb());
      const { createRecall } = await import("../../app/features/recalls/index.server");
      const { id, customers } = await createRecall(
        {
          titleId: parseIntArg(opts.title, "--title", 1, 999),
          editionIds: opts.edition.map((e) => parseIntArg(e, "--edition", 0, 9999)),
          from: parseDateArg(from, "--dates"),
          to: parseDateArg(to, "--dates"),
          reason: opts.reason,
          action: opts.action as RecallAction,
          distributorIds: opts.distributor.length === 0 ? null : opts.distributor.map((d) => parseIntArg(d, "--distributor", 1, 999999)),
          deadlineDate: deadline[1],
          deadlineTime: deadline[2],
        },
        { id: "cli" },
      );
      io.out(`recall ${id}: ${customers} kunder`);
      // The mails now (SMTP_URL), each claimed once: a server running at the same time shares the work.
      const { runRecallMails, recallMailSummaryText } = await import("../../app/features/recalls/index.server");
      io.out(recallMailSummaryText(await runRecallMails({ write: (line) => io.err(line) })));
    });
  recall
    .command("status")
    .description("visar hur många kunder som bekräftat; slutstatus 1 så länge någon inte har bekräftat en pågående återkallelse")
    .argument("<ID>", "återkallelsens nummer")
    .action(async (raw: string) => {
      const id = parseIntArg(raw, "ID", 1, Number.MAX_SAFE_INTEGER);
      await prepareDb(getDb());
      const { recallFollowUp } = await import("../../app/features/recalls/index.server");
      const follow = await recallFollowUp(id, { distributorIds: null });
      if (!follow) throw refuse.notFound(`Återkallelse ${id} finns inte.`);
      const r = follow.recall;
      for (const d of follow.perDistributor) io.out(`${d.name}: ${d.acknowledged} av ${d.affected} har bekräftat, ${d.removed} ex borttagna, ${d.returned} ex returnerade`);
      for (const c of follow.waiting) io.out(`väntar: ${c.customerId} ${c.name}${c.phone ? `, ${c.phone}` : ""}`);
      const summary = `recall ${id}: ${r.acknowledged} av ${r.affected} har bekräftat, ${r.removed} av ${r.delivered} ex borttagna${r.endedAt !== null ? ", avslutad" : ""}`;
      if (r.endedAt === null && r.acknowledged < r.affected) throw refuse.conflict(`${summary}; ${r.affected - r.acknowledged} har inte bekräftat.`);
      io.out(summary);
    });
}
