// `npm start`: the whole platform in one process on embedded defaults, at http://localhost:8080.
import { createFrontendHandler, loadContentSecurityOptions, startWebBuild } from "@tt/web-server";

// The web apps build while the API starts. The URL is announced, and /readyz says ready, only once every page
// works: nobody gets a shell whose remotes are still being written (issue 9 defect 13). The build is the longest
// part of a first start, so it starts before the platform's code is even loaded (issue 26: loading it took 1.5 s of
// CPU, several seconds on a busy machine); its first lines wait for the logger.
const distRoot = process.env.WEB_DIST_ROOT || undefined;
const early: string[] = [];
let logBuild = (line: string): void => void early.push(line);
const web =
  process.env.SKIP_WEB_BUILD === "true" ? undefined : startWebBuild({ distRoot, log: (line) => logBuild(line) });
web?.done.catch(() => undefined);
if (web)
  process.stdout.write("\nturntable: building the web apps whose sources changed; the URL follows when ready\n\n");

const { createLogger, installProcessGuards } = await import("@tt/kit");
const { createAppleMusicTokenIssuer, loadAppleMusicTokenConfig } = await import("@tt/providers");
const { startAllInOne } = await import("./all-in-one.ts");
const { loadAllInOneConfig } = await import("./config.ts");

const config = loadAllInOneConfig(process.env);
// The embedded default seeds the demo catalogue (synthesised songs) so a fresh install has something to play, stocks
// the shop (avatars, consumables, token bundles, a season; the token packs and a plan) and makes the demo voucher
// DEMO-UPLOAD (grants uploadMusic), and runs the resident DJ in the Lobby (a bot on the public API, see
// docs/bots.md); each variable set to false turns its part off. The tests and the chart leave them off (the
// services' default).
process.env.UPLOAD_DEMO_SONGS ??= "true";
process.env.MERCH_DEMO_STOCK ??= "true";
process.env.PAYMENT_DEMO_PRODUCTS ??= "true";
process.env.USER_DEMO_VOUCHER ??= "true";
process.env.RESIDENT_DJ ??= "true";
const logger = createLogger({ service: "all-in-one", level: config.LOG_LEVEL });
logBuild = (line) => logger.info(line);
for (const line of early.splice(0)) logBuild(line);
// An unhandled rejection is logged and counted, never the end of the platform (issue 9 defect 1).
installProcessGuards({ logger });
const contentSecurity = loadContentSecurityOptions(process.env);
// The web player's Apple Music developer token, from the user service's variables (APPLE_MUSIC_TEAM_ID, _KEY_ID,
// _PRIVATE_KEY, _TOKEN_TTL_SECONDS), bound to the site's origin when WEB_PUBLIC_URL names it.
const appleMusic = loadAppleMusicTokenConfig(process.env);
const appleMusicTokens = appleMusic
  ? createAppleMusicTokenIssuer({
      ...appleMusic,
      ...(process.env.WEB_PUBLIC_URL ? { origin: process.env.WEB_PUBLIC_URL } : {}),
    })
  : undefined;

web?.done.catch((err: unknown) =>
  logger.error({ err }, "building the web apps failed: the pages will not work and /readyz stays not ready"),
);
const platform = await startAllInOne({
  logger,
  staticHandler: createFrontendHandler({
    distRoot,
    build: web,
    contentSecurity,
    ...(process.env.WEB_BRAND ? { brand: process.env.WEB_BRAND } : {}),
    ...(appleMusicTokens ? { appleMusicToken: () => appleMusicTokens.developerToken() } : {}),
  }),
  ...(web ? { ready: () => web.ready() } : {}),
});

const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
stop.signal.addEventListener("abort", () => {
  logger.info("shutting down");
  platform.close().catch((err: unknown) => logger.error({ err }, "shutdown failed"));
});

if (web?.building()) {
  logger.info({ url: platform.url }, "the API is up; waiting for the web apps to be built");
  await web.done.catch(() => undefined);
}
if (!stop.signal.aborted) process.stdout.write(`\nturntable is listening on ${platform.url}\n\n`);
