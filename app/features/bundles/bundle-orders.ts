// Buntinnehåll's orders (`?sortera=`), the first the default; client-safe for the select.
export const BUNDLE_ORDERS = {
  "nummer-fallande": "Buntnummer, högst först",
  "nummer-stigande": "Buntnummer, lägst först",
  "stangd-fallande": "Senast stängd först",
} as const;
export type BundleOrder = keyof typeof BUNDLE_ORDERS;
