/**
 * What `start` prints once everything listens: where to look and two requests to paste. Pure
 * (manifest and URLs in, text out) so the wording is tested without starting anything.
 */
import type { DevnetManifest } from "../devnet/manifest.js";
import { shellQuote } from "./shell-quote.js";

export interface BannerInput {
  /** http://host:port of the API. */
  url: string;
  manifest: DevnetManifest;
  demoKey: string;
  /** Whether the demo key is the one of the last start (else it was made now). */
  demoKeyKept: boolean;
  /** The file that keeps it ($DEVNET_DIR/state/demo-key). */
  demoKeyFile: string;
  restored: boolean;
  freshReason: string | undefined;
  trafficPerMinute: number;
  /** Printed as a shell word (quoted when needed), so the line can be pasted. */
  databaseUrl: string;
  devnetDir: string;
}

/** A quote that the devnet can route: the first kind-0 link out of the first chain. */
export function demoQuoteBody(manifest: DevnetManifest): Record<string, string> | undefined {
  const first = manifest.chains[0];
  const link =
    manifest.links.find((l) => l.kind === 0 && l.sourceChainId === first?.chainId) ??
    manifest.links[0];
  const recipient = manifest.accounts[1] ?? manifest.accounts[0];
  if (link === undefined || recipient === undefined) return undefined;
  return {
    sourceChain: String(link.sourceChainId),
    sourceToken: link.sourceToken,
    destChain: String(link.destChainId),
    destToken: link.destToken,
    amount: "25",
    to: recipient.address,
  };
}

/** A devnet user whose transfers the list endpoint will show: each traffic run's first sender. */
export function demoAddress(manifest: DevnetManifest): string | undefined {
  return manifest.accounts[0]?.address;
}

export function formatBanner(input: BannerInput): string {
  const { url, manifest } = input;
  const address = demoAddress(manifest);
  const quote = demoQuoteBody(manifest);
  const chains = manifest.chains.map((c) => `${c.name} (${c.chainId}) ${c.rpcUrl}`).join(", ");
  const lines = [
    "",
    `bridge-oracle is running on a ${input.restored ? "resumed" : "fresh"} devnet` +
      (input.freshReason !== undefined ? ` (${input.freshReason})` : ""),
    `  explorer   ${url}/`,
    `  API        ${url}/api/oracle/bridge-transactions  and  POST ${url}/api/oracle/router`,
    `  API docs   ${url}/docs  (OpenAPI: ${url}/openapi.json, metrics: ${url}/metrics)`,
    `  chains     ${chains}`,
    `  traffic    ${input.trafficPerMinute} transfers per minute`,
    `  data       DATABASE_URL=${shellQuote(input.databaseUrl)}, devnet state in ${shellQuote(input.devnetDir)}`,
    "",
    `  demo API key (${input.demoKeyKept ? "the same as last time" : "new"}; kept in ${shellQuote(input.demoKeyFile)} for the next starts, --new-demo-key replaces it):`,
    `  ${input.demoKey}`,
    "",
    "try:",
  ];
  if (address !== undefined) {
    lines.push(
      `  curl -s "${url}/api/oracle/bridge-transactions?addressOrTxHash=${address}&pageNo=1&pageSize=10"`,
    );
  }
  if (quote !== undefined) {
    lines.push(
      `  curl -s -X POST ${url}/api/oracle/router -H "Authorization: ${input.demoKey}" \\`,
      `    -H "Content-Type: application/json" -d '${JSON.stringify(quote)}'`,
    );
  }
  lines.push("", "Ctrl-C stops everything; the next start resumes on the same data.", "");
  return lines.join("\n");
}
