/**
 * Route schemas of the discovery endpoints (docs/router.md, "Discovery"): what the router can
 * quote, from the registry and the current state snapshot, no key needed. The querystring parts
 * document the parameters for OpenAPI; the rules run in routes/discovery.ts (which names the
 * parameter in a 400 40001), so the routes turn Ajv off for them.
 */
import { standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

const TOKEN_EXAMPLE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

const address = (description: string) =>
  ({
    type: "string",
    pattern: "^0x[0-9a-fA-F]{40}$",
    description,
    examples: [TOKEN_EXAMPLE],
  }) as const;

const chainIdQuery = (description: string) =>
  ({ type: "string", pattern: "^[0-9]+$", description, examples: ["71001"] }) as const;

const nullableAmount = (description: string) =>
  ({
    type: ["string", "null"],
    pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$",
    description: `${description}; canonical human-unit decimal string`,
    examples: ["1.5"],
  }) as const;

const bridgeChainIdsSchema = {
  type: "object",
  description:
    "This chain in each bridge kind's chain-id scheme (decimal strings), keyed by bridgeType: kind 0 the EVM chain id, kind 1 the pool bridge's chain id, kind 2 the messaging endpoint id. A kind the chain does not run is absent. `params.destChainId` of a quote is the destination's entry for the chosen kind.",
  additionalProperties: false,
  properties: {
    "0": { type: "string", pattern: "^[0-9]+$" },
    "1": { type: "string", pattern: "^[0-9]+$" },
    "2": { type: "string", pattern: "^[0-9]+$" },
  },
  examples: [{ "0": "71001", "1": "101", "2": "40101" }],
} as const;

export const discoveryChainSchema = {
  type: "object",
  required: [
    "chainId",
    "name",
    "displayName",
    "nativeCurrency",
    "rpcUrls",
    "blockExplorerUrls",
    "bridgeChainIds",
    "indexOnly",
    "indexer",
  ],
  additionalProperties: false,
  properties: {
    chainId: { type: "integer", description: "EVM chain id", examples: [71001] },
    name: { type: "string", description: "Chain name (signData.chainName, records' chain names)" },
    displayName: {
      type: "string",
      description:
        "The chain's name for people: the registry's `displayName`, else `name` with its first letter capitalised",
      examples: ["Alpha"],
    },
    nativeCurrency: {
      type: "object",
      description:
        "The native coin, in the form wallet_addEthereumChain takes; as a token its address is 0x0000000000000000000000000000000000000000",
      required: ["name", "symbol", "decimals"],
      additionalProperties: false,
      properties: {
        name: {
          type: "string",
          description: "The registry's `nativeName`; the symbol when it gives none",
          examples: ["Ether"],
        },
        symbol: { type: "string", examples: ["ETH"] },
        decimals: { type: "integer", examples: [18] },
      },
    },
    rpcUrls: {
      type: "array",
      description:
        "Public JSON-RPC URLs of this chain that the operator publishes (the registry's `publicRpcUrl`), for a wallet's wallet_addEthereumChain; empty when none is published. Never the URL the server itself reads the chain through.",
      items: { type: "string", pattern: "^https?://", examples: ["http://127.0.0.1:8545"] },
    },
    blockExplorerUrls: {
      type: "array",
      description:
        "The chain's block explorer (the registry's `blockExplorerUrl`, no trailing slash; empty when none is published), as wallet_addEthereumChain takes it. Links are `<url>/tx/<hash>`, `<url>/address/<address>` and `<url>/block/<number>` (Etherscan and Blockscout paths).",
      items: { type: "string", pattern: "^https?://", examples: ["https://explorer.example.org"] },
    },
    bridgeChainIds: bridgeChainIdsSchema,
    indexOnly: {
      type: "array",
      description:
        "Contracts of other protocols on this chain whose transfers are indexed (records, timeline) but never quoted: their fees are set off-chain (Across' relayer fee comes from its quote API), so no chain state prices a route (docs/protocols.md). Empty when there are none.",
      items: {
        type: "object",
        required: ["protocol", "bridgeType", "contract"],
        additionalProperties: false,
        properties: {
          protocol: {
            type: "string",
            description: "The records' `protocol`",
            examples: ["across"],
          },
          bridgeType: { type: "integer", enum: [0, 1, 2] },
          contract: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" },
        },
      },
    },
    indexer: {
      type: ["object", "null"],
      description:
        "The indexer's progress on this chain as this server last read it from the database; null when no indexer writes this chain into the server's database (or its status cannot be read)",
      required: ["indexedBlock", "lagBlocks"],
      additionalProperties: false,
      properties: {
        indexedBlock: {
          type: "integer",
          description: "Last block whose events are in the records",
        },
        lagBlocks: {
          type: "integer",
          description: "How many blocks the indexer is behind the chain's confirmed head",
        },
      },
    },
  },
} as const;

export const chainsRouteSchema = {
  summary: "Chains the router quotes between",
  operationId: "chains",
  description:
    "Every chain of the registry: EVM id, name, native coin, the public RPC URLs the operator publishes, its id in each bridge kind's scheme and the indexer's progress on it. No key needed.",
  tags: ["discovery"],
  response: {
    200: successEnvelopeSchema("ChainsResponse", {
      type: "object",
      required: ["chains"],
      additionalProperties: false,
      properties: { chains: { type: "array", items: discoveryChainSchema } },
    }),
    ...standardErrorResponses,
  },
} as const;

export const discoveryTokenSchema = {
  type: "object",
  required: ["chainId", "address", "symbol", "decimals", "isBridgeToken"],
  additionalProperties: false,
  properties: {
    chainId: { type: "integer", description: "EVM chain id", examples: [71001] },
    address: address(
      "Token address (EIP-55); 0x0000000000000000000000000000000000000000 is the native coin",
    ),
    symbol: { type: "string", examples: ["USDC"] },
    decimals: { type: "integer", examples: [6] },
    isBridgeToken: {
      type: "boolean",
      description:
        "Whether a bridge carries this token itself (a connection's sourceBridgeToken or destBridgeToken); other tokens travel through a swap",
    },
  },
} as const;

export const tokensQuerystringSchema = {
  title: "TokensQuery",
  type: "object",
  properties: {
    chainId: chainIdQuery(
      "EVM chain id of a registry chain, a numeric string; absent: the tokens of every chain",
    ),
  },
} as const;

export const tokensRouteSchema = {
  summary: "Tokens the router knows",
  operationId: "tokens",
  description:
    "The registry's tokens of one chain (or of all), native coin first. No key needed. Errors: 40001 when chainId is not a numeric string or not a chain of the registry.",
  tags: ["discovery"],
  querystring: tokensQuerystringSchema,
  response: {
    200: successEnvelopeSchema("TokensResponse", {
      type: "object",
      required: ["tokens"],
      additionalProperties: false,
      properties: { tokens: { type: "array", items: discoveryTokenSchema } },
    }),
    ...standardErrorResponses,
  },
} as const;

const bridgeTokenSchema = (description: string) =>
  ({
    type: "object",
    description,
    required: ["address", "symbol", "decimals"],
    additionalProperties: false,
    properties: {
      address: address("Token address (EIP-55)"),
      symbol: { type: "string", examples: ["USDC"] },
      decimals: { type: "integer", examples: [6] },
    },
  }) as const;

/** One bridge kind carrying one bridge token between the pair's chains. */
export const connectionBridgeSchema = {
  type: "object",
  required: [
    "bridgeType",
    "bridge",
    "destChainId",
    "sourceBridgeToken",
    "destBridgeToken",
    "sourceTokens",
    "destTokens",
    "minAmount",
    "maxAmount",
    "fee",
  ],
  additionalProperties: false,
  properties: {
    bridgeType: {
      type: "integer",
      enum: [0, 1, 2],
      description: "0 lock-and-mint, 1 liquidity pool, 2 messaging (signData.bridgeType)",
    },
    bridge: address("The kind's bridge contract on the source chain (signData.bridge)"),
    destChainId: {
      type: "string",
      pattern: "^[0-9]+$",
      description: "The destination chain in this kind's chain-id scheme (params.destChainId)",
      examples: ["102"],
    },
    sourceBridgeToken: bridgeTokenSchema("The token the bridge takes on the source chain"),
    destBridgeToken: bridgeTokenSchema("The token the bridge delivers on the destination chain"),
    sourceTokens: {
      type: "array",
      items: address("A source chain token"),
      description:
        "Every source token a quote can start from on this connection: the bridge token itself and every token with a swap path to it (the native coin swaps as WETH). Any of these to any of destTokens can be quoted.",
    },
    destTokens: {
      type: "array",
      items: address("A destination chain token"),
      description:
        "Every destination token a quote can end in on this connection: the bridge token itself and every token with a swap path from it",
    },
    minAmount: nullableAmount(
      "Smallest amount of sourceBridgeToken a quote from the bridge token itself accepts now (the bridge's minimum, and something must arrive after the fees); null while the chain state is unavailable or when no amount is accepted now",
    ),
    maxAmount: nullableAmount(
      "Largest amount of sourceBridgeToken a quote from the bridge token itself accepts now (the bridge's maximum, the destination liquidity of kinds 0 and 1); null when nothing but uint256 caps it, while the chain state is unavailable, or when no amount is accepted now",
    ),
    fee: {
      type: ["object", "null"],
      description:
        "The fee rule, in sourceBridgeToken: fee = flatFee + bridgeAmount × feeBps / 10000 (rounded down) + messagingFee; null while the chain state is unavailable",
      required: ["feeBps", "flatFee", "messagingFee"],
      additionalProperties: false,
      properties: {
        feeBps: { type: "integer", description: "Proportional fee, basis points", examples: [10] },
        flatFee: nullableAmount("Flat part of the fee"),
        messagingFee: nullableAmount(
          'Messaging protocol fee per transfer (kind 2; "0" otherwise), in messagingFeeToken when that is given (then not part of fee)',
        ),
      },
    },
    swaps: {
      type: "object",
      required: ["source", "dest"],
      additionalProperties: false,
      description:
        "Present when a swap before (source) or after (dest) the bridge is not offered (a LayerZero OFT where the chain has none of our swap periphery: a source swap needs its OftSwapSender, a destination swap its OftSwapComposer); sourceTokens, resp. destTokens, are then the bridge token alone. Absent when both are offered",
      properties: {
        source: {
          type: "boolean",
          description: "A DEX swap into sourceBridgeToken before the bridge is offered",
        },
        dest: {
          type: "boolean",
          description: "A DEX swap out of destBridgeToken after the bridge is offered",
        },
      },
    },
    messagingFeeToken: bridgeTokenSchema(
      "Present when the messaging fee is paid in another token than sourceBridgeToken (a LayerZero OFT: the source chain's native coin, address 0x0, sent as the transaction's value): fee.messagingFee is in it and not part of the quote's fee",
    ),
  },
} as const;

export const connectionSchema = {
  type: "object",
  required: ["sourceChain", "destChain", "sourceChainName", "destChainName", "bridges"],
  additionalProperties: false,
  properties: {
    sourceChain: { type: "integer", description: "Source EVM chain id", examples: [71001] },
    destChain: { type: "integer", description: "Destination EVM chain id", examples: [71002] },
    sourceChainName: { type: "string", examples: ["alpha"] },
    destChainName: { type: "string", examples: ["beta"] },
    bridges: {
      type: "array",
      items: connectionBridgeSchema,
      description: "Every bridge kind and bridge token connecting the pair, in registry order",
    },
  },
} as const;

export const connectionsQuerystringSchema = {
  title: "ConnectionsQuery",
  type: "object",
  properties: {
    sourceChain: chainIdQuery("Only connections from this EVM chain id (numeric string)"),
    destChain: chainIdQuery("Only connections to this EVM chain id (numeric string)"),
  },
} as const;

export const connectionsRouteSchema = {
  summary: "Chain pairs the router quotes, with their bridges, limits and fees",
  operationId: "connections",
  description:
    "Every ordered pair of registry chains that some bridge connects, optionally filtered by sourceChain and destChain. Every connection listed can be quoted and every quotable pair is listed. No key needed. Errors: 40001 when a parameter is not a numeric string or not a chain of the registry.",
  tags: ["discovery"],
  querystring: connectionsQuerystringSchema,
  response: {
    200: successEnvelopeSchema("ConnectionsResponse", {
      type: "object",
      required: ["connections"],
      additionalProperties: false,
      properties: { connections: { type: "array", items: connectionSchema } },
    }),
    ...standardErrorResponses,
  },
} as const;
