import { screen } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RemoteErrorBoundary } from "./RemoteErrorBoundary.tsx";
import { renderWithKit } from "./testing/test-kit.tsx";

let broken = true;
function Flaky() {
  if (broken) throw new Error("RUNTIME-008: failed to load script");
  return <p>Room list</p>;
}

describe("RemoteErrorBoundary", () => {
  beforeEach(() => {
    broken = true;
    // React logs caught render errors; the test expects them.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows a clear fallback instead of the remote, and the remote again after retry", async () => {
    const onRetry = vi.fn();
    renderWithKit(
      <>
        <p>Header stays</p>
        <RemoteErrorBoundary title="Rooms" onRetry={onRetry}>
          <Flaky />
        </RemoteErrorBoundary>
      </>,
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Rooms is unavailable right now");
    expect(screen.getByText("Header stays").tagName).toBe("P");

    broken = false;
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Room list")).toBeTruthy();
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps showing the fallback when the retry fails too", async () => {
    renderWithKit(
      <RemoteErrorBoundary title="Shop">
        <Flaky />
      </RemoteErrorBoundary>,
    );
    await userEvent.click(await screen.findByRole("button", { name: "Try again" }));
    expect((await screen.findByRole("alert")).textContent).toContain("Shop is unavailable right now");
  });
});
