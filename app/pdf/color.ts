// pdf-lib's rgb() as plain data: a document names its colours without loading pdf-lib,
// which the server loads only for the first PDF it makes (a faster start).
import type { RGB } from "pdf-lib";

/** A colour of red, green and blue from 0 to 1, as pdf-lib's rgb() makes it. */
export function rgb(red: number, green: number, blue: number): RGB {
  return { type: "RGB", red, green, blue } as RGB;
}
