// @vitest-environment node
// Issue 26 (first start time): the remotes' production builds take what the shell provides instead of bundling copies
// of their own, and the shell's build fails when it stops providing one of them.
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const kit = path.resolve(import.meta.dirname, "../../kit");
const federation = require(path.join(kit, "federation.cjs")) as {
  HOST_PROVIDED: string[];
  SINGLETONS: string[];
  HostProvidesCheck: new () => { apply(compiler: unknown): void };
  createSharedConfig(options?: { fromHost?: boolean }): Record<string, { import?: false; singleton: boolean }>;
};
const { createWebpackConfig } = require(path.join(kit, "webpack-config.cjs")) as {
  createWebpackConfig(options: {
    dir: string;
    name: string;
    title: string;
    port: number;
    host?: boolean;
  }): (
    env: unknown,
    argv: { mode: string },
  ) => { plugins: Array<{ constructor: { name: string }; _options?: { shared: Record<string, { import?: false }> } }> };
};

function pluginsOf(host: boolean, mode: "production" | "development") {
  const config = createWebpackConfig({ dir: kit, name: host ? "shell" : "room", title: "t", port: 0, host })(
    {},
    { mode },
  );
  const federationPlugin = config.plugins.find((plugin) => plugin._options?.shared);
  return { config, shared: federationPlugin?._options?.shared ?? {} };
}

describe("what a remote takes from the shell", () => {
  it("a remote's production build bundles none of HOST_PROVIDED; its development build and the shell keep them", () => {
    const remote = pluginsOf(false, "production").shared;
    for (const name of federation.HOST_PROVIDED) expect(remote[name]?.import, name).toBe(false);
    // What the shell does not provide (the chart, the prefixes) stays the remote's own.
    expect(remote["@tt/web-kit/chart"]?.import).toBeUndefined();
    expect(remote["@tt/proto/"]?.import).toBeUndefined();
    for (const shared of [pluginsOf(false, "development").shared, pluginsOf(true, "production").shared]) {
      for (const name of federation.HOST_PROVIDED) expect(shared[name]?.import, name).toBeUndefined();
    }
  });

  it("only the shell's production build checks what it provides", () => {
    const names = (host: boolean, mode: "production" | "development") =>
      pluginsOf(host, mode).config.plugins.map((plugin) => plugin.constructor.name);
    expect(names(true, "production")).toContain("HostProvidesCheck");
    expect(names(true, "development")).not.toContain("HostProvidesCheck");
    expect(names(false, "production")).not.toContain("HostProvidesCheck");
  });

  it("the check fails the shell's build when its manifest lacks one of HOST_PROVIDED", () => {
    const run = (provided: string[]) => {
      let emit: ((compilation: unknown) => void) | undefined;
      const compiler = {
        webpack: { WebpackError: Error },
        hooks: { emit: { tap: (_name: string, fn: (compilation: unknown) => void) => (emit = fn) } },
      };
      new federation.HostProvidesCheck().apply(compiler);
      const manifest = JSON.stringify({ shared: provided.map((name) => ({ name })) });
      const compilation = {
        errors: [] as Error[],
        getAsset: (name: string) =>
          name === "mf-manifest.json" ? { source: { source: () => Buffer.from(manifest) } } : undefined,
      };
      emit?.(compilation);
      return compilation.errors.map((error) => error.message);
    };
    expect(run(federation.HOST_PROVIDED)).toEqual([]);
    const errors = run(federation.HOST_PROVIDED.filter((name) => name !== "@tt/web-kit/form"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/no longer provides @tt\/web-kit\/form/);
  });
});
