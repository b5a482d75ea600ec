import { act, screen, waitFor, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { importRefetchInterval } from "../api/hooks.ts";
import { createTestCrateService, TEST_USER_UUID, type TestCrateService } from "../testing/crate-service.ts";
import { clearToasts, toasts } from "../testing/ui.ts";
import { CratesScreen } from "./CratesScreen.tsx";

describe("importRefetchInterval (002 §4)", () => {
  it.each([
    [[], false],
    [[{ importStatus: "" }], false],
    [[{ importStatus: "COMPLETE" }, { importStatus: "FAILED" }], false],
    [[{ importStatus: "COMPLETE" }, { importStatus: "IN_PROGRESS" }], 5_000],
  ])("%j → %s", (crates, interval) => {
    expect(importRefetchInterval(crates)).toBe(interval);
  });
});

describe("CratesScreen while a playlist is imported", () => {
  let service: TestCrateService;
  beforeEach(() => {
    service = createTestCrateService();
    clearToasts();
    window.history.replaceState(null, "", "/crates");
  });
  afterEach(() => {
    vi.useRealTimers();
    window.history.replaceState(null, "", "/");
  });

  it("refreshes the list every 5 seconds until the import ends, then stops", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const imported = service.addCrate("Imported mix", ["One"], { importStatus: "IN_PROGRESS" });
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(<CratesScreen />, kit);
    const card = (await screen.findByRole("link", { name: /Imported mix/ })).closest("li") as HTMLElement;
    expect(within(card).getByRole("progressbar", { name: "Import progress" })).toBeTruthy();
    expect(within(card).getByText("Importing… 1 song")).toBeTruthy();
    const lists = () => service.calls.filter((call) => call === "ListMyCrates").length;
    expect(lists()).toBe(1);

    imported.songs.push(...service.addCrate("x", ["Two", "Three"]).songs);
    await act(async () => void (await vi.advanceTimersByTimeAsync(4_900)));
    expect(lists()).toBe(1);
    await act(async () => void (await vi.advanceTimersByTimeAsync(200)));
    await waitFor(() => expect(within(card).getByText("Importing… 3 songs")).toBeTruthy());
    expect(lists()).toBe(2);

    imported.crate.importStatus = "COMPLETE";
    await act(async () => void (await vi.advanceTimersByTimeAsync(5_000)));
    await waitFor(() => expect(within(card).getByText("Imported")).toBeTruthy());
    expect(within(card).queryByRole("progressbar")).toBeNull();
    // The end of the import is told once, as a toast.
    expect(toasts()).toEqual(["success: “Imported mix” is imported: 3 songs."]);
    const after = lists();
    await act(async () => void (await vi.advanceTimersByTimeAsync(20_000)));
    expect(lists()).toBe(after);
  });
});
