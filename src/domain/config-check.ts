/**
 * One finding of `bridge-oracle check-config`: a configuration compared with what its chains
 * say. The generic checks (src/config-check/) and each protocol's own (an OFT's endpoint and
 * peers, src/protocols/layerzero-oft/check-contracts.ts) produce the same shape.
 */
export type ConfigCheckStatus = "ok" | "fail" | "skip";

export interface ConfigCheck {
  /** ok: as configured; fail: wrong, `message` says what to do; skip: not checkable (why). */
  status: ConfigCheckStatus;
  /** The chain the check read (absent for a check of the file alone). */
  chainId?: number;
  /** What was checked: `rpc`, `head`, `code`, `endpoint`, `eid`, `token`, `kind`, `peer`, ... */
  check: string;
  /** The contract checked, when one was. */
  address?: string;
  /** One line: what was found and, for a failure, what to change. */
  message: string;
}
