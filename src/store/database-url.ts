/** Which backend a DATABASE_URL selects, and its loggable form. */

export type DatabaseKind = "sqlite" | "postgres";

export function databaseKind(databaseUrl: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? "postgres" : "sqlite";
}

/** The URL with any password replaced by "***"; never log a database URL without this. */
export function redactDatabaseUrl(databaseUrl: string): string {
  if (databaseKind(databaseUrl) === "sqlite") return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password !== "") url.password = "***";
    for (const name of [...url.searchParams.keys()]) {
      if (/pass|secret|key|token/i.test(name)) url.searchParams.set(name, "***");
    }
    return url.toString();
  } catch {
    return "postgres://<unparseable url>";
  }
}
