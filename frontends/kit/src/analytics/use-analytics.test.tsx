import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { getPageKit } from "../kit.ts";
import { createTestKit, recordAnalytics, renderWithKit } from "../testing/index.ts";
import { analyticsFor, getPageAnalytics } from "./page.ts";
import { useAnalytics } from "./use-analytics.ts";

function Buy() {
  const analytics = useAnalytics();
  return (
    <button type="button" onClick={() => analytics.track("shop-action", { action: "buy" })}>
      Buy
    </button>
  );
}

describe("useAnalytics", () => {
  it("is the page's client for the page's kit, one client per other kit", () => {
    expect(analyticsFor(getPageKit())).toBe(getPageAnalytics());
    const kit = createTestKit();
    expect(analyticsFor(kit)).toBe(analyticsFor(kit));
    expect(analyticsFor(kit)).not.toBe(getPageAnalytics());
    getPageAnalytics().close();
    analyticsFor(kit).close();
  });

  it("a test sink records what a screen tracks, with the guest rule of the real client", () => {
    const kit = createTestKit();
    const sink = recordAnalytics(kit);
    renderWithKit(<Buy />, kit);
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    expect(sink.events).toEqual([]);
    kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u", email: "e@x", role: "user" });
    fireEvent.click(screen.getByRole("button", { name: "Buy" }));
    expect(sink.of("shop-action")).toEqual([{ action: "buy" }]);
    expect(sink.events[0]?.deviceData).toEqual({ platform: "web", isDiscord: false, isLoggedIn: true });
  });

  it("without a sink a kit's client sends its batch through the kit's REST call to /kinesis", async () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const kit = createTestKit({
        rest: async (service, path, init) => {
          calls.push(`${service} ${path} ${String(init?.body)}`);
          return new Response("{}");
        },
      });
      kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u", email: "e@x", role: "user" });
      renderWithKit(<Buy />, kit);
      fireEvent.click(screen.getByRole("button", { name: "Buy" }));
      // Queued, not sent: the page never waits for analytics.
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(/^audit \/kinesis \{"topic":"shop-action","record":\{"action":"buy"\}/);
      analyticsFor(kit).close();
    } finally {
      vi.useRealTimers();
    }
  });
});
