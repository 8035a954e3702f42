import { z } from "zod";
import type { ResolvedScriptConfig } from "../config/script-config.js";
import type { Principal } from "../policy/principal.js";
import type { FieldDeclaration, KindDeclaration, KindsDeclaration, MethodDeclaration, ValueTypeDeclaration } from "./kind-declaration.js";

/** What players' scripts may do with one field: see it, or see and set it. */
export const FieldAccess = z.enum(["read", "write"]);
export type FieldAccess = z.infer<typeof FieldAccess>;

/**
 * KindGrant is what the script configuration lets players' live scripts see
 * of one kind: fields by snake_case name with their access, methods by name,
 * and whether they may spawn it.
 *
 * @example
 * { "fields": { "position": "read", "color": "write" }, "methods": ["apply_impulse"], "spawn": true }
 */
export const KindGrant = z.strictObject({
  fields: z.record(z.string(), FieldAccess).default({}),
  methods: z.array(z.string()).default([]),
  spawn: z.boolean().default(false),
});
export type KindGrant = z.output<typeof KindGrant>;

/** One role's extra grants: `{ "kinds": { "<Kind>": KindGrant } }`. */
export const RoleGrant = z.strictObject({ kinds: z.record(z.string(), z.unknown()).default({}) });

/** A field as one kind of script sees it. */
export interface FieldView {
  decl: FieldDeclaration;
  read: boolean;
  write: boolean;
}

/** A kind as one kind of script sees it. */
export interface KindView {
  decl: KindDeclaration;
  spawnable: boolean;
  fields: FieldView[];
  methods: MethodDeclaration[];
}

/** Everything one kind of script sees: the value types and the visible kinds, in declaration order. */
export interface ApiView {
  /** Who sees it: `creator`, or a player with roles. */
  audience: "creator" | { roles: string[] };
  types: ValueTypeDeclaration[];
  kinds: KindView[];
}

const issueText = (error: z.ZodError) => error.issues.map((i) => `${i.path.length > 0 ? `${i.path.join(".")}: ` : ""}${i.message}`).join("; ");

/** Parses grants by kind, leaving out (with a problem each) the malformed ones. */
function parseGrants(input: unknown, at: string, problems: string[]): Map<string, KindGrant> {
  const grants = new Map<string, KindGrant>();
  if (input === undefined) return grants;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    problems.push(`${at}: expected an object of kinds`);
    return grants;
  }
  for (const [kind, raw] of Object.entries(input)) {
    const parsed = KindGrant.safeParse(raw);
    if (parsed.success) grants.set(kind, parsed.data);
    else problems.push(`${at}.${kind}: ${issueText(parsed.error)}; ignored`);
  }
  return grants;
}

/** Checks grants against the declarations; one problem per unknown or impossible grant. */
function checkGrants(decl: KindsDeclaration, grants: Map<string, KindGrant>, at: string, problems: string[]) {
  for (const [kind, grant] of grants) {
    const declared = decl.kinds.find((k) => k.kind === kind);
    if (!declared) {
      problems.push(`${at}.${kind}: unknown kind ${kind}`);
      continue;
    }
    for (const [name, access] of Object.entries(grant.fields)) {
      const field = declared.fields.find((f) => f.name === name);
      if (!field) problems.push(`${at}.${kind}.fields.${name}: unknown field ${kind}.${name}`);
      else if (access === "write" && !field.write) problems.push(`${at}.${kind}.fields.${name}: write granted on the read-only field ${kind}.${name}`);
      else if (access === "read" && !field.read) problems.push(`${at}.${kind}.fields.${name}: read granted on the write-only field ${kind}.${name}`);
    }
    for (const name of grant.methods) {
      if (!declared.methods.some((m) => m.name === name)) problems.push(`${at}.${kind}.methods: unknown method ${kind}.${name}`);
    }
    if (grant.spawn && !declared.spawnable) problems.push(`${at}.${kind}.spawn: ${kind} is not spawnable`);
  }
}

/** Reads the configuration's `kinds` and `roles` into grants, collecting problems. */
function readGrants(decl: KindsDeclaration, config: Pick<ResolvedScriptConfig, "kinds" | "roles">, problems: string[]) {
  const base = parseGrants(config.kinds, "kinds", problems);
  checkGrants(decl, base, "kinds", problems);
  const roles = new Map<string, Map<string, KindGrant>>();
  for (const [role, raw] of Object.entries(config.roles ?? {})) {
    const parsed = RoleGrant.safeParse(raw);
    if (!parsed.success) {
      problems.push(`roles.${role}: ${issueText(parsed.error)}; ignored`);
      continue;
    }
    const grants = parseGrants(parsed.data.kinds, `roles.${role}.kinds`, problems);
    checkGrants(decl, grants, `roles.${role}.kinds`, problems);
    roles.set(role, grants);
  }
  return { base, roles };
}

/**
 * The problems of the configuration's `kinds` and `roles` against the
 * declared kinds: malformed grants, unknown kinds, fields and methods, a
 * write granted on a read-only field, a spawn granted on a kind that is not
 * spawnable.
 */
export function validateGrants(decl: KindsDeclaration, config: Pick<ResolvedScriptConfig, "kinds" | "roles">): string[] {
  const problems: string[] = [];
  readGrants(decl, config, problems);
  return problems;
}

/** The game's own scripts' view: every kind as declared. */
export function creatorView(decl: KindsDeclaration): ApiView {
  return {
    audience: "creator",
    types: decl.types,
    kinds: decl.kinds.map((k) => ({
      decl: k,
      spawnable: k.spawnable,
      fields: k.fields.map((f) => ({ decl: f, read: f.read, write: f.write })),
      methods: k.methods,
    })),
  };
}

/**
 * A player's live script's view: the kinds the configuration grants to
 * every player plus those granted to any of the player's roles, narrowed to
 * what the declarations allow. Without grants, players see no kinds.
 */
export function playerView(decl: KindsDeclaration, config: Pick<ResolvedScriptConfig, "kinds" | "roles">, roles: readonly string[]): ApiView {
  const { base, roles: byRole } = readGrants(decl, config, []);
  const all = [base, ...roles.map((r) => byRole.get(r)).filter((g): g is Map<string, KindGrant> => g !== undefined)];
  const kinds: KindView[] = [];
  for (const k of decl.kinds) {
    const grants = all.map((g) => g.get(k.kind)).filter((g): g is KindGrant => g !== undefined);
    if (grants.length === 0) continue;
    const access = (name: string) => grants.reduce<FieldAccess | undefined>((best, g) => (g.fields[name] === "write" || best === "write" ? "write" : g.fields[name] ?? best), undefined);
    kinds.push({
      decl: k,
      spawnable: k.spawnable && grants.some((g) => g.spawn),
      fields: k.fields.flatMap((f) => {
        const a = access(f.name);
        const read = f.read && a !== undefined;
        const write = f.write && a === "write";
        return read || write ? [{ decl: f, read, write }] : [];
      }),
      methods: k.methods.filter((m) => grants.some((g) => g.methods.includes(m.name))),
    });
  }
  return { audience: { roles: [...roles] }, types: decl.types, kinds };
}

/** The view of a script run for `principal`. */
export function viewFor(decl: KindsDeclaration, config: Pick<ResolvedScriptConfig, "kinds" | "roles">, principal: Principal): ApiView {
  return principal === "creator" ? creatorView(decl) : playerView(decl, config, principal.roles);
}
