/**
 * LayerZero V2 with our OFT meshes on the devnet, behind the protocol seam
 * (../protocol-devnet.ts): the deployment (deploy.ts, its manifest section manifest.ts), the
 * executor that verifies and delivers packets (relayer.ts) and OFT sends as traffic (traffic.ts
 * picks one transfer; this file schedules them from the shared user accounts).
 */
import {
  LAYERZERO_OFT_PROTOCOL,
  layerZeroRegistryBridges,
} from "../../../protocols/layerzero-oft/registry.js";
import { createDevnetClients, type DevnetChainClients } from "../../chain-clients.js";
import { errorMessage } from "../../logger.js";
import type { ManifestAccount } from "../../manifest.js";
import { STOP_GRACE_MS, settleWithin } from "../../settle.js";
import { createRandom } from "../../traffic-plan.js";
import type { DevnetTrafficContext, ProtocolDevnet, Stoppable } from "../protocol-devnet.js";
import { deployLayerZeroDevnet } from "./deploy.js";
import { createLayerZeroRelayer } from "./relayer.js";
import { sendRandomOftTransfer } from "./traffic.js";

export interface OftTraffic extends Stoppable {
  stats(): { sent: number; skipped: number; errors: number };
}

export const layerZeroDevnet: ProtocolDevnet<Stoppable, OftTraffic> = {
  name: LAYERZERO_OFT_PROTOCOL,
  async deploy(context) {
    const ready = await Promise.all(context.chains);
    const layerzero = await deployLayerZeroDevnet({
      chains: ready.map((chain) => ({
        chainId: chain.ids.evm,
        // The devnet names its chains by the same endpoint ids (40101 + position) everywhere.
        eid: chain.ids.endpoint,
        client: chain.client,
        sender: chain.sender,
        tokens: chain.tokens,
        swapAdapter: chain.dex.adapter,
      })),
      users: context.users,
      log: context.log,
    });
    return { top: { layerzero, contracts: layerZeroRegistryBridges(layerzero) } };
  },
  async startRelayer({ manifest, confirmations, logger }) {
    const { layerzero } = manifest;
    // A manifest written before LayerZero joined the devnet has nothing to relay.
    if (layerzero === undefined) return { stop: async () => {} };
    const relayer = createLayerZeroRelayer({
      layerzero,
      chains: manifest.chains,
      confirmations,
      logger,
    });
    relayer.start();
    return relayer;
  },
  // One in four of the devnet's transfers (the reference bridge sends the other three).
  trafficShare: 1 / 4,
  startTraffic: startOftTraffic,
};

/** Random OFT sends at `perMinute`, each from a free user account, jittered by +-50 %. */
function startOftTraffic(context: DevnetTrafficContext): OftTraffic {
  const { manifest, accounts, logger } = context;
  const random = createRandom(context.seed ?? Date.now());
  const intervalMs = Math.max(50, Math.round(60_000 / Math.max(context.perMinute, 0.001)));
  const stats = { sent: 0, skipped: 0, errors: 0 };
  const clients = new Map<string, DevnetChainClients>();
  const clientsFor = (account: ManifestAccount, chainId: number): DevnetChainClients => {
    const key = `${account.address}:${chainId}`;
    let found = clients.get(key);
    if (found === undefined) {
      const chain = manifest.chains.find((c) => c.chainId === chainId);
      if (chain === undefined) throw new Error(`unknown chain ${chainId}`);
      found = createDevnetClients(chain, account.privateKey);
      clients.set(key, found);
    }
    return found;
  };
  const inFlight = new Set<Promise<unknown>>();
  let running = true;
  let timer: NodeJS.Timeout | undefined;

  async function sendOne(): Promise<void> {
    const layerzero = manifest.layerzero;
    const free = accounts.free();
    if (layerzero === undefined || free.length === 0) return;
    const account = random.pick(free);
    accounts.take(account);
    try {
      const sent = await sendRandomOftTransfer({
        layerzero,
        account: account.address,
        clientsFor: (chainId) => clientsFor(account, chainId),
        random,
        recipients: manifest.accounts.map((a) => a.address),
      });
      if (sent === null) {
        stats.skipped++;
        return;
      }
      stats.sent++;
      logger.info(
        `sent OFT ${sent.guid.slice(0, 10)}… ${sent.symbol} ${sent.sourceChainId}->${sent.destChainId}`,
      );
    } catch (error) {
      stats.errors++;
      if (running)
        logger.warn(
          `OFT transfer from ${account.address.slice(0, 8)}… failed: ${errorMessage(error)}`,
        );
    } finally {
      accounts.release(account);
    }
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(
      () => {
        const work = sendOne().finally(() => inFlight.delete(work));
        inFlight.add(work);
        schedule();
      },
      Math.round(intervalMs * (0.5 + random.next())),
    );
  }
  schedule();
  return {
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      await settleWithin([...inFlight], STOP_GRACE_MS);
    },
    stats: () => ({ ...stats }),
  };
}
