/**
 * A token's `symbol()` as the indexer stores it. Any contract can answer `symbol()` with any
 * string; records keep the symbol in `transfer_routes`, whose unique index on PostgreSQL holds
 * at most about 2,700 bytes per row, so one token with a kilobytes-long symbol would make every
 * batch that derives its transfers fail. Cut to the rule for names (src/domain/record-names.ts),
 * never inside a surrogate pair, with control characters dropped.
 */
import { CONTROL_CHARACTERS, MAX_NAME_LENGTH } from "../domain/record-names.js";

const ALL_CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTERS.source, "g");

export function boundedSymbol(symbol: string): string {
  const clean = symbol.replace(ALL_CONTROL_CHARACTERS, "");
  if (clean.length <= MAX_NAME_LENGTH) return clean;
  // A high surrogate as the last unit kept would be half a character.
  const last = clean.charCodeAt(MAX_NAME_LENGTH - 1);
  return clean.slice(0, last >= 0xd800 && last <= 0xdbff ? MAX_NAME_LENGTH - 1 : MAX_NAME_LENGTH);
}
