const path = require("node:path");
const Minimizer = require("minimizer-webpack-plugin");
const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

const shell = createWebpackConfig({ dir: __dirname, name: "shell", title: "Turntable", port: 3000, host: true });

/**
 * The service worker (issue 26): its own small build to dist/sw.js, a fixed name at the site's root (a worker's
 * scope can be no wider than its script's folder), without the federation runtime or chunks (a worker loads one
 * script). The shell's build keeps it when it cleans dist.
 */
const serviceWorker = (_env, argv) => {
  const production = argv.mode === "production";
  return {
    name: "sw",
    context: __dirname,
    mode: production ? "production" : "development",
    devtool: false,
    target: "webworker",
    entry: { sw: "./src/sw/sw.ts" },
    output: { path: path.join(__dirname, "dist"), filename: "sw.js", clean: false },
    resolve: { extensions: [".ts", ".js"], extensionAlias: { ".js": [".ts", ".js"] } },
    module: {
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: { loader: "swc-loader", options: { jsc: { parser: { syntax: "typescript" }, target: "es2022" } } },
        },
      ],
    },
    optimization: { minimizer: [new Minimizer({ minify: Minimizer.swcMinify })] },
    performance: { hints: false },
    stats: production ? "errors-warnings" : "minimal",
  };
};

module.exports = [
  (env, argv) => {
    const config = shell(env, argv);
    return { ...config, name: "shell", output: { ...config.output, clean: { keep: /^sw\.js$/ } } };
  },
  serviceWorker,
];
