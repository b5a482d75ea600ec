import { screen } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { UserBadges } from "./UserBadges.tsx";

describe("UserBadges", () => {
  it("shows a staff role, then the badges as words, verified in green", () => {
    renderWithKit(<UserBadges role="admin" badges={["VERIFIED", "PLATINUM"]} className="tt-x" />);
    const row = screen.getByText("Verified").closest("p")!;
    expect(row.className).toBe("tt-user-badges tt-x");
    expect([...row.children].map((badge) => [badge.textContent, badge.className])).toEqual([
      ["Admin", "tt-badge tt-badge--accent"],
      ["Verified", "tt-badge tt-badge--success"],
      ["Platinum", "tt-badge"],
    ]);
  });

  it("shows nothing for a plain account without badges", () => {
    const { container } = renderWithKit(<UserBadges role="user" badges={[]} />);
    expect(container.querySelector(".tt-user-badges")).toBeNull();
  });
});
