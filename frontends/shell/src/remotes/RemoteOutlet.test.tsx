import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestRuntime, renderShell } from "../testing/render-shell.tsx";
import { REMOTE_LOAD_FAILED } from "./remote-failure-plugin.ts";
import { loadRemoteApp, RemoteUnavailableError } from "./remote-loader.ts";

const RoomApp = () => <h1>Live rooms</h1>;
const ShopApp = () => <h1>Shop</h1>;

describe("remotes inside the shell", () => {
  beforeEach(() => vi.spyOn(console, "error").mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it("renders a remote that loads inside the layout", async () => {
    const { runtime, registered } = createTestRuntime({ room: RoomApp });
    renderShell({ path: "/room", runtime });
    expect(await screen.findByRole("heading", { name: "Live rooms" })).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeTruthy();
    expect(registered[0]).toEqual({ names: ["room", "crates", "shop", "admin"], force: false });
  });

  it("shows the fallback for a remote that is down, keeps the page, and recovers on retry", async () => {
    const user = userEvent.setup();
    const test = createTestRuntime({ room: RoomApp });
    renderShell({ path: "/shop", runtime: test.runtime, kit: createTestKit() });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Shop is unavailable right now");
    // The rest of the shell still works: navigate to a remote that is up.
    await user.click(screen.getByRole("link", { name: "Rooms" }));
    expect(await screen.findByRole("heading", { name: "Live rooms" })).toBeTruthy();

    await user.click(screen.getByRole("link", { name: "Shop" }));
    await screen.findByRole("alert");
    test.apps["shop"] = ShopApp;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "Shop" })).toBeTruthy();
  });
});

describe("loadRemoteApp (the retry layer)", () => {
  it("retries a failed load with the remote registered again, then returns its App", async () => {
    let calls = 0;
    const forced: boolean[] = [];
    const app = await loadRemoteApp(
      {
        register: (_remotes, force) => void forced.push(force),
        load: async () => {
          calls += 1;
          if (calls === 1) throw new Error("RUNTIME-003: failed to get manifest");
          return { App: RoomApp };
        },
      },
      { name: "room", entry: "/remotes/room/mf-manifest.json" },
      { backoff: () => 0 },
    );
    expect(app).toBe(RoomApp);
    expect(forced).toEqual([true]);
  });

  it("turns the errorLoadRemote stand-in and a missing App into RemoteUnavailableError", async () => {
    const failing = {
      register: () => undefined,
      load: async () => ({ [REMOTE_LOAD_FAILED]: new Error("script error") }),
    };
    await expect(
      loadRemoteApp(failing, { name: "shop", entry: "/x" }, { attempts: 2, backoff: () => 0 }),
    ).rejects.toBeInstanceOf(RemoteUnavailableError);
    const empty = { register: () => undefined, load: async () => ({}) };
    await expect(loadRemoteApp(empty, { name: "crates", entry: "/x" }, { attempts: 1 })).rejects.toThrow(
      'The remote "crates" could not be loaded',
    );
  });
});
