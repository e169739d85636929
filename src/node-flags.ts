/**
 * The V8 flags every bridge-oracle process runs with: bin/bridge-oracle.js sets them before any
 * of our code loads, and the processes we start ourselves (the benchmark scripts and servers)
 * get them on their command line.
 *
 * --no-allocation-site-pretenuring: with V8's allocation-site pretenuring on, about a quarter of
 * the API server processes started under load went into a state where every young-generation
 * collection took 6-8 ms instead of under 1 ms, and the quote route's p99 rose 3-5x; none did
 * with it off (bench/RESULTS.md, "router: where the added fields' cost goes").
 */
export const V8_FLAGS: readonly string[] = ["--no-allocation-site-pretenuring"];
