// The page's script, started after the first frame (decision 026).

/**
 * Remix's page script (`<Scripts>`) is an async module that imports the page's route modules
 * and then the entry, which hydrates. With the code in the cache it ran in the middle of
 * parsing the page, and all of it before the first paint: on a slow phone each page came up
 * ~90 ms later with JavaScript than without (bench B12). Every page works before its script
 * has run (links and forms are the browser's own), so the script waits for the first frame:
 * the route modules are imported after it, then the entry as before (decision 026). A page
 * script of another shape (a new Remix) is left as it is.
 */
export function afterFirstFrame(html: string): string {
  const marker = ' type="module" async="">';
  const at = html.lastIndexOf(marker);
  const tag = at < 0 ? -1 : html.lastIndexOf("<script", at);
  if (tag < 0) return html;
  const attributes = html.slice(tag + "<script".length, at);
  const start = at + marker.length;
  const end = html.indexOf("</script>", start);
  if (end < 0 || attributes.includes(">")) return html;
  const body = html.slice(start, end);
  const imports = [...body.matchAll(/^import \* as (route\d+) from ("[^"\n]+");$/gm)];
  const rest = body.replace(/^import \* as route\d+ from "[^"\n]+";$/gm, "");
  if (imports.length === 0 || /^\s*import\s/m.test(rest.replace(/^;/, "")) || !/\bimport\("/.test(rest)) return html;
  const names = imports.map((i) => i[1]).join(",");
  const urls = imports.map((i) => `import(${i[2]})`).join(",");
  const script = `requestAnimationFrame(()=>setTimeout(()=>Promise.all([${urls}]).then(([${names}])=>{${rest}})));`;
  return `${html.slice(0, tag)}<script${attributes} type="module">${script}${html.slice(end)}`;
}
