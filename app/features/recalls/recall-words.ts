// The recall's words (decision 036): what retailers and staff read, in one place.
import { paperName, titleName } from "~/catalog";

export const RECALL_ACTIONS = ["returnera", "forstor"] as const;
export type RecallAction = (typeof RECALL_ACTIONS)[number];

export const RECALL_ACTION_TEXT: Record<RecallAction, string> = {
  returnera: "Ta bort från hyllan och returnera",
  forstor: "Ta bort och förstör",
};

export const RECALL_TEXTS = {
  reasonMissing: "Skriv orsaken som återförsäljarna ska läsa.",
  editionsMissing: "Välj minst en utgåva.",
  editionsOfTitle: "Utgåvorna ska höra till den valda titeln.",
  actionMissing: "Välj vad återförsäljarna ska göra.",
  distributorsMissing: "Välj minst en distributör, eller Alla distributörer.",
  deadlinePassed: "Sista tid har redan passerat.",
  nobodyAffected: "Ingen kund har fått de utgåvorna de dagarna. Ingen återkallelse skapades.",
  removedInvalid: "Ange antal borttagna ex (0 eller fler), eller kryssa i Jag har inga kvar.",
  alreadyAcknowledged: (removed: number) => `Återkallelsen är redan bekräftad (${removed} ex borttagna).`,
  ended: "Återkallelsen är avslutad och behöver inte bekräftas.",
  notFound: (id: number) => `Återkallelse ${id} finns inte.`,
  notice: "Återkallelse: ta bort tidningarna från hyllan",
};

type Named = { id: number; titleId: number; editions: { description: string }[]; dateFrom: string; dateTo: string };

/** The heading's two parts: what is recalled, and its days (printed unbroken on a phone). */
export function recallHeadingParts(r: Named): { lead: string; days: string } {
  const title = titleName(r.titleId) ?? `Titel ${r.titleId}`;
  return { lead: `Återkallelse ${r.id}: ${r.editions.map((e) => paperName(title, e.description)).join(", ")}`, days: r.dateFrom === r.dateTo ? r.dateFrom : `${r.dateFrom}–${r.dateTo}` };
}

/** "Återkallelse 12: Expressen – Kvällsposten, 2026-11-27–2026-11-28": each edition as it is printed. */
export function recallHeading(r: Named): string {
  const { lead, days } = recallHeadingParts(r);
  return `${lead}, ${days}`;
}
