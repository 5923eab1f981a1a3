// Settings read from the environment (README, Configuration).
export const config = {
  contactPhone: process.env.CONTACT_PHONE || "010-123 45 00",
  contactEmail: process.env.CONTACT_EMAIL || "kundservice@returportalen.example",
  publicSiteUrl: process.env.PUBLIC_SITE_URL || "https://www.returportalen.example/",
  webshopUrl: process.env.WEBSHOP_URL || "https://webbshop.returportalen.example/",
  clientVersion: "1.1.2",
};
