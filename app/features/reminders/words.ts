// E-mail reminders (decision 017): the settings form's names and every text
// the retailer reads, on the page and in the mail. Client-safe, no zod.

export const REMINDER_FIELDS = { enabled: "paminnelser", email: "epost" } as const;

export const REMINDER_TEXTS = {
  title: "Påminnelser via e-post",
  intro:
    "Få ett mejl när tidningar snart har sista returdag och returerna inte är rapporterade: på morgonen dagen före och på sista returdagen, högst ett mejl per dag.",
  enabledLabel: "Skicka påminnelser till min e-post",
  emailLabel: "E-postadress",
  save: "Spara",
  badEmail: "Ange en giltig e-postadress, t.ex. butik@example.se.",
  emailNeeded: "Ange e-postadressen som påminnelserna ska skickas till.",
  savedOn: (email: string) => `Sparat: påminnelser skickas till ${email}.`,
  savedOff: "Sparat: inga påminnelser via e-post.",
  statusOn: (email: string) => `Påminnelser skickas till ${email}.`,
  statusOff: "Inga påminnelser skickas.",
  lastSent: (day: string, email: string) => `Senaste påminnelsen skickades ${day} till ${email}.`,
  // The unsubscribe page (no login).
  unsubscribeTitle: "Avsluta påminnelser",
  unsubscribeAsk: (email: string, name: string, customerId: number) =>
    `Vill du sluta få påminnelser om sista returdag till ${email} för ${name} (kund ${customerId})?`,
  unsubscribeButton: "Avsluta påminnelser",
  unsubscribed: "Klart: du får inte längre påminnelser via e-post. Du kan slå på dem igen under Påminnelser när du är inloggad.",
  alreadyOff: "Påminnelserna är redan avslutade. Du kan slå på dem igen under Påminnelser när du är inloggad.",
  badLink: "Länken fungerar inte, eller är för gammal. Logga in och stäng av påminnelserna under Påminnelser.",
} as const;

/** How long an unsubscribe link in a mail works, in days. */
export const UNSUBSCRIBE_DAYS = 60;
