/**
 * The signals every long-running command (`start`, `serve`, `index`, `devnet`) stops on, the same
 * graceful way: Ctrl-C (SIGINT), a kill or a closed pipe (SIGTERM, cli/main.ts) and a closed
 * terminal (SIGHUP). The anvil launcher (devnet/anvil.ts) kills its nodes on the same list, so no
 * signal that ends the process leaves a node running.
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
