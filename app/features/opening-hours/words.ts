// The Öppettider form's field names and texts (the OPPETTIDER alert's screen), apart
// from its zod schema (schemas.ts), so the page ships no validation library.
export const WEEKDAYS = ["Måndag", "Tisdag", "Onsdag", "Torsdag", "Fredag", "Lördag", "Söndag"] as const;

export const opensField = (weekday: number) => `oppnar-${weekday}`;
export const closesField = (weekday: number) => `stanger-${weekday}`;
export const closedField = (weekday: number) => `stangt-${weekday}`;
/** A day's one message goes under the day's group. */
export const dayField = (weekday: number) => `dag-${weekday}`;
/** What the page was opened on: the report's version, or `-` for never reported. */
export const VERSION_FIELD = "version";
export const NEVER_REPORTED = "-";

export const OPENING_HOURS_MESSAGES = {
  missing: "Ange när butiken öppnar och stänger, eller kryssa i Stängt.",
  badTime: "Ange tiden som tt:mm, till exempel 06:30.",
  closesBeforeOpens: "Stänger måste vara efter Öppnar (00:00 betyder midnatt).",
  changedByOther:
    "Öppettiderna har sparats i en annan flik eller av någon annan sedan du öppnade sidan. Det som är sparat nu visas under formuläret; det du skrev finns kvar. Spara igen för att spara ditt.",
  saved: "Öppettiderna sparade.",
  confirmed: "Öppettiderna bekräftade.",
} as const;

/**
 * A time as typed ("6", "0630", "6.30", "06:30") as `HH:MM`, or null when it is not a
 * time of day. Type=time inputs send `HH:MM`; old phones fall back to text.
 */
export function normalizeTime(raw: string): string | null {
  const m = /^(\d{1,2})(?:[:.,]?(\d{2}))?$/.exec(raw.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (h > 23 || min > 59) return null;
  return `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}`;
}

/** "06:00–18:00", or "Stängt". */
export function formatHours(opens: string | null, closes: string | null): string {
  return opens && closes ? `${opens}–${closes}` : "Stängt";
}
