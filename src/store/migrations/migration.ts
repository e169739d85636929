/**
 * One schema change, written once per backend. `version` is unique and increasing; once a
 * migration has shipped its SQL never changes (add a new migration instead).
 */
export interface Migration {
  version: number;
  name: string;
  /** SQLite statements, run with `exec` (several statements separated by `;`). */
  sqlite: string;
  /** PostgreSQL statements, run as one simple query (several statements separated by `;`). */
  postgres: string;
}
