import { fileURLToPath } from "node:url";
import path from "node:path";

/** The frontends folder of this checkout, whatever the process's working directory. */
export const DEFAULT_DIST_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The apps that are built and served: the shell first, then the remotes. */
export const APPS = ["shell", "room", "crates", "shop", "admin"] as const;
export const REMOTE_APPS = ["room", "crates", "shop", "admin"] as const;

/** A relative distRoot is taken from the working directory, as the option's name suggests. */
export function resolveDistRoot(distRoot: string | undefined): string {
  return distRoot ? path.resolve(distRoot) : DEFAULT_DIST_ROOT;
}
