// The crates remote's router: the kit's small router over the page's history, the shell mounting the app at /crates.
import { createAppRouter } from "@tt/web-kit/router";

export const { navigate, useAppLocation, useReplaceSearch, Link } = createAppRouter("/crates");
