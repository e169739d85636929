/**
 * A small seeded PRNG (sfc32, 128-bit state) and a bijective 32-bit mixer. Synthetic data must
 * be reproducible from a seed (benchmarks compare runs; tests assert properties of one seed), and
 * Math.random cannot be seeded.
 */

/** murmur3's finaliser: a bijection on 32-bit integers, so distinct inputs give distinct outputs. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface Prng {
  /** Uniform 32-bit unsigned integer. */
  u32(): number;
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; weights need not sum to 1. */
  weighted<T extends { weight: number }>(items: readonly T[]): T;
}

export function createPrng(seed: number): Prng {
  // Seed the four state words through the mixer so nearby seeds give unrelated streams.
  let a = mix32(seed ^ 0x9e3779b9);
  let b = mix32(a ^ 0x243f6a88);
  let c = mix32(b ^ 0xb7e15162);
  let d = mix32(c ^ 0x3c6ef372) | 1;
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Discard the first outputs: sfc32 needs a few rounds to mix a fresh state.
  for (let i = 0; i < 12; i++) u32();
  const float = (): number => u32() / 4294967296;
  return {
    u32,
    float,
    int: (n) => Math.floor(float() * n),
    chance: (p) => float() < p,
    pick: (items) => items[Math.floor(float() * items.length)] as (typeof items)[number],
    weighted: (items) => {
      let total = 0;
      for (const item of items) total += item.weight;
      let r = float() * total;
      for (const item of items) {
        r -= item.weight;
        if (r < 0) return item;
      }
      return items[items.length - 1] as (typeof items)[number];
    },
  };
}
