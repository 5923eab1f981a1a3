// The login a form would post: a customer number to the retailers' box (/login), an
// e-mail address to staff's own page (docs/decisions/027-staff-login-page.md).
export function loginPost(name: string | number, secret: string): { path: string; form: Record<string, string> } {
  return String(name).includes("@")
    ? { path: "/personal/logga-in", form: { epost: String(name), losenord: secret } }
    : { path: "/login", form: { kundnummer: String(name), pinkod: secret } };
}
