/**
 * Writes records as JSONL (one JSON object per line), streaming with backpressure, to a
 * temporary file renamed into place at the end: a reader never sees a half-written file under
 * the final name, and an interrupted run leaves no file that looks complete.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";

export interface WriteJsonlResult {
  records: number;
  bytes: number;
}

export async function writeJsonl<T>(
  path: string,
  records: Iterable<T>,
  options: { onProgress?: (written: number) => void; linesPerWrite?: number } = {},
): Promise<WriteJsonlResult> {
  const linesPerWrite = options.linesPerWrite ?? 1000;
  const temporary = `${path}.partial-${process.pid}`;
  const stream = createWriteStream(temporary, { highWaterMark: 1024 * 1024 });
  let count = 0;
  let bytes = 0;
  let lines: string[] = [];
  const write = async (): Promise<void> => {
    const text = `${lines.join("\n")}\n`;
    lines = [];
    bytes += Buffer.byteLength(text);
    if (!stream.write(text)) await once(stream, "drain");
    options.onProgress?.(count);
  };
  try {
    for (const record of records) {
      lines.push(JSON.stringify(record));
      count++;
      if (lines.length >= linesPerWrite) await write();
    }
    if (lines.length > 0) await write();
    stream.end();
    await once(stream, "finish");
    await rename(temporary, path);
    return { records: count, bytes };
  } catch (error) {
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}
