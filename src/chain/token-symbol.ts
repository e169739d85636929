/**
 * A token's `symbol()` as the indexer stores it. Any contract can answer `symbol()` with any
 * string; records keep the symbol in `transfer_routes`, whose unique index on PostgreSQL holds
 * at most about 2,700 bytes per row, so one token with a kilobytes-long symbol would make every
 * batch that derives its transfers fail. Cut to the import's limit for names (64 characters,
 * src/transfers/validate.ts), whole code points, with control characters dropped.
 */
export const MAX_SYMBOL_LENGTH = 64;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

export function boundedSymbol(symbol: string): string {
  return Array.from(symbol.replace(CONTROL_CHARACTERS, "")).slice(0, MAX_SYMBOL_LENGTH).join("");
}
