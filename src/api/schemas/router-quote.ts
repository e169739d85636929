/**
 * Route schema of `POST /api/oracle/router` (interface.md 2.4 / 4.2). The body part documents
 * the fields for OpenAPI; the rules themselves run in the router core (validateRouterRequest,
 * which names the field and the rule in a 40001 message), so the route turns Ajv off for the
 * body. The 200 schema fixes the quote's shape for the serialiser: `signData.params` is a STRING
 * (the JSON encoding of the fourteen fields), never a nested object.
 */
import { errorEnvelopeRef, standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

const address = (description: string, example: string) =>
  ({ type: "string", pattern: "^0x[0-9a-fA-F]{40}$", description, examples: [example] }) as const;

export const routerQuoteBodySchema = {
  title: "RouterQuoteRequest",
  type: "object",
  required: ["sourceChain", "sourceToken", "destChain", "destToken", "amount", "to"],
  properties: {
    sourceChain: {
      type: "string",
      pattern: "^[0-9]+$",
      description: "Source chain: EVM chain id as a numeric string",
      examples: ["71001"],
    },
    sourceToken: address(
      "Token on the source chain; 0x0000000000000000000000000000000000000000 is the native coin. Mixed case must be a valid EIP-55 checksum.",
      "0x0000000000000000000000000000000000000000",
    ),
    destChain: {
      type: "string",
      pattern: "^[0-9]+$",
      description: "Destination chain: EVM chain id as a numeric string, not the source chain",
      examples: ["71003"],
    },
    destToken: address(
      "Token on the destination chain",
      "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    ),
    amount: {
      type: "string",
      pattern: "^[0-9]+(\\.[0-9]+)?$",
      description:
        'Amount in the source token\'s human units ("1.5" = 1.5 tokens): greater than zero, at most as many fractional digits as the token has decimals, trailing zeros included',
      examples: ["1.5"],
    },
    to: address(
      "Recipient on the destination chain (an EVM address, not the zero address)",
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    ),
  },
} as const;

const decimal = (description: string) => ({ type: "string", description }) as const;

export const routeQuoteDataSchema = {
  title: "RouteQuote",
  type: "object",
  required: ["destMaxAmount", "destMinAmount", "fee", "signData"],
  additionalProperties: false,
  properties: {
    destMaxAmount: decimal(
      "What the recipient receives if executed now with no price movement (destination token, human units)",
    ),
    destMinAmount: decimal(
      "Guaranteed minimum after the slippage tolerance (destination token); equals params.destMinAmount",
    ),
    fee: decimal("Bridge fee + messaging fee, in the source bridge token's units; = params.fee"),
    signData: {
      type: "object",
      required: ["amount", "bridgeType", "bridge", "chainName", "params"],
      additionalProperties: false,
      properties: {
        amount: decimal("The request amount in canonical form (source token)"),
        bridgeType: {
          type: "integer",
          enum: [0, 1, 2],
          description: "0 lock-and-mint, 1 liquidity pool, 2 messaging",
        },
        bridge: {
          type: "string",
          description: "The chosen kind's bridge contract on the source chain",
        },
        chainName: { type: "string", description: "The source chain's name" },
        params: {
          type: "string",
          description:
            "JSON-encoded object (a string, not a nested object) with destChainId, sourceToken, destToken, amount, fee, to, sourceSwap, sourceSwapFee, sourceBridgeToken, sourceMinAmount, destSwap, destSwapFee, destBridgeToken, destMinAmount; amounts as decimal strings in human units, destChainId in the chosen kind's chain-id scheme",
        },
      },
    },
  },
} as const;

export const routerQuoteRouteSchema = {
  summary: "Get a cross-chain route quote",
  description:
    "Prices every route between the two chains from current chain state and returns the best one with the bridge call to execute. Needs `Authorization: <API key>` (or `Bearer <key>`). Errors: 40001 bad field, 40002 body not a JSON object, 40101/40102 missing/unknown key, 413 body over 16 KiB, 415 not application/json, 42201 no route, 42202 amount outside the route's limits, 42901 rate limited, 50301 chain state unavailable or stale.",
  tags: ["router"],
  body: routerQuoteBodySchema,
  response: {
    200: successEnvelopeSchema("RouterQuoteResponse", routeQuoteDataSchema),
    422: errorEnvelopeRef,
    ...standardErrorResponses,
  },
} as const;
