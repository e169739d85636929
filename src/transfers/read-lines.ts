/**
 * Streams the lines of a file with their 1-based numbers and the bytes read so far.
 *
 * Pulls chunks with `for await` over a read stream, so the file is read only as fast as the
 * consumer takes lines: memory holds one chunk and one line at a time, whatever the file size.
 * (readline's async iterator queues lines ahead of a slow consumer.) A line longer than
 * `maxLineBytes` is an error rather than an unbounded buffer.
 */
import { createReadStream } from "node:fs";

export interface FileLine {
  /** 1-based line number. */
  number: number;
  /** Without the line terminator (\n or \r\n); a leading byte-order mark is dropped. */
  text: string;
  /** Bytes of the file read so far (at chunk granularity), for progress. */
  bytesRead: number;
}

export class LineTooLongError extends Error {
  readonly line: number;
  constructor(line: number, maxLineBytes: number) {
    super(`line ${line}: longer than ${maxLineBytes} bytes`);
    this.name = "LineTooLongError";
    this.line = line;
  }
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

export async function* readLines(
  path: string,
  options: { maxLineBytes?: number; chunkBytes?: number } = {},
): AsyncGenerator<FileLine> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const stream = createReadStream(path, {
    encoding: "utf8",
    highWaterMark: options.chunkBytes ?? 256 * 1024,
  });
  let pending = "";
  let number = 0;
  const strip = (text: string): string => {
    const withoutCr = text.endsWith("\r") ? text.slice(0, -1) : text;
    return number === 1 && withoutCr.startsWith("\uFEFF") ? withoutCr.slice(1) : withoutCr;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      let newline = chunk.indexOf("\n");
      while (newline !== -1) {
        const text = pending + chunk.slice(start, newline);
        pending = "";
        number++;
        // String length is a lower bound of the byte length: a cheap check first.
        if (text.length > maxLineBytes || Buffer.byteLength(text) > maxLineBytes) {
          throw new LineTooLongError(number, maxLineBytes);
        }
        yield { number, text: strip(text), bytesRead: stream.bytesRead };
        start = newline + 1;
        newline = chunk.indexOf("\n", start);
      }
      pending += chunk.slice(start);
      if (pending.length > maxLineBytes) throw new LineTooLongError(number + 1, maxLineBytes);
    }
    if (pending.length > 0) {
      number++;
      if (Buffer.byteLength(pending) > maxLineBytes) {
        throw new LineTooLongError(number, maxLineBytes);
      }
      yield { number, text: strip(pending), bytesRead: stream.bytesRead };
    }
  } finally {
    stream.destroy();
  }
}
