import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CountChart, seriesOf } from "./CountChart.tsx";

const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour));

describe("analytics chart", () => {
  it("draws one line per topic, its points in time order", () => {
    const points = [
      { at: at(2), topic: "page-view", count: 5 },
      { at: at(1), topic: "page-view", count: 3 },
      { at: at(1), topic: "login-action", count: 1 },
    ];
    expect([
      ...seriesOf(points)
        .get("page-view")!
        .map((p) => p.count),
    ]).toEqual([3, 5]);
    const { container } = render(
      <CountChart points={points} label="Events per hour" format={(d) => d.toISOString()} />,
    );
    expect(screen.getByRole("img", { name: "Events per hour" })).toBeTruthy();
    expect(container.querySelectorAll("polyline")).toHaveLength(2);
    expect(
      container.querySelector('[data-topic="page-view"] polyline')!.getAttribute("points")!.split(" "),
    ).toHaveLength(2);
    expect(screen.getByText("5")).toBeTruthy(); // the largest count labels the axis
    expect(screen.getAllByRole("listitem").map((item) => item.textContent?.trim())).toEqual([
      "page-view",
      "login-action",
    ]);
  });
});
