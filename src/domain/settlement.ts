/**
 * A settled (`Success`) transfer's bridge contract, chains and times: what the store reads
 * (recentSettlements) and the router's duration estimates are made from.
 */
export interface Settlement {
  /** source_contract: the bridge contract on the source chain (EIP-55). */
  sourceContract: string;
  sourceChainName: string;
  destChainName: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  startTime: string;
  endTime: string;
}
