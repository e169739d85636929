/**
 * Route schema of `POST /api/oracle/router` (docs/router.md, "Response"). The body part documents
 * the fields for OpenAPI; the rules themselves run in the router core (validateRouterRequest,
 * which names the field and the rule in a 40001 message), so the route turns Ajv off for the
 * body. The 200 schema fixes the quote's shape for the serialiser: `signData.params` is a STRING
 * (the JSON encoding of the fourteen fields), never a nested object.
 */
import { errorEnvelopeRef, standardErrorResponses, successEnvelopeSchema } from "./envelope.js";

const NATIVE_EXAMPLE = "0x0000000000000000000000000000000000000000";
const TOKEN_EXAMPLE = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const RECIPIENT_EXAMPLE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

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
      NATIVE_EXAMPLE,
    ),
    destChain: {
      type: "string",
      pattern: "^[0-9]+$",
      description: "Destination chain: EVM chain id as a numeric string, not the source chain",
      examples: ["71003"],
    },
    destToken: address("Token on the destination chain", TOKEN_EXAMPLE),
    amount: {
      type: "string",
      pattern: "^[0-9]+(\\.[0-9]+)?$",
      description:
        'Amount in the source token\'s human units ("1.5" = 1.5 tokens): greater than zero, at most as many fractional digits as the token has decimals, trailing zeros included',
      examples: ["1.5"],
    },
    to: address(
      "Recipient on the destination chain (an EVM address, not the zero address)",
      RECIPIENT_EXAMPLE,
    ),
  },
} as const;

/**
 * A canonical human-unit amount as formatAmount writes it (docs/http-api.md, API rule 1): no sign,
 * exponent, leading zeros or trailing fractional zeros, "0" for zero.
 */
const canonicalAmount = (description: string) =>
  ({
    type: "string",
    pattern: "^(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?$",
    description: `${description}; canonical human-unit decimal string`,
    examples: ["1.5"],
  }) as const;

/** The fourteen fields in the order docs/router.md lists them (also `required`'s order). */
const routeQuoteParamsProperties = {
  destChainId: {
    type: "string",
    pattern: "^(0|[1-9][0-9]*)$",
    description:
      "The destination in the chosen kind's chain-id scheme, a decimal string: kind 0 the EVM chain id, kind 1 the pool bridge's chain id, kind 2 the messaging endpoint id",
    examples: ["102"],
  },
  sourceToken: address("The request's sourceToken, exactly as sent", NATIVE_EXAMPLE),
  destToken: address("The request's destToken, exactly as sent", TOKEN_EXAMPLE),
  amount: canonicalAmount("= signData.amount: the request amount (source token)"),
  fee: canonicalAmount("= fee: bridge fee + messaging fee (source bridge token)"),
  to: address("The request's to, exactly as sent", RECIPIENT_EXAMPLE),
  sourceSwap: {
    type: "boolean",
    description: "Whether the source token is swapped into the bridge token first",
  },
  sourceSwapFee: canonicalAmount('DEX fee of the source swap, "0" without one (source token)'),
  sourceBridgeToken: address("The bridge token on the source chain (EIP-55)", TOKEN_EXAMPLE),
  sourceMinAmount: canonicalAmount(
    "Minimum output of the source swap; amount without a swap (source bridge token)",
  ),
  destSwap: {
    type: "boolean",
    description: "Whether the bridge token is swapped into the destination token on delivery",
  },
  destSwapFee: canonicalAmount(
    'DEX fee of the destination swap, "0" without one (destination bridge token)',
  ),
  destBridgeToken: address("The bridge token on the destination chain (EIP-55)", TOKEN_EXAMPLE),
  destMinAmount: canonicalAmount("= destMinAmount: the guaranteed minimum (destination token)"),
} as const;

/**
 * The object `signData.params` encodes (docs/router.md, "Response"; docs/http-api.md, API rule 4;
 * QuoteParams in router/quote-response.ts), a shared schema so it becomes the OpenAPI component
 * RouteQuoteParams. The document is OpenAPI 3.0.3, whose Schema Object has no `contentMediaType` /
 * `contentSchema` (JSON Schema 2019-09, OpenAPI 3.1): `params` points here with the extensions
 * `x-contentMediaType` / `x-contentSchema` instead. Nothing serialises with this schema;
 * fast-json-stringify sees `params` as the plain string it is.
 */
export const routeQuoteParamsSchema = {
  $id: "RouteQuoteParams",
  title: "RouteQuoteParams",
  description:
    "The object JSON-encoded in `signData.params` (the fourteen fields, in this order). Amounts are canonical human-unit decimal strings, each in its own token; convert them to base units with that token's decimals to call `bridge(params)`.",
  type: "object",
  required: Object.keys(routeQuoteParamsProperties),
  additionalProperties: false,
  properties: routeQuoteParamsProperties,
} as const;

export const routeQuoteParamsRef = { $ref: "RouteQuoteParams#" } as const;

/** A hex quantity or byte string as `eth_sendTransaction` takes it. */
const hex = (description: string, example: string) =>
  ({ type: "string", pattern: "^0x[0-9a-fA-F]*$", description, examples: [example] }) as const;

/** A ready transaction: send it unchanged (`eth_sendTransaction`, viem `sendTransaction`). */
const transactionRequestSchema = (description: string) =>
  ({
    type: "object",
    description,
    required: ["chainId", "to", "data", "value"],
    additionalProperties: false,
    properties: {
      chainId: {
        type: "integer",
        description: "EVM chain id of the chain to send it on",
        examples: [71001],
      },
      to: address("The contract called", "0x5FbDB2315678afecb367f032d93F642f64180aa3"),
      data: hex("ABI-encoded call data", "0x095ea7b3"),
      value: hex(
        "Native coin sent with the call, in wei, a hex quantity (the amount when the source token is the native coin; a LayerZero OFT send's messagingFee; else 0x0)",
        "0x0",
      ),
    },
  }) as const;

/**
 * What a quote adds beside the spec's fields (docs/http-api.md, API rule 8): the ready transactions, the state
 * it was priced from, until when it holds, and how long such a transfer took lately
 * (docs/router.md, "Executing a quote").
 */
export const routeQuoteExtensionProperties = {
  transactionRequest: transactionRequestSchema(
    "The `bridge(params)` call of `signData.bridge` on the source chain with every amount of `params` in base units (and `value` = amount for the native coin); for a LayerZero OFT route, `send(SendParam, MessagingFee, refundAddress)` of the OFT (signData.bridge) with `value` = `messagingFee`. Sent unchanged from any funded account (after `approval`, when there is one) it executes the quote.",
  ),
  approval: {
    type: ["object", "null"],
    description:
      "null when the source token is the native coin (nothing to approve); else the ERC-20 approval the bridge needs first. The service does not read allowances: skip it when the sender's allowance already covers `amount`.",
    required: ["token", "spender", "amount", "transactionRequest"],
    additionalProperties: false,
    properties: {
      token: address("The source token (EIP-55)", TOKEN_EXAMPLE),
      spender: address("The bridge contract (= signData.bridge)", TOKEN_EXAMPLE),
      amount: canonicalAmount("= signData.amount: the allowance needed (source token)"),
      transactionRequest: transactionRequestSchema(
        "The `approve(spender, amount)` call on `token`, amount in base units",
      ),
    },
  },
  stateBlocks: {
    type: "object",
    description:
      "The block number of each chain whose state priced the quote (source and destination), keyed by EVM chain id as a string",
    additionalProperties: { type: "integer", minimum: 0 },
    examples: [{ "71001": 1234, "71003": 987 }],
  },
  expiresAt: {
    type: "string",
    pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$",
    description:
      "UTC `YYYY-MM-DD HH:MM:SS`: until when the service stands by the quote: the read time of the older of the two chain states that priced it, plus QUOTE_TTL_SECONDS, rounded down to the second. Quote again after it. The on-chain protection is destMinAmount (and sourceMinAmount), not this time.",
    examples: ["2026-11-26 12:00:30"],
  },
  estimatedDuration: {
    type: ["object", "null"],
    description:
      "How long recent transfers of the same bridge contract between the same two chains took from send to delivery (end_time - start_time of `Success` records started in the last 24 h, among the latest 10,000 records stored); null with fewer than 5 such transfers. Refreshed in the background every 30 s.",
    required: ["p50Seconds", "p90Seconds", "samples"],
    additionalProperties: false,
    properties: {
      p50Seconds: { type: "integer", minimum: 0, description: "Median, seconds (nearest rank)" },
      p90Seconds: {
        type: "integer",
        minimum: 0,
        description: "90th percentile, seconds (nearest rank)",
      },
      samples: {
        type: "integer",
        minimum: 1,
        description: "How many transfers it is computed over",
      },
    },
  },
} as const;

export const ROUTE_QUOTE_EXTENSION_FIELDS = Object.keys(
  routeQuoteExtensionProperties,
) as (keyof typeof routeQuoteExtensionProperties)[];

export const routeQuoteDataSchema = {
  title: "RouteQuote",
  type: "object",
  required: ["destMaxAmount", "destMinAmount", "fee", "signData", ...ROUTE_QUOTE_EXTENSION_FIELDS],
  additionalProperties: false,
  properties: {
    destMaxAmount: canonicalAmount(
      "What the recipient receives if executed now with no price movement (destination token, human units)",
    ),
    destMinAmount: canonicalAmount(
      "Guaranteed minimum after the slippage tolerance (destination token); equals params.destMinAmount",
    ),
    fee: canonicalAmount(
      "Bridge fee + messaging fee, in the source bridge token's units; = params.fee. When `messagingFee` is present the messaging fee is not in it (a LayerZero OFT: fee = the dust below the shared decimals)",
    ),
    messagingFee: {
      type: "object",
      description:
        "Present only when the route's messaging fee is paid in another token than the source bridge token, so `fee` leaves it out (a LayerZero OFT: LayerZero's nativeFee in the source chain's native coin, sent as `transactionRequest.value`)",
      required: ["amount", "address", "symbol", "decimals"],
      additionalProperties: false,
      properties: {
        amount: canonicalAmount("The messaging fee, human units of its token"),
        address: address(
          "Its token (0x0: the native coin)",
          "0x0000000000000000000000000000000000000000",
        ),
        symbol: { type: "string", examples: ["ETH"] },
        decimals: { type: "integer", examples: [18] },
      },
    },
    signData: {
      type: "object",
      required: ["amount", "bridgeType", "bridge", "chainName", "params"],
      additionalProperties: false,
      properties: {
        amount: canonicalAmount("The request amount in canonical form (source token)"),
        bridgeType: {
          type: "integer",
          enum: [0, 1, 2],
          description: "0 lock-and-mint, 1 liquidity pool, 2 messaging",
        },
        bridge: address(
          "The chosen kind's bridge contract on the source chain (EIP-55 checksummed)",
          "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        ),
        chainName: { type: "string", description: "The source chain's name" },
        params: {
          type: "string",
          "x-contentMediaType": "application/json",
          "x-contentSchema": routeQuoteParamsRef,
          description:
            "JSON-encoded object (a string, not a nested object; `JSON.parse` it) with destChainId, sourceToken, destToken, amount, fee, to, sourceSwap, sourceSwapFee, sourceBridgeToken, sourceMinAmount, destSwap, destSwapFee, destBridgeToken, destMinAmount; amounts as canonical decimal strings in human units, destChainId in the chosen kind's chain-id scheme. The decoded object is the schema RouteQuoteParams (OpenAPI 3.0 has no contentSchema: `x-contentSchema` points to it).",
        },
      },
    },
    ...routeQuoteExtensionProperties,
  },
} as const;

/**
 * The spec's four fields only: the response of a router built without the added fields
 * (RouterDeps.extensions false), which the router benchmark compares against.
 */
export const routeQuoteSpecDataSchema = {
  ...routeQuoteDataSchema,
  required: ["destMaxAmount", "destMinAmount", "fee", "signData"],
  properties: Object.fromEntries(
    Object.entries(routeQuoteDataSchema.properties).filter(
      ([name]) => !(ROUTE_QUOTE_EXTENSION_FIELDS as string[]).includes(name),
    ),
  ),
} as const;

export const routerQuoteRouteSchema = {
  summary: "Get a cross-chain route quote",
  operationId: "getQuote",
  description:
    "Prices every route between the two chains from current chain state and returns the best one with the bridge call to execute. Needs `Authorization: <API key>` (or `Bearer <key>`). Errors: 40001 bad field, 40002 body not a JSON object or a member given twice, 40101/40102 missing/unknown key, 413 body over 16 KiB, 415 not application/json, 42201 no route, 42202 amount outside the route's limits, 42901 rate limited, 50301 chain state unavailable or stale.",
  tags: ["router"],
  body: routerQuoteBodySchema,
  response: {
    200: successEnvelopeSchema("RouterQuoteResponse", routeQuoteDataSchema),
    422: errorEnvelopeRef,
    ...standardErrorResponses,
  },
} as const;

/** routerQuoteRouteSchema answering routeQuoteSpecDataSchema. */
export const routerQuoteSpecOnlyRouteSchema = {
  ...routerQuoteRouteSchema,
  response: {
    ...routerQuoteRouteSchema.response,
    200: successEnvelopeSchema("RouterQuoteResponse", routeQuoteSpecDataSchema),
  },
} as const;
