// zod with Swedish messages: every schema imports `z` from here, so no English message
// from zod can reach a user. A schema's own message (the spec's text) always wins; this
// map words the rest. Loaded by server and browser alike.
import { z } from "zod";

function plural(n: number | bigint, one: string, many: string) {
  return Number(n) === 1 ? one : many;
}

z.config({
  customError: (issue) => {
    switch (issue.code) {
      case "invalid_type":
        // conform sends an empty field as undefined.
        if (issue.input === undefined || issue.input === null || issue.input === "") return "Obligatoriskt fält.";
        if (issue.expected === "number" || issue.expected === "int" || issue.expected === "bigint") return "Ange ett tal.";
        if (issue.expected === "date") return "Ange ett datum (ÅÅÅÅ-MM-DD).";
        return "Ogiltigt värde.";
      case "too_small":
        if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "Obligatoriskt fält." : `Minst ${issue.minimum} tecken.`;
        if (issue.origin === "array" || issue.origin === "set") return `Välj minst ${issue.minimum}.`;
        if (issue.origin === "file") return "Filen är tom.";
        return issue.inclusive ? `Minst ${issue.minimum}.` : `Större än ${issue.minimum}.`;
      case "too_big":
        if (issue.origin === "string") return `Högst ${issue.maximum} ${plural(issue.maximum, "tecken", "tecken")}.`;
        if (issue.origin === "array" || issue.origin === "set") return `Högst ${issue.maximum}.`;
        if (issue.origin === "file") return "Filen är för stor.";
        return issue.inclusive ? `Högst ${issue.maximum}.` : `Mindre än ${issue.maximum}.`;
      case "invalid_format":
        if (issue.format === "email") return "Ange en giltig e-postadress.";
        if (issue.format === "url") return "Ange en giltig webbadress.";
        if (issue.format === "date" || issue.format === "iso_date") return "Ange ett datum (ÅÅÅÅ-MM-DD).";
        return "Ogiltigt format.";
      case "not_multiple_of":
        return "Ange ett heltal.";
      case "invalid_value":
        return "Välj ett av alternativen.";
      case "unrecognized_keys":
        return "Okänt fält.";
      default:
        return "Ogiltigt värde.";
    }
  },
});

export { z };
