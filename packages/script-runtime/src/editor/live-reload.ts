import { watch } from "node:fs";
import type { FSWatcher } from "node:fs";

/**
 * FileWatch reports changed files of a folder (paths inside it, with `/`),
 * each once per burst of writes: a change is reported after `debounceMs`
 * without further writes to that file.
 */
export interface FileWatch {
  close(): void;
}

/** Watches a folder and its sub-folders. */
export function watchFolder(dir: string, debounceMs: number, onChange: (path: string) => void): FileWatch {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, filename) => {
    if (!filename) return;
    const path = String(filename).split("\\").join("/");
    const waiting = pending.get(path);
    if (waiting) clearTimeout(waiting);
    pending.set(path, setTimeout(() => {
      pending.delete(path);
      onChange(path);
    }, debounceMs));
  });
  watcher.on("error", () => undefined);
  return {
    close() {
      for (const t of pending.values()) clearTimeout(t);
      pending.clear();
      watcher.close();
    },
  };
}
