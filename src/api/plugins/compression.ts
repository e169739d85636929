/**
 * Response compression (@fastify/compress): JSON, JavaScript, CSS, HTML and the Swagger UI's
 * files are sent br or gzip when the client accepts it (Accept-Encoding), at 1 KiB and more.
 * What it leaves alone, on purpose:
 * - the event stream (routes/transfer-stream.ts hijacks its reply, so no onSend hook sees it;
 *   a compressing proxy would hold events back until its buffer filled);
 * - caching: ETag and Cache-Control stay as each route sets them, and every compressible answer
 *   carries `Vary: Accept-Encoding`, so a shared cache keeps the encodings apart;
 * - request bodies: a body sent with Content-Encoding is not inflated (the 16 KiB body limit
 *   is about what is sent, and the router takes small JSON bodies only).
 */
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Below this many bytes an answer is sent as is: compressing it saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
