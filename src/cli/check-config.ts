/**
 * `bridge-oracle check-config [--config FILE] [--json] [--timeout MS]`: checks an indexer
 * configuration (the file `index` takes) against its live chains before indexing
 * (src/config-check/). One line per check, OK or what is wrong and what to change, then a
 * summary; exit 0 when every check passes, 1 otherwise. `--json` prints the same as one JSON
 * document. A file that does not parse is one line on stderr and exit 1, as for `index`.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createContractReader } from "../chain/contract-reader.js";
import { type IndexerConfig, loadIndexerConfig } from "../config/indexer-config.js";
import { checkConfiguration } from "../config-check/check-configuration.js";
import { formatChecks, summariseChecks } from "../config-check/format-checks.js";
import { devnetDir } from "../devnet/write-manifest.js";
import { loadRegistry, type Registry } from "../domain/registry.js";

const USAGE = `usage: bridge-oracle check-config [--config FILE] [--registry FILE] [--json] [--timeout MS]

Checks a configuration against its live RPCs: each chain answers with its configured chain id
and its startBlock is not beyond the head; every configured contract has code (bridges,
LayerZero endpoints and OFTs, Across SpokePools, and the DEX contracts and tokens when the file
is a router registry too); each LayerZero OFT's endpoint(), token(), approvalRequired() and
peers(eid) match the configuration. One line per check, then a summary.

  --config FILE     the indexer configuration (JSON), as for \`index\`; default
                    $DEVNET_DIR/manifest.json (DEVNET_DIR defaults to .devnet)
  --registry FILE   the router's registry (ROUTER_CONFIG) when it is another file: its DEX
                    contracts and tokens are checked on the chains of --config
  --json            print {"ok", "summary", "checks": [...]} instead of lines
  --timeout MS      per RPC request; default the file's indexer.rpcTimeoutMs (10000)

Exit code 0 when every check passes, 1 otherwise.
`;

export interface CheckConfigOutput {
  write(text: string): void;
}

export async function run(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: CheckConfigOutput = process.stdout,
): Promise<number> {
  let values: {
    config?: string;
    registry?: string;
    json?: boolean;
    timeout?: string;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        config: { type: "string" },
        registry: { type: "string" },
        json: { type: "boolean" },
        timeout: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    output.write(USAGE);
    return 0;
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!/^[0-9]+$/.test(values.timeout) || timeoutMs < 100 || timeoutMs > 600_000) {
      process.stderr.write(
        `--timeout must be milliseconds from 100 to 600000, got ${values.timeout}\n`,
      );
      return 1;
    }
  }
  const configPath = values.config ?? join(devnetDir(env), "manifest.json");
  let config: IndexerConfig;
  try {
    config = await loadIndexerConfig(configPath);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
  // The router's registry: --registry, else the same file when it is one (the devnet
  // manifest is). A --registry that does not load is refused like a bad --config.
  let registry: Registry | undefined;
  let registryProblem: string | undefined;
  try {
    registry = await loadRegistry(values.registry ?? configPath);
  } catch (error) {
    if (values.registry !== undefined) {
      process.stderr.write(`${(error as Error).message}\n`);
      return 1;
    }
    registryProblem = (error as Error).message;
  }
  const checks = await checkConfiguration({
    config,
    ...(registry === undefined ? {} : { registry }),
    readerOf: (chain) =>
      createContractReader({ rpcUrl: chain.rpcUrl, timeoutMs: timeoutMs ?? config.rpcTimeoutMs }),
  });
  if (registryProblem !== undefined) {
    checks.push({
      status: "skip",
      check: "registry",
      message: `DEX contracts and tokens not checked: the file is no router registry (${registryProblem.replace(`${configPath}: `, "")})`,
    });
  }
  const summary = summariseChecks(checks);
  if (values.json) {
    output.write(
      `${JSON.stringify({ config: configPath, ok: summary.fail === 0, summary, checks }, null, 2)}\n`,
    );
  } else {
    output.write(formatChecks(checks, configPath));
  }
  return summary.fail === 0 ? 0 : 1;
}
