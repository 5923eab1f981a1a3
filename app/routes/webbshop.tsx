import { redirect } from "@remix-run/node";
import { config } from "~/config.server";

export const loader = () => redirect(config.webshopUrl);
