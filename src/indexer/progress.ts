/**
 * Backfill progress for a terminal: one line per chain, rewritten in place, with blocks/s over
 * a sliding window and an ETA. Writes nothing when the stream is not a TTY (logs stay clean).
 */
export interface ProgressSample {
  chain: string;
  cursorBlock: number;
  startBlock: number;
  targetBlock: number;
}

export interface ProgressReporter {
  update(sample: ProgressSample): void;
  /** Ends the line (when backfill finished or on shutdown). */
  done(chain: string): void;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** Rate and ETA of a chain from its recent samples (pure, for tests). */
export function progressLine(
  sample: ProgressSample,
  history: readonly { at: number; cursor: number }[],
): string {
  const total = Math.max(1, sample.targetBlock - sample.startBlock + 1);
  const done = Math.min(total, Math.max(0, sample.cursorBlock - sample.startBlock + 1));
  const first = history[0];
  const last = history.at(-1);
  const rate =
    first !== undefined && last !== undefined && last.at > first.at
      ? ((last.cursor - first.cursor) * 1000) / (last.at - first.at)
      : 0;
  const eta =
    rate > 0 ? (sample.targetBlock - sample.cursorBlock) / rate : Number.POSITIVE_INFINITY;
  const pct = ((done * 100) / total).toFixed(1);
  const width = 20;
  const filled = Math.round((done / total) * width);
  const bar = `${"#".repeat(filled)}${".".repeat(width - filled)}`;
  return `${sample.chain} [${bar}] ${pct}% ${sample.cursorBlock}/${sample.targetBlock} ${Math.round(rate)} blocks/s ETA ${formatDuration(eta)}`;
}

export function createProgressReporter(
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): ProgressReporter {
  const history = new Map<string, { at: number; cursor: number }[]>();
  return {
    update(sample) {
      if (!stream.isTTY) return;
      const list = history.get(sample.chain) ?? [];
      list.push({ at: now(), cursor: sample.cursorBlock });
      while (list.length > 20) list.shift();
      history.set(sample.chain, list);
      stream.write(`\r\x1b[2K${progressLine(sample, list)}`);
    },
    done(chain) {
      if (!stream.isTTY || !history.has(chain)) return;
      history.delete(chain);
      stream.write("\n");
    },
  };
}
