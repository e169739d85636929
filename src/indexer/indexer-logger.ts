/**
 * Structured fields of a log line. A chain's lines carry `chain` (its name) and `chainId`, as
 * JSON fields in `index`'s log; the message still names the chain, for text logs (`start`'s)
 * that ignore the fields.
 */
export interface IndexerLogFields {
  chain: string;
  chainId: number;
  [field: string]: unknown;
}

export interface IndexerLogger {
  info(message: string, fields?: IndexerLogFields): void;
  warn(message: string, fields?: IndexerLogFields): void;
  error(message: string, fields?: IndexerLogFields): void;
}
