import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * What a newcomer reads first in README.md: the link to the getting-started
 * guide, and the prerequisites of `npm test`, which must name every program
 * CI installs for the test suite (.ci/run), with its Debian package.
 */

const repo = fileURLToPath(new URL("../..", import.meta.url));
const readme = readFileSync(join(repo, "README.md"), "utf8");

describe("README.md, first steps", () => {
  it("should link the getting-started guide first", () => {
    const firstLink = /\]\(([^)]+)\)/.exec(readme)?.[1];
    expect(firstLink).toBe("docs/getting-started.md");
  });

  it("should list, with its apt-get install, every package CI installs for the tests", () => {
    const installed = [...readFileSync(join(repo, ".ci/run"), "utf8").matchAll(/apt-get install (?:-\S+ )*(\S+)/g)].map((m) => m[1]!);
    expect(installed.length).toBeGreaterThanOrEqual(4);
    const prerequisites = readme.split("\n## ")[1]!;
    for (const name of installed) expect(prerequisites, `README's quick start: apt-get install ${name}`).toContain(`\`apt-get install ${name}\``);
  });
});
