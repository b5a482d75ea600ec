// The room remote's router: the kit's small router over the page's history, the shell mounting the app at /room.
import { createAppRouter } from "@tt/web-kit/router";

export const { mount: SHELL_MOUNT, navigate, useAppLocation, Link } = createAppRouter("/room");
