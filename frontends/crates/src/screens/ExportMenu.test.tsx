import { Code, ConnectError } from "@connectrpc/connect";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { chooseFromMenu, clearToasts, lastToast } from "../testing/ui.ts";
import { ExportMenu } from "./ExportMenu.tsx";

describe("ExportMenu", () => {
  beforeEach(clearToasts);

  it("exports to a provider chosen by name: Spotify with a link to the playlist, Apple Music's §8 text when not connected", async () => {
    const user = userEvent.setup();
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
    renderWithKit(<ExportMenu crateUuid="c1" />, kit);
    await chooseFromMenu(user, "Export", "Spotify");
    const done = await screen.findByRole("link", { name: "Open the playlist in Spotify" });
    expect(done.getAttribute("href")).toBe("https://open.spotify.com/playlist/p1");
    expect(exported).toEqual(["spotify:c1"]);
    expect(lastToast()).toBe("success: Exported to Spotify.");
    await chooseFromMenu(user, "Export", "Apple Music");
    await waitFor(() => expect(lastToast()).toBe("error: Apple Music is not connected"));
  });
});
