// The menus of the two layouts. A screen is listed here once it is built.
import type { Role } from "~/features/staff/index.server";

export type MenuItem = { label: string; to: string; roles?: Role[]; children?: MenuItem[] };

export const retailerMenu: MenuItem[] = [
  { label: "Start", to: "/" },
  {
    label: "Returrapportering",
    to: "/rapportering/1",
    children: [
      { label: "Returrapportering", to: "/rapportering/1" },
      { label: "Ändra/tillägg", to: "/rapportering/2" },
      { label: "Historik", to: "/historik" },
      { label: "Buntinnehåll", to: "/buntsok" },
    ],
  },
  {
    label: "Mina tjänster",
    to: "/foljesedel",
    children: [
      { label: "Följesedel/Leveransreklamation", to: "/foljesedel" },
      // Beyond the spec's menu: the claims made there and their decisions (decision 031).
      { label: "Mina reklamationer", to: "/reklamationer" },
      { label: "Återkallelser", to: "/aterkallelser" },
      { label: "Beställ returetiketter", to: "/order" },
      { label: "Skriv ut nödetiketter", to: "/nodetiketter" },
      { label: "Mina returetiketter/block", to: "/buntblock" },
      { label: "Tidningsjournal", to: "/journal" },
      { label: "Helgspärr", to: "/helgsparr" },
      { label: "Fakturor", to: "/faktura" },
      { label: "In- & utpriser", to: "/provision" },
      { label: "Löpsedlar", to: "/lopsedlar" },
      // Beyond the spec's menu: the retailer's own sell-through.
      { label: "Försäljning", to: "/forsaljning" },
      // Fewer or more copies, from the sell-through, decided by staff (decision 037).
      { label: "Leveransändring", to: "/leverans" },
      // E-mail reminders before the last return day.
      { label: "Påminnelser", to: "/paminnelser" },
      { label: "Aktuella produkter", to: "/produkter" },
    ],
  },
  { label: "Webbshop", to: "/webbshop" },
  { label: "Kontakt", to: "/kontakt" },
];

export const staffMenu: MenuItem[] = [
  { label: "Start", to: "/start" },
  { label: "Admin", to: "/admin", roles: ["admin"] },
  {
    label: "Kundtjänst",
    to: "/admin",
    roles: ["admin"],
    children: [
      { label: "Meddelanden", to: "/admin/messages", roles: ["admin"] },
      { label: "Dagens produkter", to: "/admin/dailyproducts", roles: ["admin"] },
      { label: "Buntar", to: "/admin/bundles", roles: ["admin"] },
      { label: "Helgspärr", to: "/admin/holidays", roles: ["admin"] },
      { label: "Produkt Information", to: "/admin/products", roles: ["admin"] },
      // The return windows and the late-returns rule, beside the product information.
      { label: "Sista returdag", to: "/admin/returdagar", roles: ["admin"] },
      { label: "Fakturering", to: "/admin/invoice", roles: ["admin"] },
      // A period from delivery to invoice, copy by copy (decision 033).
      { label: "Avstämning", to: "/admin/avstamning", roles: ["admin"] },
      { label: "Garantibelopp", to: "/admin/guarantees", roles: ["admin"] },
    ],
  },
  { label: "Distribution", to: "/admin/distribution", roles: ["admin", "sales", "utb"] },
  { label: "Kunder", to: "/admin/kunder", roles: ["admin", "sales", "utb"] },
  // "Where is my credit?" — a bundle's returns and the invoices that credited them.
  { label: "Kreditering", to: "/admin/kreditering", roles: ["admin", "sales", "utb"] },
  { label: "Personal", to: "/admin/personal", roles: ["admin"] },
  { label: "Logg", to: "/admin/logg", roles: ["admin"] },
  { label: "Leveransreklamation per utb", to: "/admin/leveransreklamation", roles: ["admin", "sales", "utb"] },
  // Requests for fewer or more copies, proposals and the file for planning (decision 037).
  { label: "Leveransändringar", to: "/admin/leveransandringar", roles: ["admin", "sales", "utb"] },
  // Withdrawn editions and who has taken them off the shelf (decision 036).
  { label: "Återkallelser", to: "/admin/aterkallelser", roles: ["admin", "sales", "utb"] },
  { label: "Byt lösenord", to: "/admin/losenord", roles: ["admin", "sales", "utb"] },
];

export function menuFor(items: MenuItem[], roles: readonly Role[]): MenuItem[] {
  return items
    .filter((i) => !i.roles || i.roles.some((r) => roles.includes(r)))
    .map((i) => (i.children ? { ...i, children: menuFor(i.children, roles) } : i))
    .filter((i) => !i.children || i.children.length > 0);
}
