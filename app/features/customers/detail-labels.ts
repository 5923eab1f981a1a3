// A customer's details as Ändra uppgifter and Logg name them (client-safe).
export const CUSTOMER_DETAIL_LABELS = {
  name: "Namn",
  distributorId: "Distributör",
  address: "Adress",
  coAddress: "c/o",
  zip: "Postnummer",
  city: "Ort",
  contact: "Kontaktperson",
  phone: "Telefon",
  email: "E-post",
  orgNumber: "Organisationsnummer",
  bankgiro: "Bankgiro",
  bankAccount: "Bankkonto",
} as const;
