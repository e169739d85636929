/**
 * Wallet errors in plain words. EIP-1193 providers reject with `{ code, message }` (4001 the
 * user rejected, 4100 not authorised, 4902 unknown chain, -32002 a request already pending);
 * nodes and wallets word "insufficient funds" and reverts in their messages. The bridging flow's
 * own refusals (an expired quote, the wrong chain, a balance too small) are WalletFlowErrors
 * whose message is already meant for the user. Pure, unit-tested.
 */

export class WalletFlowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WalletFlowError";
  }
}

function field(error: unknown, name: string): unknown {
  return typeof error === "object" && error !== null
    ? (error as Record<string, unknown>)[name]
    : undefined;
}

/** The provider's error code, looking through `cause` / `data` wrappers some wallets add. */
export function walletErrorCode(error: unknown): number | undefined {
  for (let e = error, depth = 0; e !== undefined && depth < 4; depth++) {
    const code = field(e, "code");
    if (typeof code === "number") return code;
    e = field(e, "cause") ?? field(e, "data");
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && depth < 4; depth++) {
    const message = field(e, "message");
    if (typeof message === "string") parts.push(message);
    e = field(e, "cause") ?? field(e, "data");
  }
  return parts.join(" ");
}

export function walletErrorMessage(error: unknown): string {
  if (error instanceof WalletFlowError) return error.message;
  const code = walletErrorCode(error);
  const message = messageOf(error);
  if (code === 4001) return "You rejected the request in your wallet. Nothing was sent.";
  if (code === 4100) return "Your wallet has not connected this page. Connect it and try again.";
  if (code === 4902) return "Your wallet does not know this chain. Add the network and try again.";
  if (code === -32002)
    return "Your wallet already has a request waiting. Open the wallet to answer it.";
  if (/insufficient funds/i.test(message)) {
    return "Your account does not have enough of the native coin to pay for this transaction (gas, plus the amount when bridging the native coin).";
  }
  const revert = /execution reverted:?\s*(.*)/i.exec(message);
  if (revert) {
    const reason = (revert[1] ?? "").trim();
    return `The transaction would fail on chain${reason === "" ? "" : `: ${reason}`}. Nothing was sent.`;
  }
  return message === "" ? "The wallet reported an error." : `The wallet reported: ${message}`;
}
