// The webpack configuration every frontend package builds with; each package's webpack.config.cjs only
// names itself and what it exposes.
const path = require("node:path");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const MiniCssExtractPlugin = require("mini-css-extract-plugin");
const Minimizer = require("minimizer-webpack-plugin");
const { HostProvidesCheck, createFederationPlugin } = require("./federation.cjs");

/** Where each remote's dev server listens (its webpack.config.cjs says the same). */
const DEV_PORTS = { room: 3001, crates: 3002, shop: 3003, admin: 3004 };
const AGORA_SDK = /[\\/]node_modules[\\/](agora-rtc-sdk-ng|@agora-js)[\\/]/;
/** The chunks of code minified by its authors (the chunk names given here and by the imports' webpackChunkName). */
const PREMINIFIED = /^(agora-sdk|hls)\.[0-9a-f]+\.js$/;
const CONNECT_PATH = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;

/**
 * WEB_SERVICE_URLS=user=http://localhost:8081,room=… : services whose API the page calls elsewhere than through
 * the proxy below (spec 002 §1: a service redirected to a local port). The web kit validates the URLs.
 */
function devServiceUrls(value = process.env.WEB_SERVICE_URLS ?? "") {
  const pairs = value.split(/[\s,]+/).filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/**
 * @param {{ dir: string, name: string, title: string, port: number, exposes?: Record<string, string>, host?: boolean }} options
 */
function createWebpackConfig({ dir, name, title, port, exposes, host = false }) {
  return (_env, argv) => {
    const production = argv.mode === "production";
    return {
      context: dir,
      mode: production ? "production" : "development",
      devtool: production ? false : "eval-cheap-module-source-map",
      entry: { main: "./src/index.ts" },
      output: {
        path: path.join(dir, "dist"),
        // Content hashes let the server cache chunks forever; remoteEntry.js keeps its fixed name
        // (federation `filename`) because the manifest and remotes.json point at it.
        // A function rather than a template: the federation runtime renders output.filename (only to learn
        // the folder depth) before the chunk's content hash exists.
        filename: (pathData) =>
          production && pathData.chunk?.contentHash?.javascript ? "[name].[contenthash:8].js" : "[name].js",
        chunkFilename: production ? "[name].[contenthash:8].js" : "[name].js",
        // The shell always lives at /; a remote finds its own URL from its manifest, wherever it is deployed.
        publicPath: host ? "/" : "auto",
        uniqueName: name,
        clean: true,
        // webpack's fastest hash (the default md4 runs in WebAssembly); only the files' names depend on it.
        hashFunction: "xxhash64",
      },
      resolve: {
        extensions: [".ts", ".tsx", ".js", ".json"],
        // Generated protobuf code imports "./x_pb.js" for files that exist as .ts.
        extensionAlias: { ".js": [".ts", ".tsx", ".js"] },
        // The Radix overlays' scroll lock writes its rules through the CSS Object Model, not an inline <style>
        // that the Content-Security-Policy refuses (src/ui/style-singleton.ts).
        alias: { "react-style-singleton$": path.join(__dirname, "src/ui/style-singleton.ts") },
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: "swc-loader",
              options: {
                jsc: {
                  parser: { syntax: "typescript", tsx: true },
                  transform: { react: { runtime: "automatic", development: !production } },
                  target: "es2022",
                },
              },
            },
          },
          { test: /\.css$/, use: [MiniCssExtractPlugin.loader, "css-loader"] },
        ],
      },
      plugins: [
        createFederationPlugin({ name, exposes, fromHost: production && !host }),
        ...(production && host ? [new HostProvidesCheck()] : []),
        new MiniCssExtractPlugin({
          filename: production ? "[name].[contenthash:8].css" : "[name].css",
          chunkFilename: production ? "[name].[contenthash:8].css" : "[name].css",
        }),
        // Only the shell's page is public. A remote's page exists so it can be opened alone under its dev server; its
        // production build takes React, the kit and Connect from the shell (federation.cjs, HOST_PROVIDED), so a
        // page of its own could not render and is not built.
        ...(production && !host
          ? []
          : [
              new HtmlWebpackPlugin({
                template: path.join(__dirname, "index.html"),
                title,
                filename: "index.html",
              }),
            ]),
      ],
      optimization: {
        // The Agora SDK, minified by its authors, in a chunk of its own that the minifier only mangles (below).
        splitChunks: {
          cacheGroups: {
            agoraSdk: { test: AGORA_SDK, name: "agora-sdk", chunks: "async", priority: 20, enforce: true },
          },
        },
        minimizer: [
          new Minimizer({
            test: /\.[cm]?js$/,
            exclude: PREMINIFIED,
            minify: Minimizer.swcMinify,
            // One compress pass: a second made every app's JavaScript 0.3% smaller (gzip) for about 15% of the
            // build's CPU (docs/decisions/0320-first-start-time-one-webpack-process-remotes.md). In this process: the
            // webpack process builds every app at once, and a worker per app and minimizer cost more to start than they
            // saved.
            minimizerOptions: { compress: { passes: 1 } },
            parallel: false,
          }),
          // Code its authors minified already (hls.js's and Agora's builds, each a lazy chunk): compressing it again
          // cost about 1.3 s of the five apps' 16 s of CPU for 22 KB gzip of the live-audio chunk's 351 (issue 26).
          new Minimizer({
            test: PREMINIFIED,
            minify: Minimizer.swcMinify,
            minimizerOptions: { compress: false, mangle: true },
            parallel: false,
          }),
          new Minimizer({ test: /\.css$/, minify: Minimizer.lightningCssMinify, parallel: false }),
        ],
      },
      performance: { hints: false },
      stats: production ? "errors-warnings" : "minimal",
      devServer: {
        port,
        historyApiFallback: true,
        // Manifest mode fetches the remote's files from another origin in development.
        headers: { "Access-Control-Allow-Origin": "*" },
        // The shell's dev server answers /remotes.json with the remotes' dev servers (and WEB_SERVICE_URLS) and
        // sends the API (REST and Connect) to the gateway, so `npm run dev` in each package gives the whole product.
        // The dev server sends no Content-Security-Policy, so a service on another port needs only its CORS.
        ...(host
          ? {
              setupMiddlewares: (middlewares, devServer) => {
                devServer.app.get("/remotes.json", (_req, res) => {
                  const remotes = Object.entries(DEV_PORTS).map(([remote, remotePort]) => ({
                    name: remote,
                    entry: `http://localhost:${remotePort}/mf-manifest.json`,
                  }));
                  const services = devServiceUrls();
                  res.json(Object.keys(services).length > 0 ? { remotes, services } : remotes);
                });
                return middlewares;
              },
              proxy: [
                {
                  context: (pathname) => pathname.startsWith("/api/") || CONNECT_PATH.test(pathname),
                  target: process.env.GATEWAY_URL ?? "http://localhost:8080",
                },
              ],
            }
          : {}),
      },
    };
  };
}

module.exports = { createWebpackConfig, devServiceUrls };
