import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { genreKey, matchRank, tables, type ExperienceRow } from "@playfield/core";
import { createMemoryStorage } from "../src/ports/memory-storage/memory-storage.js";
import { compareByVisits, searchExperiences, syncTerms } from "../src/services/catalog/search.js";

/*
 * The indexed search answers exactly what a full scan ranked by `matchRank`
 * (then visits, newest, id) answers, for any titles, genres, visibilities,
 * visit counts (ties included) and queries, whether it reads matches by id
 * or picks them out of the visits index, and after title changes.
 */

const WORDS = ["castle", "cat", "dragon", "drag", "ninja", "obby", "tycoon", "ty", "Ünder"];
const GENRES = ["", "racing", "RPG", "horror"];

const experienceRow = (i: number, title: string, genre: string, visits: number, visibility: ExperienceRow["visibility"]): ExperienceRow => ({
  id: `exp_${String(i).padStart(3, "0")}`, creatorId: "usr_1", title, description: "", genre, thumbnailUrl: "", visibility,
  hostingTier: "edge", maxPlayers: 10, startPlaceId: `plc_${i}`, liveVersionId: null, createdAt: i % 5, updatedAt: 0,
  visits, favorites: 0, upVotes: 0, downVotes: 0,
});

const fullScan = (rows: ExperienceRow[], query: string, genre: string, limit: number) =>
  rows
    .filter((row) => row.visibility === "public" && (!genre || genreKey(row.genre) === genre))
    .map((row) => ({ row, rank: matchRank(query, row.title, row.genre) }))
    .filter((hit) => hit.rank > 0)
    .sort((a, b) => b.rank - a.rank || compareByVisits(a.row, b.row))
    .slice(0, limit)
    .map((hit) => hit.row.id);

const title = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
const experience = fc.record({
  title,
  genre: fc.constantFrom(...GENRES),
  visits: fc.integer({ min: 0, max: 2 }),
  visibility: fc.constantFrom<ExperienceRow["visibility"]>("public", "public", "public", "draft"),
  renamed: fc.option(title, { freq: 4 }),
});

describe("searchExperiences", () => {
  it("should break visit ties by newest, then id, when matches are many (read from the visits index)", async () => {
    const storage = createMemoryStorage();
    // 40 equal matches: createdAt 0..4 repeating, so the index's id order is not the answer's.
    const rows = Array.from({ length: 40 }, (_, i) => experienceRow(i, `castle ${i}`, "racing", 7, "public"));
    await storage.transact(async (tx) => {
      for (const row of rows) {
        await tx.put(tables.experiences, row);
        await syncTerms(tx, row);
      }
    });
    const found = await storage.transact((tx) => searchExperiences(tx, "rac", "", () => true, 3));
    expect(found.map((row) => row.id)).toEqual(["exp_004", "exp_009", "exp_014"]);
  });

  it("should answer what a full scan ranked by matchRank answers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(experience, { minLength: 1, maxLength: 100 }),
        fc.constantFrom("castle", "cat", "drag", "dragon ninja", "ty", "t", "c", "under", "obby castle", "Castle Cat", "zzz", "rac", "hor", "rpg", "rpg drag"),
        fc.constantFrom("", "racing", "rpg"),
        fc.integer({ min: 1, max: 4 }),
        async (specs, query, genre, limit) => {
          const storage = createMemoryStorage();
          let rows = specs.map((spec, i) => experienceRow(i, spec.title, spec.genre, spec.visits, spec.visibility));
          await storage.transact(async (tx) => {
            for (const row of rows) {
              await tx.put(tables.experiences, row);
              await syncTerms(tx, row);
            }
          });
          // Renames after the first write: the terms must follow.
          rows = rows.map((row, i) => (specs[i]!.renamed === null ? row : { ...row, title: specs[i]!.renamed! }));
          await storage.transact(async (tx) => {
            for (const row of rows) {
              await tx.put(tables.experiences, row);
              await syncTerms(tx, row);
            }
          });
          const keep = (row: ExperienceRow) => !genre || genreKey(row.genre) === genre;
          const found = await storage.transact((tx) => searchExperiences(tx, query, genre, keep, limit));
          expect(found.map((row) => row.id)).toEqual(fullScan(rows, query, genre, limit));
        },
      ),
      { numRuns: 500 },
    );
  });
});
