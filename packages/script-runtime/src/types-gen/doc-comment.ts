/** Lines of a doc text with its range and rate notes, for generated comments. */
export function docLines(doc: string, notes: readonly string[] = []): string[] {
  const lines = doc.trim() === "" ? [] : doc.trim().split("\n").map((l) => l.trim());
  return [...lines, ...notes];
}

/** A JSDoc block (`/** … *\/`) at an indent, or nothing when there is nothing to say. */
export function jsDoc(lines: readonly string[], indent = ""): string[] {
  const safe = lines.map((l) => l.replace(/\*\//g, "*\\/"));
  if (safe.length === 0) return [];
  if (safe.length === 1) return [`${indent}/** ${safe[0]} */`];
  return [`${indent}/**`, ...safe.map((l) => `${indent} * ${l}`), `${indent} */`];
}

/** A Python docstring line at an indent, or nothing. */
export function pyDoc(lines: readonly string[], indent: string): string[] {
  if (lines.length === 0) return [];
  const text = lines.join("\n" + indent).replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  return [`${indent}"""${text}"""`];
}

/** The header line of generated output, saying whose view it is. */
export function audienceText(audience: "creator" | { roles: string[] }): string {
  if (audience === "creator") return "the game's own scripts";
  return audience.roles.length === 0 ? "a player's live script" : `a player's live script with the roles ${audience.roles.join(", ")}`;
}
