// The server half of CustomerNumberForm: words the answers the same way on every staff
// page that asks for a customer (the schema is CustomerNumberSchema, app/features/auth).
import { refuse } from "~/lib/refusal";

/** The refusal of a well-formed number no customer has (400, beside the field). */
export function unknownCustomer(text: string) {
  return refuse.invalid(`Kund ${text} finns inte.`, { field: "kundnummer" });
}
