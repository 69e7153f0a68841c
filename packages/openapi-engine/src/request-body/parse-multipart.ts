/**
 * `multipart/form-data` bodies, parsed by busboy from bytes already read within the body limit,
 * to an object: text fields as strings, file parts (a part with a `filename`) as `UploadedFile`,
 * a name sent more than once as an array in order. Bounded by `MultipartLimits`: more parts than
 * `parts`, or one part over `partBytes`, is a 413 naming the bound; a body busboy cannot parse
 * (no boundary, cut short) is a 400.
 *
 * A part's content is checked against the schema later; its own Content-Type is kept on the file
 * for the Encoding Object's `contentType` to be checked against when wired in.
 *
 * @see https://spec.openapis.org/oas/v3.1.1#encoding-object
 * @see https://spec.openapis.org/oas/v3.1.1#considerations-for-file-uploads
 * @see https://www.rfc-editor.org/rfc/rfc7578
 */
import busboy from "busboy";
import type { EngineError } from "../errors.js";
import { bodyErrors } from "./body-errors.js";

/** How far a multipart body may go (within the body limit, which applies first). */
export interface MultipartLimits {
  /** Parts (fields and files together). */
  parts: number;
  /** Bytes of one part's content, field or file. */
  partBytes: number;
}

/** A file part. */
export interface UploadedFile {
  filename: string;
  /** The part's own Content-Type (`application/octet-stream` when it gave none). */
  contentType: string;
  data: Buffer;
}

/** A parsed multipart body: each part's value, or values when its name came more than once. */
export type MultipartFields = Record<string, string | UploadedFile | Array<string | UploadedFile>>;

function add(fields: MultipartFields, name: string, value: string | UploadedFile): void {
  const previous = fields[name];
  if (previous === undefined) fields[name] = value;
  else if (Array.isArray(previous)) previous.push(value);
  else fields[name] = [previous, value];
}

/** The parts of a multipart body (`contentType` is the request's header, with its boundary). */
export function parseMultipartBody(
  bytes: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<{ value: MultipartFields } | EngineError> {
  const mediaType = "multipart/form-data";
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        // busboy flags a bound once it is reached, not passed: one more, so that reaching it
        // means going over ours.
        limits: {
          parts: limits.parts + 1,
          fieldSize: limits.partBytes + 1,
          fileSize: limits.partBytes + 1,
          fieldNameSize: 200,
        },
        defParamCharset: "utf8",
      });
    } catch (error) {
      resolve(bodyErrors.malformed(mediaType, (error as Error).message.toLowerCase()));
      return;
    }
    const fields: MultipartFields = Object.create(null);
    let failed: EngineError | undefined;
    const fail = (error: EngineError) => {
      failed ??= error;
    };
    parser.on("field", (name, value, info) => {
      if (info.valueTruncated)
        fail(bodyErrors.tooLarge(`${limits.partBytes} bytes in part ${name}`));
      else if (info.nameTruncated) fail(bodyErrors.malformed(mediaType, "a part name is too long"));
      else add(fields, name, value);
    });
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () =>
        fail(bodyErrors.tooLarge(`${limits.partBytes} bytes in part ${name}`)),
      );
      stream.on("end", () => {
        add(fields, name, {
          filename: info.filename ?? "",
          contentType: info.mimeType,
          data: Buffer.concat(chunks),
        });
      });
    });
    parser.on("partsLimit", () => fail(bodyErrors.tooLarge(`${limits.parts} parts`)));
    parser.on("error", (error: Error) =>
      resolve(failed ?? bodyErrors.malformed(mediaType, error.message.toLowerCase())),
    );
    parser.on("close", () => resolve(failed ?? { value: fields }));
    parser.end(bytes);
  });
}
