import { getPageAnalytics } from "@tt/web-kit";
import { act, render, waitFor } from "@testing-library/react";
import { memoryLocation } from "wouter/memory-location";
import { afterAll, describe, expect, it } from "vitest";
import { Router } from "../router.tsx";
import { PageViews } from "./PageViews.tsx";

afterAll(() => getPageAnalytics().close());

describe("PageViews", () => {
  it("queues one page view per route, after the render", async () => {
    const analytics = getPageAnalytics();
    const location = memoryLocation({ path: "/rooms" });
    render(
      <Router hook={location.hook}>
        <PageViews />
      </Router>,
    );
    await waitFor(() => expect(analytics.pending()).toBe(1));
    act(() => location.navigate("/magic-link/secret-token/x"));
    await waitFor(() => expect(analytics.pending()).toBe(2));
  });
});
