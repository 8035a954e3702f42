import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KindsDeclaration } from "../src/kinds/kind-declaration.js";
import { creatorView, playerView, validateGrants } from "../src/kinds/kind-grants.js";
import { createMethodRates } from "../src/kinds/method-rates.js";
import { REFERENCE_KINDS } from "../src/kinds/reference-world.js";

const decl = KindsDeclaration.parse(REFERENCE_KINDS);
const kindNames = [...decl.kinds.map((k) => k.kind), "Rocket"];
const fieldNames = [...new Set(decl.kinds.flatMap((k) => k.fields.map((f) => f.name))), "shine"];
const methodNames = [...new Set(decl.kinds.flatMap((k) => k.methods.map((m) => m.name))), "explode"];

const grant = fc.record({
  fields: fc.dictionary(fc.constantFrom(...fieldNames), fc.constantFrom("read", "write")),
  methods: fc.subarray(methodNames),
  spawn: fc.boolean(),
}, { requiredKeys: [] });
const grants = fc.dictionary(fc.constantFrom(...kindNames), grant);
const config = fc.record({ kinds: grants, roles: fc.dictionary(fc.constantFrom("builder", "mod"), fc.record({ kinds: grants })) });

describe("playerView", () => {
  it("should never show a player more than the game's own scripts see", () => {
    const creator = creatorView(decl);
    fc.assert(fc.property(config, fc.subarray(["builder", "mod", "other"]), (cfg, roles) => {
      const view = playerView(decl, cfg, roles);
      for (const kind of view.kinds) {
        const full = creator.kinds.find((k) => k.decl.kind === kind.decl.kind)!;
        if (kind.spawnable) expect(full.spawnable).toBe(true);
        for (const field of kind.fields) {
          const declared = full.fields.find((f) => f.decl.name === field.decl.name)!;
          if (field.write) expect(declared.write).toBe(true);
          if (field.read) expect(declared.read).toBe(true);
        }
        for (const method of kind.methods) expect(full.methods).toContain(method);
      }
    }));
  });

  it("should grow with roles: a player with more roles sees at least as much", () => {
    fc.assert(fc.property(config, (cfg) => {
      const base = playerView(decl, cfg, []);
      const more = playerView(decl, cfg, ["builder", "mod"]);
      for (const kind of base.kinds) {
        const wider = more.kinds.find((k) => k.decl.kind === kind.decl.kind)!;
        expect(wider).toBeDefined();
        for (const f of kind.fields) expect(wider.fields.find((w) => w.decl.name === f.decl.name)!.write || !f.write).toBe(true);
      }
    }));
  });

  it("should report every grant on an unknown kind", () => {
    fc.assert(fc.property(config, (cfg) => {
      const problems = validateGrants(decl, cfg);
      const unknown = Object.keys(cfg.kinds).filter((k) => k === "Rocket");
      expect(problems.filter((p) => p === "kinds.Rocket: unknown kind Rocket")).toHaveLength(unknown.length);
    }));
  });
});

describe("createMethodRates", () => {
  it("should never let more than rate calls through in any second", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 }), fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 200 }), (rate, gaps) => {
      const rates = createMethodRates();
      const allowed: number[] = [];
      let now = 0;
      for (const gap of gaps) {
        now += gap;
        if (rates.take("s|Part.m", rate, now)) allowed.push(now);
      }
      for (let i = rate; i < allowed.length; i++) expect(allowed[i]! - allowed[i - rate]!).toBeGreaterThanOrEqual(1000);
    }));
  });
});
