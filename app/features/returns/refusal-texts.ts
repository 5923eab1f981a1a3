// The returns rules' refusals (spec 5): said by the server only, so they stay out of the
// returns page's script (bench B7, the JavaScript budget). The page's own texts are texts.ts.

export const RETURN_REFUSALS = {
  unknownPaper: "Tidningen finns inte bland dina tidningar att rapportera.",
  closed: (n: number) => `Bunt ${n} är stängd. Använd ett annat buntnummer.`,
  notInBlocks: (n: number) => `Buntnummer ${n} finns inte bland dina returetiketter.`,
  /** A stored row someone else changed since this page was loaded. */
  changedByOther: (now: number, typed: number) =>
    `Raden har ändrats i en annan flik eller av någon annan: nu sparat ${now}, du skrev ${typed}. Kontrollera och spara igen.`,
  /** A paper someone else reported (another tab) since this page was loaded. */
  reportedByOther: (now: number, typed: number) =>
    `Tidningen har redan rapporterats i en annan flik eller av någon annan: nu sparat ${now}, du skrev ${typed}. Töm raden och spara igen, eller ändra under Ändra/tillägg.`,
  wrongType: (n: number, type: number) =>
    `Bunt ${n} är en bunt för ${type === 0 ? "huvudtidningar" : "bilagor"}. Använd ett annat buntnummer.`,
  /** The real limit of one more row: what was delivered less what the paper's other rows already hold. */
  tooManyOf: (delivered: number, already = 0) =>
    already > 0
      ? `Kan inte vara större än antal levererat. Högst ${Math.max(delivered - already, 0)} till – ${delivered} levererades och ${already} ${already === 1 ? "är redan returnerad" : "är redan returnerade"}.`
      : `Kan inte vara större än antal levererat. Högst ${delivered} – så många levererades.`,
} as const;
