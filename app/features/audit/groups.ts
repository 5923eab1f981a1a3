// The kinds of action in the audit log, with their Swedish names (client-safe: the screen shows them).
/** The kinds of action staff search for, with their Swedish names and the action prefixes. */
export const AUDIT_GROUPS = [
  { id: "personalinloggning", label: "Personalinloggning som kund", prefixes: ["impersonation."] },
  { id: "utbetalningar", label: "Garantibelopp och utbetalningar", prefixes: ["guarantee.", "payout."] },
  { id: "pinkoder", label: "Pinkoder", prefixes: ["customer.set-pin", "customer.pin-letter"] },
  { id: "kunder", label: "Kunder (tillägg, ändrade uppgifter, avstängning, bankuppgifter, inloggningar avslutade)", prefixes: ["customer.add", "customer.update", "customer.deactivate", "customer.activate", "customer.bankgiro", "customer.bankAccount", "customer.orgNumber", "customer.sessions"] },
  { id: "meddelanden", label: "Meddelanden", prefixes: ["message."] },
  { id: "aterkallelser", label: "Återkallelser", prefixes: ["recall."] },
  { id: "leveransandringar", label: "Leveransändringar", prefixes: ["supply."] },
  { id: "inlasningar", label: "Inläsningar och beställningsfiler", prefixes: ["import.", "orders."] },
  { id: "fakturering", label: "Fakturering och fakturaposter", prefixes: ["invoice.", "extra-invoice."] },
  { id: "inloggningar", label: "Inloggningar och tvåstegsverifiering", prefixes: ["login.", "logout", "totp."] },
  { id: "nekad", label: "Nekad åtkomst", prefixes: ["access.refused"] },
  { id: "personal", label: "Personalkonton", prefixes: ["staff."] },
  { id: "ovrigt", label: "Helgspärr, produkter, buntar och länkar", prefixes: ["holiday.", "product.", "daily-product.", "bundle.", "label-block.", "shortcut.", "reminder."] },
] as const;

export type AuditGroupId = (typeof AUDIT_GROUPS)[number]["id"];

/** The Swedish name of an action's group, for the table and the export. */
export function actionGroupLabel(action: string): string {
  return AUDIT_GROUPS.find((g) => g.prefixes.some((p) => action.startsWith(p)))?.label ?? "Övrigt";
}

/** Who acted, as Logg and its export say it: "anna@x.se (staff:1) för customer:1003". */
export function actorText(r: { actor: string; actorName: string | null; onBehalfOf: string | null }): string {
  const who = r.actorName ? `${r.actorName} (${r.actor})` : r.actor;
  return r.onBehalfOf ? `${who} för ${r.onBehalfOf}` : who;
}
