import { screen, within } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { FollowCounts } from "./FollowCounts.tsx";

describe("FollowCounts", () => {
  it("names the list and each count in words, the numbers in the reader's locale", () => {
    renderWithKit(<FollowCounts fans={1204} following={3} />);
    const list = screen.getByTestId("fan-count").closest("dl")!;
    expect(list.getAttribute("aria-label")).toBe("Fans and following");
    expect(within(list).getByTestId("fan-count").textContent).toBe("1,204");
    expect(within(list).getByTestId("following-count").textContent).toBe("3");
    expect(list.textContent).toBe("Fans1,204Following3");
  });

  it("shows a dash while the counts are unknown", () => {
    renderWithKit(<FollowCounts fans={undefined} following={undefined} size="lg" />);
    expect(screen.getByTestId("fan-count").textContent).toBe("–");
    expect(screen.getByTestId("following-count").textContent).toBe("–");
  });
});
