// A bundle label's barcode (docs/architecture.md "Label blocks"): CODE128, the customer number
// padded to 5 digits followed by the bundle number padded to 5.

export type LabelCode = { customerId: number; bundle: number };

/** The customer and bundle of a scanned label, or null when the text is not a label's. */
export function parseLabelCode(text: string): LabelCode | null {
  const m = /^(\d{5})(\d{5})$/.exec(text.trim());
  if (!m) return null;
  const customerId = Number(m[1]);
  const bundle = Number(m[2]);
  if (customerId < 1 || bundle < 1) return null;
  return { customerId, bundle };
}

export const SCAN_TEXTS = {
  button: "Skanna",
  title: "Skanna buntetikett",
  aim: "Håll buntetiketten framför kameran.",
  starting: "Startar kameran…",
  noCamera: "Kameran kunde inte startas. Skriv buntnumret i stället.",
  otherCustomer: (customerId: number) => `Etiketten hör till kundnummer ${customerId}, inte till er. Skanna en av era egna etiketter.`,
  notALabel: "Det där är ingen buntetikett. Skanna streckkoden på buntetiketten.",
  cancel: "Avbryt",
} as const;
