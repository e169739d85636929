/** The ERC-20 views the indexer reads token metadata with (symbol, decimals). */
import { parseAbi } from "viem";

export const ERC20_METADATA_ABI = parseAbi([
  "function symbol() view returns (string)",
  "function decimals() view returns (uint8)",
]);
