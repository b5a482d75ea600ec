/** One remote in /remotes.json: its federation name and where its manifest (or remoteEntry.js) is. */
export interface RemoteEntry {
  name: string;
  entry: string;
}

export const REMOTES_CONFIG_PATH = "/remotes.json";

/** Validates /remotes.json, so that a broken configuration fails with a message, not deep in the runtime. */
export function parseRemoteConfig(value: unknown): RemoteEntry[] {
  if (!Array.isArray(value)) throw new Error("remotes.json must be a JSON array");
  return value.map((item, index) => {
    const record = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const { name, entry } = record;
    if (typeof name !== "string" || !/^[a-z][a-z0-9_]*$/.test(name)) {
      throw new Error(`remotes.json[${index}].name must be a lower-case identifier`);
    }
    if (typeof entry !== "string" || entry === "") throw new Error(`remotes.json[${index}].entry must be a URL`);
    return { name, entry };
  });
}
