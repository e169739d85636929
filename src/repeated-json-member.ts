/**
 * The first member name that a JSON text gives twice in one object, at any depth.
 *
 * Why: JSON.parse keeps the last of two equal names without a word, so `{"amount":"5",
 * "amount":"7"}` would be quoted for 7 while a proxy, a log or a signer that reads the first
 * value sees 5. The API refuses such a body (400 40002), as it refuses a repeated query parameter,
 * and `import` such a record.
 *
 * `text` must be valid JSON (call it after it parsed). A string followed by `:` is a member name;
 * no string value is, so one pass that jumps over strings finds every name. Names are compared
 * as JSON.parse reads them: `"a"` and `"\u0061"` are the same name.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

export function repeatedMemberName(text: string): string | undefined {
  // One entry per open object or array: the names seen so far, or null for an array.
  const open: (Set<string> | null)[] = [];
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      let next = end + 1;
      while (next < length && isJsonSpace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === COLON) {
        const names = open[open.length - 1];
        const raw = text.slice(i + 1, end);
        const name = raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (names?.has(name)) return name;
        names?.add(name);
      }
      i = next;
    } else {
      if (c === OPEN_OBJECT) open.push(new Set());
      else if (c === OPEN_ARRAY) open.push(null);
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open.pop();
      i++;
    }
  }
  return undefined;
}

/** Index of the quote that closes the string opening at `start`. */
function closingQuote(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return text.length; // unreachable for valid JSON
}

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
