/**
 * Whether a SQLite database file is still the one a process opened. Deleting (or replacing) the
 * file under a running process goes unnoticed by SQLite: the process keeps reading and writing
 * its open, now nameless, file, and everything it writes from then on is gone at the next start.
 * `serve`'s /readyz and `index` compare the file at the path with the one they opened.
 */
import { statSync } from "node:fs";

export class DatabaseFileGoneError extends Error {
  readonly databaseFileGone = true;
  constructor(path: string, replaced: boolean) {
    super(
      `the SQLite database ${path} was ${replaced ? "replaced" : "deleted"} after this process opened it; what it writes now is lost at the next start: restart the process`,
    );
    this.name = "DatabaseFileGoneError";
  }
}

/** Remembers the file at `path` now; `check()` throws DatabaseFileGoneError once it is not. */
export function watchDatabaseFile(path: string): { check(): void } {
  const opened = statSync(path);
  return {
    check() {
      const now = statSync(path, { throwIfNoEntry: false });
      if (now === undefined || now.ino !== opened.ino || now.dev !== opened.dev) {
        throw new DatabaseFileGoneError(path, now !== undefined);
      }
    },
  };
}
