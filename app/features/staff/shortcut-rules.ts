// The Links panel's rules, shared by the form (client) and the domain (server).
export const SHORTCUT_URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
