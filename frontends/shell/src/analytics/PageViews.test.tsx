import { getPageAnalytics } from "@tt/web-kit";
import { act, render, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterAll, describe, expect, it } from "vitest";
import { PageViews } from "./PageViews.tsx";

afterAll(() => getPageAnalytics().close());

describe("PageViews", () => {
  it("queues one page view per route, after the render", async () => {
    const analytics = getPageAnalytics();
    const router = createMemoryRouter([{ path: "*", element: <PageViews /> }], { initialEntries: ["/rooms"] });
    render(<RouterProvider router={router} />);
    await waitFor(() => expect(analytics.pending()).toBe(1));
    await act(() => router.navigate("/magic-link/secret-token/x"));
    await waitFor(() => expect(analytics.pending()).toBe(2));
  });
});
