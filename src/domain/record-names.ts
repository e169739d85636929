/**
 * The rule for a record's names (token symbols, chain names): at most 64 characters as
 * JavaScript counts them (UTF-16 code units), no control characters. `import` refuses a name
 * that breaks it (src/transfers/validate.ts); the indexer cuts a token's on-chain symbol to fit
 * (src/indexer/token-symbol.ts), so what it stores can be exported and imported again.
 */
export const MAX_NAME_LENGTH = 64;

export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
