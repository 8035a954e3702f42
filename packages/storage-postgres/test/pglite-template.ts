/*
 * A new PGlite database, dumped once per run, for test files that each want
 * a PGlite of their own: a new PGlite spends seconds creating its cluster
 * (~4x what loading a dump of one takes), so the global setup of the
 * "server-pglite" project pays that once and every file starts from the dump.
 * (It imports no workspace package: global setups load without the source condition.)
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A gzipped dump of a new PGlite database (the "server-pglite" project's global setup). */
    pgliteTemplate?: string;
  }
}

/** Global setup: makes the dump and hands its path to the test files; removes it after the run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), "playfield-pglite-template-"));
  const file = join(folder, "template.tar.gz");
  const pglite = new PGlite();
  // dumpDataDir does not wait for the database to start (queries do): without this it never settles.
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir("gzip");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide("pgliteTemplate", file);
  return () => rm(folder, { recursive: true, force: true });
}

/** A new in-memory PGlite holding what the dump at `file` holds (for `createPgliteStorage({ pglite })`). */
export async function pgliteFromTemplate(file: string): Promise<PGlite> {
  return new PGlite({ loadDataDir: new Blob([await readFile(file)]) });
}
