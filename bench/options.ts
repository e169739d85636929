/** Command-line options of the benchmarks. */

/** `--name`'s value as an integer from min to max; throws a message naming the option. */
export function integerOption(name: string, text: string, min: number, max: number): number {
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}
