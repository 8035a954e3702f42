import type { ApiView } from "../kinds/kind-grants.js";
import { apiEntries } from "./api-entries.js";
import type { ScriptApi } from "./api-entries.js";
import { audienceText } from "./doc-comment.js";
import { renderMd } from "./render-md.js";
import { renderPy } from "./render-py.js";
import { renderTs } from "./render-ts.js";

/** The formats of `script.types`. */
export const TypesFormat = { ts: "ts", py: "py", md: "md", json: "json" } as const;
export type TypesFormat = (typeof TypesFormat)[keyof typeof TypesFormat];

/** Renders a view in a format: text for `ts`, `py` and `md`, the `script.api` object for `json`. */
export function renderTypes(view: ApiView, format: TypesFormat): { format: Exclude<TypesFormat, "json">; text: string } | ScriptApi {
  const api = apiEntries(view);
  const who = audienceText(view.audience);
  switch (format) {
    case "ts": return { format, text: renderTs(api, who) };
    case "py": return { format, text: renderPy(api, who) };
    case "md": return { format, text: renderMd(api, who) };
    case "json": return api;
  }
}
