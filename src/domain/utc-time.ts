/** Times as the records and the indexer's rows spell them: UTC `YYYY-MM-DD HH:MM:SS`. */

/** Recently formatted times: a block's transfers share its time. */
const utcMemo = new Map<number, string>();

/** UTC `YYYY-MM-DD HH:MM:SS` of a unix time in seconds. */
export function formatUtc(unixSeconds: number): string {
  let text = utcMemo.get(unixSeconds);
  if (text === undefined) {
    text = new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace("T", " ");
    if (utcMemo.size >= 10_000) utcMemo.clear();
    utcMemo.set(unixSeconds, text);
  }
  return text;
}
