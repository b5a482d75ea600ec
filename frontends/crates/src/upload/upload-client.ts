import { loadRuntimeConfig, serviceBaseUrl, type Kit } from "@tt/web-kit";

/** The song as POST /api/room-service/upload/song answers it (tt.upload.v1.UploadedSong in JSON). */
export interface UploadedSongJson {
  songId: string;
  status: string;
  trackName?: string;
  artistName?: string;
  [field: string]: unknown;
}

/** A refused upload: the status and the server's error body (its message is what the listener sees). */
export class UploadError extends Error {
  override readonly name = "UploadError";
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface UploadInput {
  file: File;
  public: boolean;
}

/** Sends a file, reporting the bytes sent (0–1); resolves with the created song. */
export type Uploader = (input: UploadInput, onProgress: (fraction: number) => void) => Promise<UploadedSongJson>;

export const UPLOAD_PATH = "/api/room-service/upload/song";

function parseBody(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The upload over XMLHttpRequest (fetch reports no upload progress), multipart to the upload service's
 * /api/room-service/upload/song with the session's bearer token. The base URL is the upload service's, from the
 * runtime configuration like every other call.
 */
export function createXhrUploader(kit: Pick<Kit, "session">, origin: string = window.location.origin): Uploader {
  return async (input, onProgress) => {
    const services = await loadRuntimeConfig().then(
      (config) => config.services,
      () => ({}),
    );
    const url = `${serviceBaseUrl("upload", services, origin)}${UPLOAD_PATH}`;
    const form = new FormData();
    form.set("file", input.file, input.file.name);
    form.set("public", String(input.public));
    const token = kit.session.getSnapshot().accessToken;
    return new Promise<UploadedSongJson>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", url);
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token.token}`);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      });
      xhr.addEventListener("load", () => {
        const body = parseBody(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300 && typeof body["songId"] !== "undefined") {
          onProgress(1);
          resolve({ ...body, songId: String(body["songId"]) } as UploadedSongJson);
          return;
        }
        const message = Array.isArray(body["message"]) ? body["message"][0] : body["message"];
        reject(new UploadError(xhr.status || 500, typeof message === "string" ? message : ""));
      });
      xhr.addEventListener("error", () => reject(new UploadError(503, "")));
      xhr.addEventListener("abort", () => reject(new UploadError(499, "")));
      xhr.send(form);
    });
  };
}
