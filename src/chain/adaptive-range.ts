/**
 * The block span of the next `eth_getLogs`. Halves when the node refuses a span (too large, too
 * many results, timeout), grows back by a quarter per success, and after a refusal stays below
 * the refused size for a while so a node with a fixed limit is not probed on every call.
 */
export interface AdaptiveRange {
  readonly size: number;
  shrink(): void;
  grow(): void;
}

export interface AdaptiveRangeOptions {
  initial: number;
  min?: number;
  max: number;
  /** Successes before the span may again exceed a refused size. */
  memory?: number;
}

export function createAdaptiveRange(options: AdaptiveRangeOptions): AdaptiveRange {
  const min = Math.max(1, options.min ?? 1);
  const memory = options.memory ?? 20;
  let size = Math.min(Math.max(options.initial, min), options.max);
  let refusedCeiling = Number.POSITIVE_INFINITY;
  let successesSinceRefusal = 0;
  return {
    get size() {
      return size;
    },
    shrink() {
      refusedCeiling = size - 1;
      successesSinceRefusal = 0;
      size = Math.max(min, Math.floor(size / 2));
    },
    grow() {
      successesSinceRefusal++;
      if (successesSinceRefusal >= memory) refusedCeiling = Number.POSITIVE_INFINITY;
      const grown = Math.ceil(size * 1.25);
      size = Math.max(size, Math.min(options.max, grown, Math.max(min, refusedCeiling)));
    },
  };
}
