/** The errors that stop a chain's loop for good instead of being retried. */
import { ReorgTooDeepError } from "./find-common-ancestor.js";

/**
 * Errors that stop a chain's loop for good (the loop has logged them and written them to the
 * chain's row); anything else is retried.
 */
export function isChainStop(error: unknown): error is ReorgTooDeepError | WrongChainError {
  return error instanceof ReorgTooDeepError || error instanceof WrongChainError;
}

/** The node behind a chain's rpcUrl reports another chain id: the chain stops loudly. */
export class WrongChainError extends Error {
  constructor(chainName: string, expected: number, actual: number) {
    super(
      `chain ${chainName}: its rpcUrl serves chain id ${actual}, not the configured ${expected}; this chain's indexer stops`,
    );
    this.name = "WrongChainError";
  }
}
