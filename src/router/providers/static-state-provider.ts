/**
 * A state source over a fixed snapshot (tests, the router benchmark): no chain at all. With
 * `confirmIntervalMs` it behaves like the chain provider on idle chains: every interval it
 * publishes a NEW snapshot whose chains carry the current time as readAtMs (the given snapshot
 * is never mutated), so quotes see fresh state and the router's per-snapshot caches turn over as
 * they do in production.
 */
import type { ChainState, StateSnapshot } from "../state.js";
import type { StateSource } from "./chain-state-provider.js";

export interface StaticStateProvider extends StateSource {
  stop(): void;
}

export function createStaticStateProvider(options: {
  snapshot: StateSnapshot;
  confirmIntervalMs?: number;
}): StaticStateProvider {
  const restamp = (base: StateSnapshot): StateSnapshot => {
    const at = Date.now();
    const chains = new Map<number, ChainState>();
    for (const [id, state] of base.chains)
      chains.set(id, Object.freeze({ ...state, readAtMs: at }));
    return Object.freeze({ chains });
  };
  if (options.confirmIntervalMs === undefined) {
    return { current: () => options.snapshot, stop() {} };
  }
  let snapshot = restamp(options.snapshot);
  const timer = setInterval(() => {
    snapshot = restamp(options.snapshot);
  }, options.confirmIntervalMs);
  timer.unref();
  return { current: () => snapshot, stop: () => clearInterval(timer) };
}
