/**
 * Reads a request body into one buffer, decoding its Content-Encoding, and stops at the limit.
 * body-parser reads the rest of the request before it reports an error (it drains a body over
 * the limit to its end, however long a chunked one runs); this reader stops at once and leaves
 * the rest unread, so the answer can go out and the connection be closed (body-step.ts).
 */
import type { IncomingMessage } from "node:http";
import type { Readable, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { type EngineError, engineErrors } from "../errors.js";

const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** Calls `done` once: with the body (decoded, at most `limitBytes`) or the engine's error. */
export function readBody(
  req: IncomingMessage,
  limitBytes: number,
  done: (error: EngineError | undefined, body?: Buffer) => void,
): void {
  const encoding = req.headers["content-encoding"]?.trim().toLowerCase() ?? "identity";
  let stream: Readable = req;
  let decoding: Transform | undefined;
  if (encoding !== "identity") {
    const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
    if (decoder === undefined) {
      done(engineErrors.unsupportedEncoding(encoding));
      return;
    }
    decoding = decoder();
    req.pipe(decoding);
    stream = decoding;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  const finish = (error: EngineError | undefined) => {
    if (finished) return;
    finished = true;
    stream.off("data", onData);
    stream.off("end", onEnd);
    req.off("aborted", onAborted);
    if (decoding !== undefined) {
      req.unpipe(decoding);
      decoding.on("error", () => {});
      decoding.destroy();
    }
    if (error) done(error);
    else done(undefined, Buffer.concat(chunks, received));
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limitBytes) finish(engineErrors.payloadTooLarge(limitBytes));
    else chunks.push(chunk);
  };
  const onEnd = () => finish(undefined);
  // The client went away mid-body: whatever is answered, nobody reads it.
  const onAborted = () => finish(engineErrors.validationFailed("request aborted"));
  stream.on("data", onData);
  stream.once("end", onEnd);
  req.once("aborted", onAborted);
  if (decoding !== undefined) {
    // zlib's own errors: the compressed data is corrupt or cut short.
    decoding.once("error", () => finish(engineErrors.malformedEncoding(encoding)));
  }
}
