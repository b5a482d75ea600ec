import { Code, ConnectError } from "@connectrpc/connect";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { fireEvent, screen } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { ExportButtons } from "./ExportButtons.tsx";

describe("ExportButtons", () => {
  it("exports to Spotify with a link to the playlist, and shows the §8 text when Apple Music is not connected", async () => {
    const exported: string[] = [];
    const kit = createTestKit({
      routes: (router) =>
        router.service(ExportService, {
          exportToSpotify: ({ crateUuid }) => {
            exported.push(`spotify:${crateUuid}`);
            return { playlistId: "p1", link: "https://open.spotify.com/playlist/p1", exported: 2, skipped: 0 };
          },
          exportToApple: () => {
            throw new ConnectError("apple Music is not connected", Code.FailedPrecondition);
          },
        }),
    });
    kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u1", email: "a@example.com", role: "user" });
    renderWithKit(<ExportButtons crateUuid="c1" />, kit);
    fireEvent.click(screen.getByRole("button", { name: "Export to Spotify" }));
    const done = await screen.findByRole("link", { name: "Exported to Spotify." });
    expect(done.getAttribute("href")).toBe("https://open.spotify.com/playlist/p1");
    expect(exported).toEqual(["spotify:c1"]);
    fireEvent.click(screen.getByRole("button", { name: "Export to Apple Music" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Apple Music is not connected");
  });
});
