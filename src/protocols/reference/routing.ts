/**
 * The reference bridges through the router's seam (../routing.ts): a leg per registry link of a
 * kind that runs on both chains, priced as the contracts charge (docs/protocol.md step 4:
 * bridge-fee.ts), limited by the token's minAmount / maxAmount and the destination's liquidity,
 * executed by `bridge(params)` (transaction-request.ts), swaps on either side included.
 */
import type { Address } from "viem";
import { convertDecimals } from "../../amount.js";
import type { RegistryChain } from "../../domain/registry.js";
import type { BridgeLeg, LegTransaction, ProtocolRouting } from "../routing.js";
import { totalFee } from "./bridge-fee.js";
import type { ReferenceChainState, TokenConfig } from "./bridge-state.js";
import { REFERENCE_PROTOCOL } from "./decode-log.js";
import { readReferenceState, referenceStateRequirements } from "./state-reader.js";
import {
  approveCallHead,
  type BridgeCallTemplate,
  bridgeCallTemplate,
  encodeApproveCallWith,
  encodeBridgeCallWith,
  hexQuantity,
} from "./transaction-request.js";

/** A reference leg's terms in one snapshot. */
export interface ReferenceTerms {
  tokenConfig: TokenConfig;
  /** Kind 2: the messaging fee to the destination (source bridge token); 0n for kinds 0 and 1. */
  xprotoFee: bigint;
  /**
   * Kinds 0 and 1: what the destination bridge can pay out (destBridgeToken units; kind 0 off
   * the token's home chain: 2^256 - 1); kind 2: undefined.
   */
  destLiquidity: bigint | undefined;
}

interface ReferenceTemplate {
  bridgeCall: BridgeCallTemplate;
  approveHead: string;
}

function legs(
  registry: Parameters<ProtocolRouting["legs"]>[0],
  sourceChain: RegistryChain,
  destChain: RegistryChain,
): BridgeLeg[] {
  const out: BridgeLeg[] = [];
  for (const link of registry.linksBetween(sourceChain.chainId, destChain.chainId)) {
    const bridge = sourceChain.bridges[link.kind];
    const destBridgeChainId = destChain.bridgeChainIds[link.kind];
    if (bridge === undefined || destBridgeChainId === undefined) continue;
    out.push({
      protocol: REFERENCE_PROTOCOL,
      kind: link.kind,
      link,
      sourceChain,
      destChain,
      sourceBridgeToken: link.sourceToken,
      destBridgeToken: link.destToken,
      bridge,
      destBridgeChainId,
    });
  }
  return out;
}

export const referenceRouting: ProtocolRouting<ReferenceTerms> = {
  legs,
  swaps: true,
  messagingFeeToken: "bridgeToken",
  stateReader(registry, chain) {
    const requirements = referenceStateRequirements(registry, chain);
    return { read: (client, blockNumber) => readReferenceState(client, requirements, blockNumber) };
  },
  prepare(leg, sourceState, destState) {
    const source = sourceState as ReferenceChainState | undefined;
    const dest = destState as ReferenceChainState | undefined;
    const sourceId = leg.sourceChain.chainId;
    const destId = leg.destChain.chainId;
    const bridge = source?.[leg.kind];
    const tokenConfig = bridge?.tokenConfigs.get(leg.sourceBridgeToken.key);
    if (!tokenConfig) {
      const what = `kind ${leg.kind} tokenConfig of ${leg.sourceBridgeToken.symbol}`;
      return { ok: false, chainId: sourceId, missing: what };
    }
    let xprotoFee = 0n;
    if (leg.kind === 2) {
      const fee = bridge?.xprotoFees?.get(destId);
      if (fee === undefined)
        return { ok: false, chainId: sourceId, missing: `xprotoFee to ${destId}` };
      xprotoFee = fee;
    }
    let destLiquidity: bigint | undefined;
    if (leg.kind !== 2) {
      // Kind 1 pays from its pool, kind 0 unlocks on the token's home chain (and mints
      // elsewhere, where the bridge reports 2^256 - 1); kind 2 always mints.
      destLiquidity = dest?.[leg.kind]?.availableLiquidity?.get(leg.destBridgeToken.key);
      if (destLiquidity === undefined) {
        const what = `kind ${leg.kind} availableLiquidity of ${leg.destBridgeToken.symbol}`;
        return { ok: false, chainId: destId, missing: what };
      }
    }
    return { ok: true, terms: { tokenConfig, xprotoFee, destLiquidity } };
  },
  fee: (terms, bridgeAmount) => totalFee(bridgeAmount, terms.tokenConfig, terms.xprotoFee),
  messagingFee: (terms) => terms.xprotoFee,
  delivered(terms, leg, bridgeAmount) {
    const net = bridgeAmount - totalFee(bridgeAmount, terms.tokenConfig, terms.xprotoFee);
    return net > 0n
      ? convertDecimals(net, leg.sourceBridgeToken.decimals, leg.destBridgeToken.decimals)
      : 0n;
  },
  minAmount: (terms) => terms.tokenConfig.minAmount,
  maxAmount: (terms) =>
    terms.tokenConfig.maxAmount === 0n ? undefined : terms.tokenConfig.maxAmount,
  destLiquidity: (terms) => terms.destLiquidity,
  feeRule: (terms) => ({
    feeBps: terms.tokenConfig.feeBps,
    flatFee: terms.tokenConfig.flatFee,
    messagingFee: terms.xprotoFee,
  }),
  transactionTemplate(leg): ReferenceTemplate {
    return {
      bridgeCall: bridgeCallTemplate({
        destChainId: BigInt(leg.destBridgeChainId),
        sourceToken: leg.sourceToken.address,
        destToken: leg.destToken.address,
        sourceBridgeToken: leg.sourceBridgeToken.address,
        destBridgeToken: leg.destBridgeToken.address,
      }),
      approveHead: approveCallHead(leg.bridge),
    };
  },
  transaction(leg, _terms, template, q): LegTransaction {
    const fixed = template as ReferenceTemplate;
    const chainId = leg.sourceChain.chainId;
    const native = leg.sourceToken.native;
    return {
      transactionRequest: {
        chainId,
        to: leg.bridge,
        // LegQuote has every field of the call a quote sets (and the messaging fee, unused).
        data: encodeBridgeCallWith(fixed.bridgeCall, q),
        value: native ? hexQuantity(q.amount) : "0x0",
      },
      approval: native
        ? null
        : {
            token: leg.sourceToken.address as Address,
            spender: leg.bridge,
            transactionRequest: {
              chainId,
              to: leg.sourceToken.address,
              data: encodeApproveCallWith(fixed.approveHead, q.amount),
              value: "0x0",
            },
          },
    };
  },
};
