// Logg in Swedish words: each audit row as one sentence a staff member reads, with the
// target by number and name and amounts in kronor. Client-safe; the screen and the Excel
// export say the same. An action without words of its own is named by its group.
import { CUSTOMER_DETAIL_LABELS } from "~/features/customers/detail-labels";
import { formatKr } from "~/lib/money";
import { titleName } from "~/catalog";
import { actionGroupLabel } from "./groups";

export type AuditEvent = {
  action: string;
  target: string | null;
  /** The target's name where it has one: a customer's, a staff user's e-mail, a holiday's, a distributor's. */
  targetName: string | null;
  detail: string | null;
};

type Detail = Record<string, unknown>;

function parse(detail: string | null): Detail {
  if (!detail) return {};
  try {
    const value: unknown = JSON.parse(detail);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Detail) : {};
  } catch {
    return {};
  }
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

const ROLE_WORDS: Record<string, string> = { admin: "administratör", sales: "sälj", utb: "distributör (utb)" };
const FIELD_WORDS: Record<string, string> = { bankgiro: "Bankgiro", bankAccount: "Bankkonto", orgNumber: "Organisationsnummer" };
const IMPORT_WORDS: Record<string, string> = {
  distributors: "distributörer",
  customers: "kunder",
  deliveries: "leveranser",
  editions: "utgåvor",
  products: "produkter",
  guarantees: "garantibelopp",
  prices: "priser",
  orders: "beställningar",
};

/** "1039 Pressbyrån Umeå" for customer:1039; an e-mail for staff:12; a name; else the raw target. */
// What a target's key stands for, where the row has no name to show: "Fakturarad 12".
const TARGET_WORDS: Record<string, string> = {
  "extra-invoice-line": "Fakturarad",
  "extra-invoice-file": "Fakturafil",
  "order-line": "Beställningsrad",
  "order-file": "Beställningsfil",
  message: "Meddelande",
  holiday: "Helgdag",
  shortcut: "Länk",
  product: "Produktinformation",
  "daily-product": "Dagens produkt",
  image: "Omslagsbild",
  edition: "Utgåva",
  "opening-hours-request": "Begäran om öppettider",
  distributor: "Distributör",
  "return-windows": "Sista returdag per tidningstyp",
};

export function targetText(e: AuditEvent): string {
  const target = e.target ?? "";
  const [kind, id] = target.split(":", 2);
  if (kind === "customer" && id) return e.targetName ? `${id} ${e.targetName}` : `kund ${id}`;
  if (e.targetName) return e.targetName;
  if (kind === "staff" && id) return /^\d+$/.test(id) ? `personal nr ${id}` : id;
  const word = TARGET_WORDS[kind];
  if (word) return id ? `${word} ${id}` : word;
  return target;
}

function roles(v: unknown): string {
  const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : [];
  return list.map((r) => ROLE_WORDS[String(r)] ?? String(r)).join(", ");
}

function sessionsNote(d: Detail, key = "sessionsEnded"): string {
  const n = num(d[key]);
  return n ? `; ${n === 1 ? "1 inloggning avslutad" : `${n} inloggningar avslutade`}` : "";
}

/** One audit row in Swedish words. */
export function eventText(e: AuditEvent): string {
  const d = parse(e.detail);
  const t = targetText(e);
  const a = e.action;
  const field = /^customer\.(\w+)\.update$/.exec(a)?.[1];
  if (field) return `${FIELD_WORDS[field] ?? field} ändrat för ${t}: ${str(d.from) ?? "(tomt)"} → ${str(d.to) ?? "(tomt)"}`;
  const imported = /^import\.(\w+)$/.exec(a)?.[1];
  if (imported) return `Inläsning av ${IMPORT_WORDS[imported] ?? imported}`;
  switch (a) {
    case "customer.add":
      return `Ny kund: ${t}`;
    case "customer.set-pin":
      return `Ny pinkod för ${t}${sessionsNote(d)}`;
    case "customer.pin-letter":
      return `Pinkodsbrev utskrivet för ${t}`;
    case "customer.pin-letter.refused":
      return `Pinkodsbrev nekat för ${t}`;
    case "customer.sessions.end":
      return `Inloggningar avslutade för ${t}${sessionsNote(d, "ended")}`;
    case "customer.deactivate":
      return `Kund avstängd: ${t}${sessionsNote(d)}`;
    case "customer.activate":
      return `Kund aktiv igen: ${t}`;
    case "customer.update": {
      const changes = Object.entries(d).map(([k, v]) => {
        const c = (v && typeof v === "object" ? v : {}) as Detail;
        const shown = (x: unknown) => str(x) ?? (num(x) !== null ? String(x) : "(tomt)");
        return `${(CUSTOMER_DETAIL_LABELS as Record<string, string>)[k] ?? k} ${shown(c.from)} → ${shown(c.to)}`;
      });
      return `Uppgifter ändrade för ${t}${changes.length ? `: ${changes.join("; ")}` : ""}`;
    }
    case "bundle.renumber":
      return `Buntnummer ändrat för ${t}: ${num(d.from) ?? "?"} → ${num(d.to) ?? "?"}`;
    case "label-block.delete": {
      // The deleted block is kept in the row: its numbers and paper type.
      const range = num(d.fromNumber) !== null && num(d.toNumber) !== null ? ` ${d.fromNumber}–${d.toNumber}` : "";
      const type = num(d.type) === 1 ? " (bilagor)" : num(d.type) === 0 ? " (huvudtidningar)" : "";
      return `Etikettblock${range}${type} borttaget för ${t}`;
    }
    case "guarantee.refund": {
      const amount = num(d.amountOre);
      return `Garantibelopp tillagt för utbetalning: ${t}${amount !== null ? `, ${formatKr(amount)}` : ""}${str(d.refundDate) ? `, betalas ${d.refundDate}` : ""}`;
    }
    case "guarantee.refund-date":
      return `Utbetalningsdag ändrad för ${t}: ${str(d.refundDate) ?? "?"}`;
    case "guarantee.refund-undo": {
      const amount = num(d.amountOre);
      return `Utbetalning ångrad för ${t}${amount !== null ? `, ${formatKr(amount)}` : ""}`;
    }
    case "guarantee.complete": {
      const customers = Array.isArray(d.customers) ? d.customers.length : null;
      return `Garantibelopp klarmarkerade: ${num(d.guarantees) ?? "?"} belopp${customers !== null ? `, ${customers} kunder` : ""}`;
    }
    case "payout.file":
      return `Utbetalningsfil ${t}${d.again ? " hämtad igen" : " skapad"}`;
    case "impersonation.start":
      return `Öppnade kundens portal: ${t}`;
    case "impersonation.end":
      return `Lämnade kundens portal: ${t}`;
    case "impersonation.request":
      return `I kundens portal: ${str(d.path) ?? t}`;
    case "impersonation.download":
      return `Hämtade fil i kundens portal: ${str(d.path) ?? t}`;
    case "message.add":
      return `Nytt meddelande${str(d.header) ? `: ”${d.header}”` : ""}${num(d.customers) ? ` till ${d.customers === 1 ? "1 kund" : `${d.customers} kunder`}` : ""}`;
    case "message.update":
      return `Meddelande ändrat${str(d.header) ? `: ”${d.header}”` : ""}`;
    case "message.delete":
      return `Meddelande borttaget${str(d.header) ? `: ”${d.header}”` : ""}`;
    case "orders.import":
      return `Beställningsfil inläst: ${str(d.filename) ?? t}${num(d.rows) !== null ? `, ${d.rows} rader` : ""}`;
    case "orders.delete-file":
      return `Beställningsfil borttagen${num(d.lines) !== null ? ` med ${d.lines} rader` : ""}`;
    case "orders.delete-line": {
      const amount = num(d.amount);
      const price = num(d.priceOre);
      const what = [
        num(d.customerId) !== null ? `kund ${d.customerId}` : null,
        str(d.articleDescription) ? `${d.articleDescription}${str(d.articleNumber) ? ` (${d.articleNumber})` : ""}` : null,
        amount !== null ? `${amount} st${price !== null ? ` à ${formatKr(price)}` : ""}` : null,
      ].filter(Boolean);
      return `Beställningsrad borttagen${what.length ? `: ${what.join(", ")}` : ""}`;
    }
    case "orders.transfer":
      return `${num(d.lines) ?? "?"} beställningsrader överförda till fakturering`;
    case "invoice.run":
      return `Fakturering ${t.replace("..", " – ")}: ${num(d.created) ?? 0} fakturor${num(d.firstNumber) !== null ? ` (nr ${d.firstNumber}–${d.lastNumber})` : ""}`;
    case "extra-invoice.draft-add":
    case "extra-invoice.draft-update": {
      const net = num(d.nettoPriceOre);
      const qty = num(d.deliveredAmount);
      const amount = net !== null && qty !== null ? `: ${formatKr(net * (qty - (num(d.reclaimAmount) ?? 0)))}` : "";
      const what = str(d.articleName) ? ` (${d.articleName}${num(d.customerId) !== null ? `, kund ${d.customerId}` : ""})` : "";
      return `${a.endsWith("add") ? "Fakturarad tillagd" : "Fakturarad ändrad"}${amount}${what}`;
    }
    case "extra-invoice.draft-delete":
    case "extra-invoice.delete":
      return `Fakturarad borttagen${str(d.articleName) ? `: ${d.articleName}${num(d.customerId) !== null ? `, kund ${d.customerId}` : ""}` : ""}`;
    case "extra-invoice.send":
      return `Fakturarader skickade till fakturering: ${num(d.lines) ?? "?"} st`;
    case "login.success":
      return "Inloggning";
    case "login.password":
      return "Rätt lösenord, väntar på kod från app";
    case "login.failure":
      return `Felaktig inloggning: ${t}`;
    case "login.locked":
      return `Inloggning spärrad: ${t}`;
    case "login.throttled":
      return `Inloggning stoppad efter för många försök: ${t}`;
    case "login.deactivated":
      return "Inloggning nekad: kontot är avstängt";
    case "logout":
      return "Utloggning";
    case "totp.enrol":
      return "Autentiseringsapp kopplad";
    case "totp.success":
      return "Kod från app godkänd";
    case "totp.failure":
      return "Fel kod från app";
    case "totp.recovery-code":
      return `Återställningskod använd (${num(d.left) ?? "?"} kvar)`;
    case "access.refused":
      return `Nekad åtkomst: ${t}`;
    case "staff.add":
      return `Ny personal: ${t} (${roles(d.roles)})`;
    case "staff.set-roles":
      return `Roller ändrade för ${t}: ${roles(d.roles)}${sessionsNote(d)}`;
    case "staff.set-password":
      return `Nytt engångslösenord för ${t}${sessionsNote(d)}`;
    case "staff.change-own-password":
      return `Bytte sitt lösenord${sessionsNote(d)}`;
    case "supply.request":
      return `Leveransändring skickad: ${t}, ${str(d.paper) ?? "tidning"} ${num(d.old) ?? "?"} → ${num(d.requested) ?? "?"} ex`;
    case "supply.withdraw":
      return `Leveransändring ${num(d.id) ?? "?"} återtagen: ${t}`;
    case "supply.decide":
      return `Leveransändring ${num(d.id) ?? "?"} beslutad (${str(d.status) === "approved" ? "godkänd" : str(d.status) === "adjusted" ? `justerad till ${num(d.copies) ?? "?"} ex` : "avslagen"}): ${t}`;
    case "supply.propose":
      return `Leveransändring föreslagen: ${t}, ${str(d.paper) ?? "tidning"} ${num(d.old) ?? "?"} → ${num(d.copies) ?? "?"} ex`;
    case "supply.accept":
      return `Förslag ${num(d.id) ?? "?"} om leveransändring accepterat: ${t}`;
    case "supply.decline":
      return `Förslag ${num(d.id) ?? "?"} om leveransändring avböjt: ${t}`;
    case "supply.in-force":
      return `Leveransändringar i kraft efter leveransfilen: ${Array.isArray(d.ids) ? d.ids.length : "?"} st`;
    case "supply.export":
      return `Leveransändringar till planeringen: ${num(d.rows) ?? "?"} ändringar`;
    case "recall.create":
      return `Återkallelse skapad: ${t}, ${num(d.customers) ?? "?"} kunder`;
    case "recall.acknowledge":
      return `Återkallelse bekräftad: ${t}, ${num(d.removed) ?? 0} ex borttagna`;
    case "recall.end":
      return `Återkallelse avslutad: ${t}`;
    case "staff.change-own-password.failure":
      return "Fel nuvarande lösenord vid lösenordsbyte";
    case "login.one-time-used":
      return "Inloggning nekad: engångslösenordet är redan använt";
    case "login.one-time-expired":
      return "Inloggning nekad: engångslösenordet har gått ut (72 timmar)";
    case "staff.deactivate":
      return `Personalkonto avstängt: ${t}${sessionsNote(d)}`;
    case "staff.activate":
      return `Personalkonto aktivt igen: ${t}`;
    case "staff.reset-2fa":
      return `Autentiseringsapp borttagen för ${t}${sessionsNote(d)}`;
    case "holiday.add":
      return `Helgdag tillagd: ${str(d.description) ?? t}`;
    case "holiday.update":
      return `Helgdag ändrad: ${str(d.description) ?? t}`;
    case "holiday.complete":
      return `Helgdag klarmarkerad: ${t}`;
    case "holiday.delete":
      return `Helgdag borttagen: ${t}`;
    case "product.add":
      return "Produktinformation tillagd";
    case "product.update":
      return "Produktinformation ändrad";
    case "product.delete": {
      const title = num(d.titleId) !== null ? (titleName(d.titleId as number) ?? `titel ${d.titleId}`) : null;
      const what = [
        title ? `${title}${num(d.editionId) !== null ? ` utgåva ${d.editionId}` : ""}` : null,
        str(d.deliveryDate),
        str(d.productCode) ? `produktkod ${d.productCode}` : null,
        str(d.accountCode) ? `konto ${d.accountCode}` : null,
        str(d.articleId) ? `artikel-id ${d.articleId}` : null,
      ].filter(Boolean);
      return `Produktinformation borttagen${what.length ? `: ${what.join(", ")}` : ""}`;
    }
    case "daily-product.describe":
      return "Dagens produkt: beskrivning sparad";
    case "daily-product.cover":
      return "Dagens produkt: omslag uppladdat";
    case "daily-product.add":
    case "daily-product.price": {
      const price = num(d.priceOre);
      const what = [str(d.description), str(d.date), price !== null ? formatKr(price) : null].filter(Boolean).join(", ");
      return `Dagens produkt ${a === "daily-product.add" ? "tillagd" : "uppdaterad"}${what ? `: ${what}` : ""}`;
    }
    case "shortcut.add":
      return `Länk tillagd: ${str(d.name) ?? ""}`.trim();
    case "shortcut.delete":
      return `Länk borttagen${str(d.name) ? `: ${d.name}` : ""}`;
    case "reminder.on":
      return `E-postpåminnelser på för ${t}`;
    case "reminder.off":
      return `E-postpåminnelser av för ${t}`;
    case "reminder.unsubscribe":
      return `E-postpåminnelser avslutade via länken i mejlet: ${t}`;
    case "return-windows.save":
      return `Sista returdag ändrad: huvudtidningar ${num(d.main) ?? "?"} dagar, bilagor ${num(d.inserts) ?? "?"} dagar`;
    case "edition.return-days":
      return `Sista returdag för en utgåva (${t.replace(/^edition:/, "")}): ${num(d.days) ?? "?"} dagar`;
    case "distributor.late-returns":
      return `Regeln för sena returer ändrad för ${t}`;
    case "opening-hours.request":
      return "Förfrågan om öppettider skickad till butikerna";
    case "opening-hours.close-request":
      return "Förfrågan om öppettider avslutad";
    default:
      return actionGroupLabel(a);
  }
}
