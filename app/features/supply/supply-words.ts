// Leveransändring's words and constants (decision 037). Client-safe: the pages, the
// exports and the CLI say the same.

/** The suggestion rule's constants (supply-rule.ts). */
export const SUPPLY_RULE = {
  /** Same weekdays looked at. */
  weeks: 8,
  /** Same weekdays with a delivery needed before anything is suggested. */
  minDays: 4,
  /** The share of days the target covers (nearest rank). */
  cover: 0.75,
  /** The margin over the covered demand, as a share of it (at least one copy). */
  margin: 0.2,
  /** A suggestion moves at most the larger of this many copies … */
  minMove: 2,
  /** … and this share of the usual delivery. */
  share: 0.2,
} as const;

// The retailer's forms' intents (here, not beside the schemas: the retailer's page ships no form library).
export const SEND_WEEKDAYS = "veckodagar";
export const SEND_ONE_OFF = "enstaka";
export const WITHDRAW = "angra";
export const ANSWER = "svara";

/** The largest number a retailer may ask for on one day. */
export const SUPPLY_MAX_COPIES = 999;
/** How far ahead a one-off change may be asked for. */
export const SUPPLY_ONE_OFF_MAX_DAYS = 90;
/** A cut the retailer did not ask for starts at least this long after the retailer can see it. */
export const SUPPLY_NOTICE_HOURS = 48;

const WEEKDAYS = ["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"] as const;
const WEEKDAYS_PLURAL = ["måndagarna", "tisdagarna", "onsdagarna", "torsdagarna", "fredagarna", "lördagarna", "söndagarna"] as const;
const WEEKDAYS_SHORT = ["Mån", "Tis", "Ons", "Tor", "Fre", "Lör", "Sön"] as const;

/** "lördag" for 6 (ISO weekday). */
export const weekdayName = (weekday: number): string => WEEKDAYS[weekday - 1] ?? `dag ${weekday}`;
/** "lördagarna" for 6. */
export const weekdayPlural = (weekday: number): string => WEEKDAYS_PLURAL[weekday - 1] ?? `dag ${weekday}`;
/** "Lör" for 6. */
export const weekdayShort = (weekday: number): string => WEEKDAYS_SHORT[weekday - 1] ?? String(weekday);
/** "Lördag" for 6. */
export const weekdayTitle = (weekday: number): string => {
  const name = weekdayName(weekday);
  return name.charAt(0).toUpperCase() + name.slice(1);
};

export const SUPPLY_STATUSES = ["sent", "approved", "adjusted", "rejected", "withdrawn", "proposed", "declined", "in_force"] as const;
export type SupplyStatus = (typeof SUPPLY_STATUSES)[number];

/** The staff queue's choices: groups first, then each status. */
export const SUPPLY_QUEUE_FILTERS = ["oppna", "ej-beslutade", "att-skicka", "ej-genomforda", "alla", ...SUPPLY_STATUSES] as const;
export type SupplyQueueFilter = (typeof SUPPLY_QUEUE_FILTERS)[number];

export const SUPPLY_STATUS_WORD: Record<SupplyStatus, string> = {
  sent: "Skickad",
  approved: "Godkänd",
  adjusted: "Justerad",
  rejected: "Avslagen",
  withdrawn: "Återtagen",
  proposed: "Förslag från distributören",
  declined: "Avböjd",
  in_force: "I kraft",
};

/** When a change applies, in words: "lördagar från 2026-12-07" or "2026-12-24". */
export function supplyWhen(c: { weekday: number | null; oneOffDate: string | null; startDate: string }): string {
  return c.weekday !== null ? `${weekdayPlural(c.weekday).replace(/na$/, "")} från ${c.startDate}` : `endast ${c.oneOffDate}`;
}

/** A change's status as the retailer and staff read it. */
export function supplyStatusText(c: { status: SupplyStatus; startDate: string; newCopies: number | null; reason: string | null }): string {
  switch (c.status) {
    case "sent":
      return `Skickad (från ${c.startDate})`;
    case "approved":
      return `Godkänd (${c.newCopies} ex från ${c.startDate})`;
    case "adjusted":
      return `Justerad till ${c.newCopies} ex från ${c.startDate}${c.reason ? `: ${c.reason}` : ""}`;
    case "rejected":
      return `Avslagen${c.reason ? `: ${c.reason}` : ""}`;
    case "in_force":
      return `I kraft (${c.newCopies} ex från ${c.startDate})`;
    case "proposed":
      return `Förslag från distributören${c.reason ? `: ${c.reason}` : ""}`;
    default:
      return SUPPLY_STATUS_WORD[c.status];
  }
}

export const SUPPLY_TEXTS = {
  title: "Leveransändring",
  intro:
    "Här ser du hur mycket du brukar få och sälja per veckodag, och kan be om fler eller färre exemplar. En ändring per veckodag gäller tills vidare; en ändring för en enstaka dag gäller bara den dagen.",
  copiesInvalid: `Ange ett antal ex, 0–${SUPPLY_MAX_COPIES}.`,
  nothingChanged: "Ange ett nytt antal för minst en veckodag.",
  sameAsUsual: (usual: number) => `Det är samma antal som du brukar få (${usual} ex).`,
  dateInvalid: "Ange ett datum (ÅÅÅÅ-MM-DD).",
  oneOffTooLate: (cutoff: string) => `För sent för den dagen: en ändring för en enstaka dag måste skickas senast ${cutoff}.`,
  oneOffTooFar: `En ändring för en enstaka dag kan skickas högst ${SUPPLY_ONE_OFF_MAX_DAYS} dagar framåt.`,
  notFound: (id: number) => `Ändring ${id} finns inte.`,
  notOpen: (id: number) => `Ändring ${id} är redan besvarad.`,
  reasonMissing: "Ange en anledning.",
  decisionTooLate: (cutoff: string) => `Sista tid för beslut var ${cutoff}: en ändring för en enstaka dag kan nu bara avslås.`,
  noticeTooShort: `För sent att minska: butiken ska se en minskning minst ${SUPPLY_NOTICE_HOURS} timmar innan den börjar gälla.`,
  nothingChosen: "Välj minst en ändring.",
  suggestionChanged: (customerId: number, weekday: number) => `Förslaget för kund ${customerId}, ${weekdayName(weekday)} gäller inte längre. Ladda om sidan.`,
  alreadyAsked: (id: number) => `Butiken har redan skickat ändring ${id} för den dagen: besluta den i stället.`,
  paperMissing: "Välj en tidning.",
  customerMissing: "Kunden finns inte.",
  weekdayMissing: "Välj en veckodag eller ange ett datum.",
} as const;
