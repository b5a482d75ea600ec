import { screen, fireEvent, within } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { createTestMerchService, TEST_USER_UUID } from "../testing/merch-service.ts";
import { RankingScreen } from "./RankingScreen.tsx";

describe("RankingScreen", () => {
  it("shows the current season, your rank, and pages the leaderboard with take and skip", async () => {
    const service = createTestMerchService();
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(<RankingScreen />, kit);
    expect(await screen.findByRole("heading", { name: "Season Winter" })).toBeTruthy();
    expect((await screen.findByTestId("my-rank")).textContent).toBe("#4 with 970 points");
    const board = await screen.findByRole("list", { name: "Season leaderboard" });
    expect(board.querySelectorAll("li")).toHaveLength(10);
    // People by name (one profile batch for the page), never by id; someone the service no longer knows by a word.
    expect(await within(board).findByText("Ada")).toBeTruthy();
    expect(within(board).getByText("Former member")).toBeTruthy();
    expect(board.textContent).not.toMatch(/[0-9a-f]{8}-/);
    expect(screen.getByRole("button", { name: "Previous" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("#11")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(await screen.findByText("#21")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Next" })).toHaveProperty("disabled", true);
    expect(service.calls.filter((c) => c.startsWith("GetSeasonRanking"))).toEqual([
      "GetSeasonRanking:10:0",
      "GetSeasonRanking:10:10",
      "GetSeasonRanking:10:20",
    ]);
  });

  it("shows a designed empty state while no season runs, without asking for the season (its 404 is logged)", async () => {
    const service = createTestMerchService({ season: false });
    const kit = createTestKit({ routes: service.routes });
    kit.session.signIn(
      { token: "t", tokenType: "user" },
      { uuid: TEST_USER_UUID, email: "a@example.com", role: "user" },
    );
    renderWithKit(<RankingScreen />, kit);
    expect(await screen.findByRole("heading", { name: "No season is running" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go to the rooms" }).getAttribute("href")).toBe("/room");
    expect(service.calls).not.toContain("GetCurrentSeason");
  });
});
