// node build-apps.cjs <app folder>... : builds the given web apps for production in this one process, with webpack's
// Node API (a MultiCompiler over each folder's webpack.config.cjs), as `webpack --mode production` would in each.
// One process instead of one per app (issue 26, first start time): webpack, its plugins and the schema checks load
// once, and the later apps run on code that is already optimised. Exits 1 with webpack's errors when an app fails.
const path = require("node:path");
const webpack = require("webpack");

const WEBPACK_ENV = { WEBPACK_BUNDLE: true, WEBPACK_BUILD: true };
const ARGV = { mode: "production", env: WEBPACK_ENV };

/**
 * An app's configurations, as the webpack CLI loads them: one or several (the shell's second builds its service
 * worker), each a function called with the CLI's env and argv or an object. The first is named after the app.
 */
function loadConfigs(dir) {
  const exported = require(path.join(dir, "webpack.config.cjs"));
  return (Array.isArray(exported) ? exported : [exported]).map((entry, index) => {
    const config = typeof entry === "function" ? entry(WEBPACK_ENV, ARGV) : entry;
    const name = index === 0 ? path.basename(dir) : `${path.basename(dir)}-${config.name ?? index}`;
    // The CLI runs in the app's folder; here every app's relative paths are taken from its own folder.
    return { context: dir, mode: "production", ...config, name };
  });
}

const dirs = process.argv.slice(2).map((dir) => path.resolve(dir));
if (dirs.length === 0) {
  console.error("usage: build-apps.cjs <app folder>...");
  process.exit(2);
}
const configs = dirs.flatMap(loadConfigs);
// Every app at once: a build waits on its loaders and the minifier, which run on other threads, so the apps' work
// interleaves on the one JavaScript thread instead of each waiting in turn.
const compiler = webpack(configs);
compiler.run((err, stats) => {
  const failed = Boolean(err) || stats.hasErrors();
  if (err) console.error(err.stack ?? String(err));
  else if (failed || stats.hasWarnings()) console.error(stats.toString("errors-warnings"));
  compiler.close(() => process.exit(failed ? 1 : 0));
});
