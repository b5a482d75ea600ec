// Reads a `multipart/form-data` body as it streams in (busboy), never holding more than the body limit: the
// count is taken on the raw bytes before they reach the parser, and once it passes the limit, or a part is
// refused, reading stops (the request is paused, not drained). Whoever answers then closes the connection
// or stream, since the rest of the body is still on the wire.
import { ConnectError } from "@connectrpc/connect";
import busboy from "busboy";
import { BindError, type FormBody, type FormFile } from "./bind.ts";
import type { NodeRequest } from "./connect-passthrough.ts";

export const MULTIPART_TYPE = /^multipart\/form-data\b/i;

export interface MultipartOptions {
  /** Largest body, counted on the wire; also bounds each file and each text value. */
  limit: number;
  /** Throws a BindError to refuse a part as soon as its headers are read. */
  checkPart?: (name: string, isFile: boolean) => void;
  /**
   * Told how many bytes of the body have been taken so far (the declared length first, when there is one); throws
   * to refuse the body (the gateway's bytes-in-flight budget).
   */
  hold?: (total: number) => void;
}

function tooLarge(limit: number): BindError {
  return new BindError(`request body larger than ${limit} bytes`, 413);
}

export function readMultipart(req: NodeRequest, contentType: string, opts: MultipartOptions): Promise<FormBody> {
  const { limit, checkPart, hold } = opts;
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  try {
    if (declared > 0) hold?.(declared);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: limit, fieldSize: limit },
      // Browsers send file names as raw UTF-8; busboy's default would read them as latin1.
      defParamCharset: "utf8",
    });
  } catch (e) {
    return Promise.reject(new BindError(`malformed multipart/form-data: ${(e as Error).message}`));
  }

  return new Promise<FormBody>((resolve, reject) => {
    const form: FormBody = { fields: [], files: [] };
    let size = 0;
    let settled = false;
    let pendingFiles = 0;
    let parsed = false;

    const stop = (err: unknown) => {
      if (settled) return;
      settled = true;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      req.pause();
      parser.removeAllListeners();
      parser.on("error", () => {}); // a late parser error must not become an unhandled one
      parser.destroy();
      reject(
        err instanceof BindError || err instanceof ConnectError
          ? err
          : new BindError(`malformed multipart/form-data: ${(err as Error).message}`),
      );
    };
    const maybeDone = () => {
      if (settled || !parsed || pendingFiles > 0) return;
      settled = true;
      resolve(form);
    };
    const check = (name: string, isFile: boolean): boolean => {
      try {
        checkPart?.(name, isFile);
        return true;
      } catch (e) {
        stop(e);
        return false;
      }
    };

    parser.on("field", (name, value, info) => {
      if (settled) return;
      if (info.nameTruncated) return stop(new BindError(`form field name "${name}…" is too long`));
      if (info.valueTruncated) return stop(tooLarge(limit));
      if (check(name, false)) form.fields.push([name, value]);
    });
    parser.on("file", (name, stream, info) => {
      // Destroying the parser fails the part being read; that is reported through stop(), not here.
      stream.on("error", () => {});
      if (settled || !check(name, true)) {
        stream.resume();
        return;
      }
      pendingFiles++;
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
      });
      stream.once("limit", () => stop(tooLarge(limit)));
      stream.once("end", () => {
        pendingFiles--;
        if (settled) return;
        const file: FormFile = {
          name,
          filename: info.filename ?? "",
          contentType: info.mimeType,
          content: Buffer.concat(chunks, length),
        };
        form.files.push(file);
        maybeDone();
      });
    });
    parser.once("error", stop);
    parser.once("close", () => {
      parsed = true;
      maybeDone();
    });

    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop(tooLarge(limit));
      try {
        hold?.(size);
      } catch (e) {
        return stop(e);
      }
      // The parser hands file bytes on at once (they are collected above), so its buffer stays small;
      // still, honour its back-pressure rather than queue without bound.
      if (!parser.write(chunk)) {
        req.pause();
        parser.once("drain", () => {
          if (!settled) req.resume();
        });
      }
    };
    const onEnd = () => {
      if (!settled) parser.end();
    };
    const onClose = () => {
      if (!req.complete) stop(new BindError("request body ended early"));
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", stop);
    req.once("close", onClose);
  });
}
