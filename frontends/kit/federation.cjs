// One Module Federation configuration for the shell and every remote, so that the shared singletons can
// never drift apart between builds that are deployed separately.
const { ModuleFederationPlugin } = require("@module-federation/enhanced/webpack");

// Module Federation finds webpack's path by calling webpack() without options and reading the failure's stack, which
// compiles and runs webpack's whole options schema: about a second of CPU per build process (issue 26). Told here,
// it skips that; the value is what that search answers (the webpack the CLI and build-apps.cjs load).
process.env.FEDERATION_WEBPACK_PATH ||= require.resolve("webpack");

// Everything that holds module-level state (React's dispatcher, the query client context, the i18n
// instance, the session store inside the kit) must exist once per page. The version is read from the
// installed package; requiredVersion is off because the remotes are released with the shell from one
// lockfile, and a mismatch warning at run time would only be noise.
const SINGLETONS = [
  "react",
  "react/jsx-runtime",
  "react/jsx-dev-runtime",
  "react-dom",
  "react-dom/client",
  "@tanstack/react-query",
  "@connectrpc/connect",
  "@connectrpc/connect-web",
  "@bufbuild/protobuf",
  "@tt/web-kit",
  "@tt/web-kit/connect",
  "@tt/web-kit/ui",
  "@tt/web-kit/form",
  "@tt/web-kit/virtual",
  "@tt/web-kit/table",
  "@tt/web-kit/chart",
  "@tt/web-kit/sortable",
];

/**
 * The shared modules the shell's own code imports, so its build always provides them to every page (the shell's build
 * fails when one is no longer among what it provides: HostProvidesCheck below). A remote's production build takes
 * these from the shell instead of bundling a copy of its own that the page never loads (issue 26, first start time:
 * about half of the web build's work was those copies). A remote's development build keeps its copies, so
 * `npm run dev` of a remote alone still renders it standalone.
 */
const HOST_PROVIDED = [
  "react",
  "react/jsx-runtime",
  "react-dom",
  "react-dom/client",
  "@tanstack/react-query",
  "@connectrpc/connect",
  "@connectrpc/connect-web",
  "@bufbuild/protobuf",
  // Subpaths the prefixes below share; named here so that the remotes leave them to the shell too.
  "@connectrpc/connect/protocol",
  "@connectrpc/connect/protocol-connect",
  "@connectrpc/connect/protocol-grpc-web",
  "@bufbuild/protobuf/codegenv2",
  "@bufbuild/protobuf/wire",
  "@bufbuild/protobuf/wkt",
  "@tt/web-kit",
  "@tt/web-kit/connect",
  "@tt/web-kit/ui",
  "@tt/web-kit/form",
];

/**
 * @param {{ fromHost?: boolean }} [options] fromHost: a remote's production build, which takes HOST_PROVIDED from the shell
 */
function createSharedConfig({ fromHost = false } = {}) {
  const shared = {};
  for (const name of SINGLETONS) shared[name] = { singleton: true, requiredVersion: false };
  if (fromHost) {
    for (const name of HOST_PROVIDED) shared[name] = { singleton: true, requiredVersion: false, import: false };
  }
  // Subpath imports share by prefix: any other react-dom entry point, and the protobuf and Connect
  // internals (codegenv2, wkt, protocol-connect) that would otherwise be bundled again beside the shared
  // package root — and, for the generated protos, registered twice.
  for (const prefix of ["react-dom/", "@bufbuild/protobuf/", "@connectrpc/connect/", "@tt/proto/"]) {
    shared[prefix] = { singleton: true, requiredVersion: false };
  }
  return shared;
}

/**
 * @param {{ name: string, exposes?: Record<string, string>, fromHost?: boolean }} options
 */
function createFederationConfig({ name, exposes, fromHost = false }) {
  return {
    name,
    filename: "remoteEntry.js",
    exposes: exposes ?? {},
    // Remotes are registered at run time from /remotes.json, never baked in at build time.
    remotes: {},
    shared: createSharedConfig({ fromHost }),
    // A shared module comes from what the page has already loaded (the shell provides every singleton), else the
    // loading app's own copy. The default ("version-first") first loads every registered remote's entry to
    // compare versions, so one remote that is down took the next remote's shared modules with it.
    shareStrategy: "loaded-first",
    manifest: true,
    dts: false,
    // Browser-only builds: drops the runtime's Node.js script loading (about 2 KB gzip of the shell's first load).
    // disableSnapshot would save 1.4 KB more but breaks remotes given as mf-manifest.json
    // (docs/decisions/0284-the-module-federation-runtimes-size-options.md).
    experiments: { optimization: { target: "web" } },
  };
}

function createFederationPlugin(options) {
  return new ModuleFederationPlugin(createFederationConfig(options));
}

/**
 * In the shell's production build: fails the build when its manifest no longer lists one of HOST_PROVIDED, which
 * the remotes' production builds do not bundle (a page would fail to load them).
 */
class HostProvidesCheck {
  apply(compiler) {
    compiler.hooks.emit.tap("HostProvidesCheck", (compilation) => {
      const manifest = compilation.getAsset("mf-manifest.json");
      const provided = manifest ? JSON.parse(manifest.source.source().toString()).shared.map((s) => s.name) : [];
      const missing = HOST_PROVIDED.filter((name) => !provided.includes(name));
      if (missing.length === 0) return;
      compilation.errors.push(
        new compiler.webpack.WebpackError(
          `the shell no longer provides ${missing.join(", ")} (its code does not import them), which the remotes ` +
            "take from it (HOST_PROVIDED in frontends/kit/federation.cjs): import them in the shell or remove them there",
        ),
      );
    });
  }
}

module.exports = {
  SINGLETONS,
  HOST_PROVIDED,
  HostProvidesCheck,
  createSharedConfig,
  createFederationConfig,
  createFederationPlugin,
};
