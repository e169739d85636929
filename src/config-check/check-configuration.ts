/**
 * A configuration against its live chains (`bridge-oracle check-config`): each chain's RPC
 * answers with the configured chain id and its start block is not beyond the head; every
 * configured contract has code; then each protocol's own checks (LayerZero: endpoints, OFT
 * endpoint / token / kind / peers). A chain whose RPC fails or names another chain is reported
 * once, and its contracts are skipped rather than misjudged. Nothing here throws on a chain's
 * failure: every problem is a `fail` line.
 */
import type { ContractReader } from "../chain/contract-reader.js";
import type { IndexerChainConfig, IndexerConfig } from "../config/indexer-config.js";
import type { RegistryBridge } from "../domain/bridge-registry.js";
import type { ConfigCheck } from "../domain/config-check.js";
import type { Registry } from "../domain/registry.js";
import {
  compareLayerZeroState,
  contractKey,
  readLayerZeroState,
} from "../protocols/layerzero-oft/check-contracts.js";
import { contractsToCheck } from "./contracts-to-check.js";

export interface CheckConfigurationParameters {
  config: IndexerConfig;
  /** The same file read as a router registry, when it is one: its DEX contracts are checked. */
  registry?: Registry;
  readerOf(chain: IndexerChainConfig): ContractReader;
}

export async function checkConfiguration(
  parameters: CheckConfigurationParameters,
): Promise<ConfigCheck[]> {
  const { config, registry } = parameters;
  const name = (chainId: number) =>
    config.chains.find((c) => c.chainId === chainId)?.name ?? `chain ${chainId}`;
  const contracts = contractsToCheck(config.bridges, registry);
  const readers = new Map<number, ContractReader>();
  const withCode = new Set<string>();

  const perChain = await Promise.all(
    config.chains.map(async (chain): Promise<ConfigCheck[]> => {
      const reader = parameters.readerOf(chain);
      const { checks: out, readable } = await checkChain(chain, reader);
      const own = contracts.filter((c) => c.chainId === chain.chainId);
      if (!readable) {
        if (own.length > 0) {
          out.push({
            status: "skip",
            chainId: chain.chainId,
            check: "code",
            message: `${chain.name}: ${own.length} contracts not checked (the chain's RPC failed above)`,
          });
        }
        return out;
      }
      readers.set(chain.chainId, reader);
      const codes = await Promise.all(own.map((c) => reader.code(c.address)));
      own.forEach((c, i) => {
        const code = codes[i]!;
        const label = `${c.what} ${c.address} on ${chain.name}`;
        if (!code.ok) {
          out.push(fail(chain, "code", c.address, `${label}: ${code.error}`));
        } else if (code.value === "0x") {
          out.push(
            fail(
              chain,
              "code",
              c.address,
              `${label} has no code: a wrong address, or one on another chain; correct it in the configuration`,
            ),
          );
        } else {
          withCode.add(contractKey(chain.chainId, c.address));
          out.push({
            status: "ok",
            chainId: chain.chainId,
            check: "code",
            address: c.address,
            message: `${label} has code`,
          });
        }
      });
      return out;
    }),
  );

  const readable = (b: RegistryBridge) =>
    withCode.has(contractKey(b.chainId, b.address)) ? readers.get(b.chainId) : undefined;
  const layerZero = compareLayerZeroState(
    config.bridges,
    await readLayerZeroState(config.bridges, readable),
    name,
  );
  // A registry chain the indexer configuration does not list has no RPC here.
  const unlisted = (registry?.chains ?? []).filter(
    (r) => !config.chains.some((c) => c.chainId === r.chainId),
  );
  const outside: ConfigCheck[] = unlisted.map((r) => ({
    status: "skip",
    chainId: r.chainId,
    check: "registry",
    message: `${r.name} (${r.chainId}) of the registry is not in the indexer configuration: its contracts are not checked`,
  }));
  return [...perChain.flat(), ...outside, ...layerZero];
}

function fail(
  chain: IndexerChainConfig,
  check: string,
  address: string | undefined,
  message: string,
): ConfigCheck {
  return {
    status: "fail",
    chainId: chain.chainId,
    check,
    ...(address === undefined ? {} : { address }),
    message,
  };
}

/** The chain's RPC: it answers, with the configured chain id; the start block is not ahead. */
async function checkChain(
  chain: IndexerChainConfig,
  reader: ContractReader,
): Promise<{ checks: ConfigCheck[]; readable: boolean }> {
  const at = `${chain.name} (${chain.chainId}) at ${reader.safeUrl}`;
  const [id, head] = await Promise.all([reader.chainId(), reader.blockNumber()]);
  if (!id.ok) {
    const checks = [fail(chain, "rpc", undefined, `${at}: ${id.error}; check its rpcUrl`)];
    return { checks, readable: false };
  }
  if (id.value !== chain.chainId) {
    const message = `${at}: eth_chainId is ${id.value}, configured ${chain.chainId}: the rpcUrl is another chain's, or chainId is wrong`;
    return { checks: [fail(chain, "rpc", undefined, message)], readable: false };
  }
  const out: ConfigCheck[] = [
    {
      status: "ok",
      chainId: chain.chainId,
      check: "rpc",
      message: `${at}: eth_chainId is ${id.value}`,
    },
  ];
  if (!head.ok) {
    out.push(fail(chain, "head", undefined, `${at}: ${head.error}`));
    return { checks: out, readable: false };
  } else if (BigInt(chain.startBlock) > head.value) {
    out.push(
      fail(
        chain,
        "head",
        undefined,
        `${chain.name}: startBlock ${chain.startBlock} is beyond the head ${head.value}: the indexer would wait for it; give a block at or before the head (a block number of this chain, not another's)`,
      ),
    );
  } else {
    out.push({
      status: "ok",
      chainId: chain.chainId,
      check: "head",
      message: `${chain.name}: startBlock ${chain.startBlock} is at or before the head ${head.value}`,
    });
  }
  return { checks: out, readable: true };
}
