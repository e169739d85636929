/**
 * A value as one shell word, for lines meant to be pasted (`DATABASE_URL=...`, `rm -rf ...`):
 * unchanged when it holds only characters no POSIX shell treats specially, otherwise in single
 * quotes (a single quote inside becomes '\'').
 */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
