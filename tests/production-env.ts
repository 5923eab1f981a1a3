// The settings a production start requires besides SESSION_SECRET and PORTAL_URL (which each
// server sets for its own port): the seller every invoice names. Made up, with numbers that
// pass the checks and belong to nobody. For the test and bench servers started without --demo.
export const SELLER_ENV = {
  SELLER_NAME: "Tidningsretur Sverige AB",
  SELLER_ADDRESS: "Box 1234, 111 20 Stockholm",
  SELLER_ORG_NUMBER: "559012-3450",
  SELLER_VAT_NUMBER: "SE559012345001",
  SELLER_BANKGIRO: "5050-1055",
};
