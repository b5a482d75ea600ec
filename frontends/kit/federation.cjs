// One Module Federation configuration for the shell and every remote, so that the shared singletons can
// never drift apart between builds that are deployed separately.
const { ModuleFederationPlugin } = require("@module-federation/enhanced/webpack");

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

function createSharedConfig() {
  const shared = {};
  for (const name of SINGLETONS) shared[name] = { singleton: true, requiredVersion: false };
  // Subpath imports share by prefix: any other react-dom entry point, and the protobuf and Connect
  // internals (codegenv2, wkt, protocol-connect) that would otherwise be bundled again beside the shared
  // package root — and, for the generated protos, registered twice.
  for (const prefix of ["react-dom/", "@bufbuild/protobuf/", "@connectrpc/connect/", "@tt/proto/"]) {
    shared[prefix] = { singleton: true, requiredVersion: false };
  }
  return shared;
}

/**
 * @param {{ name: string, exposes?: Record<string, string> }} options
 */
function createFederationConfig({ name, exposes }) {
  return {
    name,
    filename: "remoteEntry.js",
    exposes: exposes ?? {},
    // Remotes are registered at run time from /remotes.json, never baked in at build time.
    remotes: {},
    shared: createSharedConfig(),
    // A shared module comes from what the page has already loaded (the shell provides every singleton), else the
    // loading app's own copy. The default ("version-first") first loads every registered remote's entry to
    // compare versions, so one remote that is down took the next remote's shared modules with it.
    shareStrategy: "loaded-first",
    manifest: true,
    dts: false,
    // Browser-only builds: drops the runtime's Node.js script loading (about 2 KB gzip of the shell's first load).
    // disableSnapshot would save 1.4 KB more but breaks remotes given as mf-manifest.json (docs/decisions.md).
    experiments: { optimization: { target: "web" } },
  };
}

function createFederationPlugin(options) {
  return new ModuleFederationPlugin(createFederationConfig(options));
}

module.exports = { SINGLETONS, createSharedConfig, createFederationConfig, createFederationPlugin };
