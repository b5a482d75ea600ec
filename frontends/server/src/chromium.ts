// How the browser checks of the built frontends (the Chromium journeys, the web benchmark) start Debian's
// Chromium: headless, no sandbox (CI containers run as root), nothing that talks to Google in the background.
export const chromiumLaunchOptions = {
  executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/**
 * Debian's Chromium headless shell (package chromium-headless-shell): the same engine without the browser around it.
 * Chromium's own `--headless` runs the whole browser without a window: opening a context, a page with a heading and
 * closing it took 188 ms and 0.18 CPU-s there, 55 ms and 0.04 CPU-s in the shell (30 in a row, an idle machine), and
 * the browser journeys open hundreds. The shell has no push messaging: a journey that subscribes to web push needs
 * `chromiumLaunchOptions`.
 */
export const headlessShellLaunchOptions = {
  ...chromiumLaunchOptions,
  executablePath: process.env["CHROMIUM_HEADLESS_SHELL_PATH"] ?? "/usr/bin/chromium-headless-shell",
};
