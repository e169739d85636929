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
  /**
   * Runs `print` (which writes a log line, to this stream or to another on the same terminal)
   * with the progress line taken off the terminal first and drawn again below it, so a log
   * line never starts in the middle of the progress line.
   */
  printAbove(print: () => void): void;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

type History = readonly { at: number; cursor: number }[];

/** Blocks indexed, blocks in all, blocks/s over the samples and seconds left of one chain. */
function chainFigures(sample: ProgressSample, history: History) {
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
  return { total, done, rate, eta };
}

function bar(done: number, total: number): string {
  const width = 20;
  const filled = Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}]`;
}

const percent = (done: number, total: number) => `${((done * 100) / total).toFixed(1)}%`;

/** Rate and ETA of a chain from its recent samples (pure, for tests). */
export function progressLine(sample: ProgressSample, history: History): string {
  const { total, done, rate, eta } = chainFigures(sample, history);
  return `${sample.chain} ${bar(done, total)} ${percent(done, total)} ${sample.cursorBlock}/${sample.targetBlock} ${Math.round(rate)} blocks/s ETA ${formatDuration(eta)}`;
}

/**
 * The one line of every chain still backfilling: a chain's own line when it is alone; with
 * several, one bar over all their blocks, their summed rate, the ETA of the slowest, and each
 * chain's share (chains backfill concurrently, so separate lines would overwrite each other).
 */
export function progressSummary(
  chains: readonly { sample: ProgressSample; history: History }[],
): string {
  if (chains.length === 1) return progressLine(chains[0]!.sample, chains[0]!.history);
  let total = 0;
  let done = 0;
  let rate = 0;
  let eta = 0;
  const shares: string[] = [];
  for (const c of chains) {
    const f = chainFigures(c.sample, c.history);
    total += f.total;
    done += f.done;
    rate += f.rate;
    eta = Math.max(eta, f.eta);
    shares.push(`${c.sample.chain} ${percent(f.done, f.total)}`);
  }
  total = Math.max(1, total);
  return `${chains.length} chains ${bar(done, total)} ${percent(done, total)} ${Math.round(rate)} blocks/s ETA ${formatDuration(eta)}: ${shares.join(", ")}`;
}

export function createProgressReporter(
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = Date.now,
): ProgressReporter {
  const chains = new Map<
    string,
    { sample: ProgressSample; history: { at: number; cursor: number }[] }
  >();
  // A progress line without its newline is on the terminal (the cursor is at its end).
  let shown = false;
  function write(line: string, end = "") {
    // A line wider than the terminal wraps, and "\r" would then rewrite only its last row.
    const width = stream.columns;
    const fitted =
      width !== undefined && line.length >= width ? `${line.slice(0, width - 2)}…` : line;
    stream.write(`\r\x1b[2K${fitted}${end}`);
    shown = end === "";
  }
  return {
    update(sample) {
      if (!stream.isTTY) return;
      const entry = chains.get(sample.chain) ?? { sample, history: [] };
      entry.sample = sample;
      entry.history.push({ at: now(), cursor: sample.cursorBlock });
      while (entry.history.length > 20) entry.history.shift();
      chains.set(sample.chain, entry);
      write(progressSummary([...chains.values()]));
    },
    done(chain) {
      const entry = chains.get(chain);
      if (!stream.isTTY || entry === undefined) return;
      chains.delete(chain);
      // The finished chain's last line stays; the others' line goes on below it.
      write(progressLine(entry.sample, entry.history), "\n");
      if (chains.size > 0) write(progressSummary([...chains.values()]));
    },
    printAbove(print) {
      if (!shown) {
        print();
        return;
      }
      stream.write("\r\x1b[2K");
      shown = false;
      print();
      if (chains.size > 0) write(progressSummary([...chains.values()]));
    },
  };
}
