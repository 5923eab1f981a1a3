// `portal supply export` and `portal supply suggest` (decision 037): the decided changes of
// deliveries to planning, each once, as the staff page's export; and the suggestions of the
// whole country (or one distributor) from the sell-through, as a file to read.
import { Command } from "commander";
import { closeSync, openSync, unlinkSync, writeFileSync } from "node:fs";
import { getDb, prepareDb } from "../../db/client";
import { parseIntArg, type CliIo } from "../io";

export function registerSupply(program: Command, io: CliIo) {
  const supply = program
    .command("supply")
    .description("leveransändringar: beslutade ändringar till planeringen, förslag från försäljningen")
    .addHelpText("after", "\nExempel:\n  npm run portal -- supply export --out planering-2026-12-02.csv");
  supply
    .command("export")
    .description("skriver de beslutade ändringar planeringen inte har fått (; UTF-8, docs/formats.md) och markerar dem skickade; utan nya ändringar skrivs ingen fil")
    .requiredOption("--out <FILE>", "filen att skriva (skrivs aldrig över)")
    .action(async (opts: { out: string }) => {
      // The file first (never over another): a change marked sent must reach a file.
      const fd = openSync(opts.out, "wx");
      let written = false;
      try {
        await prepareDb(getDb());
        const { exportSupplyChanges, supplyExportRows, planningCsv } = await import("../../app/features/supply/index.server");
        const made = await exportSupplyChanges({ distributorIds: null }, "cli", { id: "cli" });
        if (!made) {
          io.out("Inga nya beslutade ändringar att skicka till planeringen.");
          return;
        }
        const found = await supplyExportRows(made.id, { distributorIds: null });
        writeFileSync(fd, planningCsv(found!.rows));
        written = true;
        io.out(`export ${made.id}: ${made.rowCount} ändringar till ${opts.out}`);
      } finally {
        closeSync(fd);
        if (!written) unlinkSync(opts.out);
      }
    });
  supply
    .command("suggest")
    .description("räknar fram förslagen från försäljningen de senaste åtta veckorna för varje butik (eller en distributörs) och skriver dem som CSV")
    .requiredOption("--out <FILE>", "filen att skriva (skrivs aldrig över)")
    .option("--distributor <ID>", "bara den distributörens butiker")
    .action(async (opts: { out: string; distributor?: string }) => {
      await prepareDb(getDb());
      const { supplySuggestions } = await import("../../app/features/supply/index.server");
      const { weekdayName } = await import("../../app/features/supply");
      const distributorId = opts.distributor === undefined ? null : parseIntArg(opts.distributor, "--distributor", 1, 999999);
      const rows = await supplySuggestions({ distributorId }, { distributorIds: null });
      const cell = (v: string | number) => (/[;"\r\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
      const lines = ["kundnummer;kund;titel;veckodag;brukar_fa;forslag;anledning", ...rows.map((r) => [r.customerId, r.customerName, r.paper, weekdayName(r.weekday), r.usual, r.suggestion.copies, r.suggestion.reason].map(cell).join(";"))];
      writeFileSync(opts.out, lines.join("\r\n") + "\r\n", { flag: "wx" });
      io.out(`${rows.length} förslag till ${opts.out}`);
    });
}
