/**
 * Across V3 on the devnet, behind the protocol seam (../protocol-devnet.ts): its SpokePool on
 * every chain, its relayer filling deposits, and deposits as traffic (devnet.ts).
 */
import { ACROSS_PROTOCOL } from "../../../protocols/across/index.js";
import type { ProtocolDevnet } from "../protocol-devnet.js";
import {
  type AcrossDevnet,
  acrossContracts,
  acrossManifest,
  deployAcross,
  startAcross,
} from "./devnet.js";

export const acrossDevnet: ProtocolDevnet<AcrossDevnet, AcrossDevnet> = {
  name: ACROSS_PROTOCOL,
  async deploy(context) {
    const erc20 = context.artifacts.get("MintableToken").abi;
    const spokePools = await Promise.all(
      context.chains.map(async (ready) => {
        const chain = await ready;
        const token = (symbol: string) => {
          const found = chain.tokens.find((t) => t.symbol === symbol);
          if (found === undefined) throw new Error(`${chain.name} has no ${symbol}`);
          return found.address;
        };
        const spokePool = await deployAcross(chain.client, chain.sender, {
          weth: token("WETH"),
          usdc: token("USDC"),
          erc20,
        });
        await chain.sender.flush();
        return { chainId: chain.ids.evm, spokePool };
      }),
    );
    return {
      top: { across: acrossManifest(), contracts: acrossContracts(spokePools) },
    };
  },
  startRelayer: async ({ manifest, logger }) =>
    startAcross({ manifest, depositsPerMinute: 0, logger }),
  // Deposits come at a third of the devnet's rate, from Across' own depositor account.
  trafficShare: 1 / 3,
  startTraffic: ({ manifest, perMinute, logger }) =>
    startAcross({ manifest, depositsPerMinute: perMinute, relay: false, logger }),
};
