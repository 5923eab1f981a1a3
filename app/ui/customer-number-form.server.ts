// The server half of CustomerNumberForm: reads and checks the number, and words the
// answers the same way on every staff page that asks for a customer.
import { data } from "@remix-run/node";

export type CustomerNumberError = { kundnummer: string; error: string };

/** The posted customer number, or the 400 answer to send back with the input kept. */
export async function readCustomerNumber(request: Request) {
  const text = String((await request.formData()).get("kundnummer") ?? "").trim();
  if (!/^\d{1,5}$/.test(text)) {
    return { refused: data<CustomerNumberError>({ kundnummer: text, error: "Ange ett kundnummer (1–5 siffror)." }, { status: 400 }) };
  }
  return { customerId: Number(text), text };
}

export function unknownCustomer(text: string) {
  return data<CustomerNumberError>({ kundnummer: text, error: `Kund ${text} finns inte.` }, { status: 400 });
}
