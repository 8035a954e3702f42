/*
 * A whole world in one portable file, to move it between storages (a data
 * folder, PostgreSQL, memory): JSON lines of every table's rows, read and
 * written through the storage port alone, so any adapter exports and any
 * adapter imports. The signing keys and the uploaded blobs' bytes are
 * tables like the others, so tokens and uploads move with the world.
 *
 *   {"format":"playfield-world","version":1}
 *   {"table":"users","row":{…}}            one line per row, table by table
 *   {"end":{"rows":1234}}                  a file cut short has no end line
 *
 * Rows are written as the PostgreSQL adapter stores them (its row codec):
 * JSON, with typed arrays (search segments, blob bytes) as tagged base64.
 */
import { createReadStream } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { cursorOf, PRIMARY_INDEX, tables, type Cursor, type Storage, type TableDef } from "@playfield/core";
import { decodeRow, encodeRow } from "@playfield/storage-postgres";

export const WORLD_FORMAT = "playfield-world";
export const WORLD_VERSION = 1;

/** How many rows a world held. */
export interface WorldCounts {
  rows: number;
  tables: number;
}

/** A world file that cannot be read, or a storage it cannot go into: the message says which line and why. */
export class WorldFileError extends Error {
  override readonly name = "WorldFileError";
}

/** Rows read per query while exporting. */
const PAGE = 500;
/** Bytes gathered before a write to the file. */
const CHUNK_BYTES = 1 << 20;

const byName = new Map<string, TableDef<unknown>>(tables.allTables.map((table) => [table.name, table as TableDef<unknown>]));

/**
 * Writes every row of every table of `storage` to `path`, as of one moment
 * (one read-only transaction). The file appears only once complete.
 */
export async function exportWorld(storage: Storage, path: string): Promise<WorldCounts> {
  await storage.init(tables.allTables);
  const partial = `${path}.partial`;
  const file = await open(partial, "w");
  try {
    const counts = await storage.transact(async (tx) => {
      // The storage may run this again on a conflict: each run writes the file from the start.
      await file.truncate(0);
      let position = 0;
      let pending = "";
      const flush = async () => {
        const bytes = Buffer.from(pending);
        pending = "";
        await file.write(bytes, 0, bytes.length, position);
        position += bytes.length;
      };
      const line = async (text: string) => {
        pending += `${text}\n`;
        if (pending.length >= CHUNK_BYTES) await flush();
      };
      await line(JSON.stringify({ format: WORLD_FORMAT, version: WORLD_VERSION }));
      let rows = 0;
      let filled = 0;
      for (const table of byName.values()) {
        let after: Cursor | undefined;
        let seen = 0;
        for (;;) {
          const page = await tx.query(table, PRIMARY_INDEX, { after, limit: PAGE });
          for (const row of page) await line(`{"table":${JSON.stringify(table.name)},"row":${encodeRow(row)}}`);
          seen += page.length;
          if (page.length < PAGE) break;
          after = cursorOf(table, PRIMARY_INDEX, page.at(-1)!);
        }
        rows += seen;
        if (seen > 0) filled += 1;
      }
      await line(JSON.stringify({ end: { rows } }));
      await flush();
      return { rows, tables: filled };
    }, { readOnly: true });
    await file.close();
    await rename(partial, path);
    return counts;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  }
}

/** A storage that writes many rows at once in one transaction, outside its port's transactions (the PostgreSQL adapter's `load`). */
interface BulkLoader {
  load(tables: readonly TableDef<never>[], fill: (put: <R>(table: TableDef<R>, rows: readonly R[]) => Promise<void>) => Promise<void>): Promise<void>;
}

const bulkLoaderOf = (storage: Storage): BulkLoader | null =>
  typeof (storage as Partial<BulkLoader>).load === "function" ? storage as Storage & BulkLoader : null;

/** Rows of one table handed to the load at once (multi-row inserts; the whole file is still one transaction). */
const LOAD_ROWS = 20_000;

/** A row line of a world file, checked: its table is known and the row has a primary key. */
interface WorldRow {
  table: TableDef<unknown>;
  row: object;
  id: string;
  /** "line N", for messages. */
  at: string;
}

/**
 * Loads a world file into `storage`, all or nothing. The storage must hold
 * no rows yet: a world goes into a new data folder, a new schema, or a
 * fresh memory storage, never over another world. A storage with a bulk
 * load (PostgreSQL, PGlite) takes the rows by multi-row inserts once the
 * whole file has been checked, all in one database transaction; any other
 * takes them in one transaction of puts. Either way a file refused, a load
 * that fails (a unique key held twice) or a process killed during the
 * import leaves the storage as empty as it was.
 */
export async function importWorld(storage: Storage, path: string): Promise<WorldCounts> {
  await storage.init(tables.allTables);
  const occupied = await storage.transact(async (tx) => {
    const counts = await Promise.all([...byName.values()].map(async (table) => ((await tx.count(table, PRIMARY_INDEX, { cap: 1 })) > 0 ? table.name : null)));
    return counts.filter((name): name is string => name !== null);
  }, { readOnly: true });
  if (occupied.length > 0) {
    throw new WorldFileError(`the storage already holds data (${occupied.slice(0, 5).join(", ")}${occupied.length > 5 ? ", …" : ""}): import into a new data folder or schema`);
  }
  const bulk = bulkLoaderOf(storage);
  if (!bulk) {
    return storage.transact((tx) => readWorld(path, async ({ table, row, id, at }) => {
      try {
        await tx.put(table, row);
      } catch (error) {
        throw new WorldFileError(`${at}: row ${JSON.stringify(id)} of ${table.name}: ${(error as Error).message}`);
      }
    }));
  }
  // The whole file is checked before anything is written, so a file refused costs no database work.
  await readWorld(path, async () => undefined);
  let counts: WorldCounts | undefined;
  await bulk.load(tables.allTables, async (put) => {
    counts = await loadWorld(put, path);
  });
  return counts!;
}

/** Hands a checked world file's rows to `put`, table by table, LOAD_ROWS at most at a time. */
async function loadWorld(put: (table: TableDef<unknown>, rows: readonly object[]) => Promise<void>, path: string): Promise<WorldCounts> {
  // A later row with the same primary key replaces an earlier one, as a put does.
  let pending = new Map<string, object>();
  let table: TableDef<unknown> | undefined;
  let from = "";
  let to = "";
  const flush = async () => {
    if (!table || pending.size === 0) return;
    try {
      await put(table, [...pending.values()]);
    } catch (error) {
      throw new WorldFileError(`rows of ${table.name} (${from} to ${to}): ${(error as Error).message}`);
    }
    pending = new Map();
  };
  const counts = await readWorld(path, async (line) => {
    if (line.table !== table || pending.size >= LOAD_ROWS) {
      await flush();
      table = line.table;
      from = line.at;
    }
    to = line.at;
    pending.set(line.id, line.row);
  });
  await flush();
  return counts;
}

/** Reads a world file, checking every line, and hands each row to `onRow` in file order; a WorldFileError names the line at fault. */
async function readWorld(path: string, onRow: (line: WorldRow) => Promise<void>): Promise<WorldCounts> {
  let rows = 0;
  let ended = false;
  const filled = new Set<string>();
  let lineNo = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const text of lines) {
    lineNo += 1;
    const at = `line ${lineNo}`;
    if (ended) throw new WorldFileError(`${at}: nothing may follow the end line`);
    let entry: Record<string, unknown>;
    try {
      entry = decodeRow<Record<string, unknown>>(text);
    } catch (error) {
      throw new WorldFileError(`${at}: not a JSON line (${(error as Error).message})`);
    }
    if (lineNo === 1) {
      if (entry?.format !== WORLD_FORMAT) throw new WorldFileError(`${at}: not a Playfield world file (the first line must be {"format":"${WORLD_FORMAT}",…})`);
      if (entry.version !== WORLD_VERSION) throw new WorldFileError(`${at}: world file version ${JSON.stringify(entry.version)}; this server reads version ${WORLD_VERSION}`);
      continue;
    }
    if (entry !== null && typeof entry === "object" && "end" in entry) {
      const expected = (entry.end as { rows?: unknown } | null)?.rows;
      if (expected !== rows) throw new WorldFileError(`${at}: the end line counts ${JSON.stringify(expected)} rows, the file holds ${rows}`);
      ended = true;
      continue;
    }
    const table = typeof entry?.table === "string" ? byName.get(entry.table) : undefined;
    if (!table) throw new WorldFileError(`${at}: unknown table ${JSON.stringify(entry?.table)}`);
    const row = entry.row;
    if (row === null || typeof row !== "object" || Array.isArray(row)) throw new WorldFileError(`${at}: row: must be an object`);
    let id: unknown;
    try {
      id = table.primaryKey(row);
    } catch {
      id = undefined;
    }
    if (typeof id !== "string") throw new WorldFileError(`${at}: row of ${table.name} has no primary key`);
    await onRow({ table, row, id, at });
    rows += 1;
    filled.add(table.name);
  }
  if (lineNo === 0) throw new WorldFileError("the file is empty");
  if (!ended) throw new WorldFileError(`the file ends at line ${lineNo} without its end line: it was cut short`);
  return { rows, tables: filled.size };
}
