import type { ScriptApi } from "./api-entries.js";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** Renders a Markdown reference: one section per value type and visible kind, with tables of fields and methods. */
export function renderMd(api: ScriptApi, who: string): string {
  const out: string[] = ["# Script API", "", `The game's kinds as seen by ${who}. JavaScript names are camelCase, Python names snake_case.`, ""];
  if (api.kinds.length === 0) out.push("No kinds are visible.", "");
  for (const k of api.kinds) {
    out.push(`## ${k.kind}`, "", k.doc, "", `Spawnable: ${k.spawnable ? "yes" : "no"}.`, "");
    if (k.fields.length > 0) {
      out.push("| Field (py) | Field (js) | Type (ts) | Type (py) | Access | Range | Doc |", "|---|---|---|---|---|---|---|");
      for (const f of k.fields) {
        const access = f.read && f.write ? "read, write" : f.read ? "read" : "write";
        out.push(`| \`${f.name}\` | \`${f.js}\` | \`${f.type_ts}\` | \`${f.type_py}\` | ${access} | ${f.range ? `[${f.range[0]}, ${f.range[1]}]` : "-"} | ${cell(f.doc)} |`);
      }
      out.push("");
    }
    if (k.methods.length > 0) {
      out.push("| Method (py) | Method (js) | Arguments | Returns | Rate per s | Doc |", "|---|---|---|---|---|---|");
      for (const m of k.methods) {
        const args = m.args.map((a) => `\`${a.name}: ${a.type_py}\``).join(", ") || "-";
        out.push(`| \`${m.name}\` | \`${m.js}\` | ${args} | \`${m.returns_ts}\` / \`${m.returns_py}\` | ${m.rate_per_s === 0 ? "no limit" : m.rate_per_s} | ${cell(m.doc)} |`);
      }
      out.push("");
    }
  }
  if (api.types.length > 0) {
    out.push("## Value types", "");
    for (const t of api.types) out.push(`- \`${t.name}\` {${t.fields.map((f) => `${f.name}: ${f.type_ts}`).join(", ")}}: ${t.doc}`);
    out.push("");
  }
  return out.join("\n");
}
