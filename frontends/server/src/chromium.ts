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
