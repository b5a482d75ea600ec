import { fireEvent, screen } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { FollowButton } from "./FollowButton.tsx";

describe("FollowButton", () => {
  const labels = { followLabel: "Follow this DJ", unfollowLabel: "Unfollow" };

  it("offers to follow (the primary action) once it is known, and to stop while followed", () => {
    const calls: string[] = [];
    const props = { ...labels, onFollow: () => calls.push("follow"), onUnfollow: () => calls.push("unfollow") };
    const { rerender } = renderWithKit(<FollowButton following={false} checking {...props} />);
    expect(screen.getByRole("button", { name: "Follow this DJ" }).hasAttribute("disabled")).toBe(true);
    rerender(<FollowButton following={false} {...props} />);
    const follow = screen.getByRole("button", { name: "Follow this DJ" });
    expect(follow.className).toBe("tt-button");
    fireEvent.click(follow);
    rerender(<FollowButton following {...props} checking />);
    const unfollow = screen.getByRole("button", { name: "Unfollow" });
    expect(unfollow.className).toBe("tt-button tt-button--secondary");
    fireEvent.click(unfollow);
    expect(calls).toEqual(["follow", "unfollow"]);
  });

  it("offers neither while a change is under way", () => {
    const props = { ...labels, onFollow: () => {}, onUnfollow: () => {}, busy: true };
    const { rerender } = renderWithKit(<FollowButton following={false} {...props} />);
    expect(screen.getByRole("button", { name: "Follow this DJ" }).hasAttribute("disabled")).toBe(true);
    rerender(<FollowButton following {...props} />);
    expect(screen.getByRole("button", { name: "Unfollow" }).hasAttribute("disabled")).toBe(true);
  });

  it("comes small in a list's row", () => {
    const props = { ...labels, onFollow: () => {}, onUnfollow: () => {}, size: "sm" as const };
    const { rerender } = renderWithKit(<FollowButton following={false} {...props} />);
    expect(screen.getByRole("button", { name: "Follow this DJ" }).className).toBe("tt-button tt-button--sm");
    rerender(<FollowButton following {...props} />);
    expect(screen.getByRole("button", { name: "Unfollow" }).className).toBe(
      "tt-button tt-button--secondary tt-button--sm",
    );
  });
});
