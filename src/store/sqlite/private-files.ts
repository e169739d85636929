/**
 * The SQLite database holds webhook signing secrets and receivers' credentials (and API key
 * hashes), so it is created readable by its owner only, whatever the umask: the data directory
 * 0700 when this creates it, the database file 0600 before SQLite opens it. SQLite creates the
 * `-wal` and `-shm` files with the database file's own mode (os_unix.c, findCreateFileMode and
 * unixOpenSharedMemory), so they are 0600 too. An existing directory or file keeps its mode (the
 * operator's choice); openSqliteDatabase warns when others can read it.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";

export const DATA_DIRECTORY_MODE = 0o700;
export const DATABASE_FILE_MODE = 0o600;

/** Creates the missing directories of `path` 0700 and the file itself 0600 (empty) when missing. */
export function createPrivateFile(path: string): void {
  const created = mkdirSync(dirname(path), { recursive: true, mode: DATA_DIRECTORY_MODE });
  // mkdir's mode is masked by the umask; a umask can only remove bits, but set it exactly anyway.
  if (created !== undefined) chmodSync(dirname(path), DATA_DIRECTORY_MODE);
  let fd: number;
  try {
    fd = openSync(path, "wx", DATABASE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  closeSync(fd);
}

/**
 * A sentence for the log when others can read the database file (one created before this rule,
 * or copied with a looser mode), else undefined. Its `-wal` and `-shm` files follow its mode.
 */
export function looseModeWarning(path: string): string | undefined {
  const file = statSync(path, { throwIfNoEntry: false });
  if (file === undefined || (file.mode & 0o077) === 0) return undefined;
  return `the SQLite database ${path} is mode ${(file.mode & 0o777).toString(8)}: other local accounts may read the webhook secrets in it; chmod 600 it and its -wal and -shm files (docs/operations.md, "Security")`;
}
