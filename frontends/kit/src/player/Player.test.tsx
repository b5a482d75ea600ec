import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createTestKit, renderWithKit } from "../testing/index.ts";
import { AUDIO_QUALITY_STORAGE_KEY } from "./constants.ts";
import type { PlayerController } from "./controller.ts";
import { needsListenerCredentials, Player, resolveUploadUrl } from "./Player.tsx";
import { loadPlayer, Player as LazyPlayer } from "./public.ts";
import type { PlayHandler } from "./types.ts";

const idle: PlayHandler = {
  group: "url",
  providers: ["uploadService"],
  play: async (request) => ({ source: request.song.streamUrls?.uploadService?.hls ?? "", stop: () => undefined }),
};

describe("Player", () => {
  it('shows "Unknown provider" in the listener\'s language', async () => {
    renderWithKit(
      <Player song={{ musicProviders: { gramophone: "x" } }} urlHandler={idle} />,
      createTestKit({ search: "?lang=es" }),
    );
    expect((await screen.findByRole("alert")).textContent).toBe("Proveedor desconocido");
  });

  it('shows "Missing URL to play from" the provider for an uploaded song without its stream', async () => {
    renderWithKit(<Player song={{ musicProviders: { uploadService: "4" } }} />);
    expect((await screen.findByRole("alert")).textContent).toBe("Missing URL to play from uploadService");
  });

  it("offers the three qualities, medium first, and remembers a signed-in listener's choice", async () => {
    const kit = createTestKit();
    kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: "u1", email: "a@example.test", role: "user" });
    let controller: PlayerController | null = null;
    renderWithKit(
      <Player
        song={{ musicProviders: { uploadService: "4" }, streamUrls: { uploadService: { hls: "/m.m3u8" } } }}
        urlHandler={idle}
        onController={(c) => (controller = c)}
      />,
      kit,
    );
    const select = screen.getByRole<HTMLSelectElement>("combobox", { name: "Audio quality" });
    expect(select.value).toBe("medium");
    expect([...select.options].map((option) => option.textContent)).toEqual(["Low", "Medium", "High"]);
    fireEvent.change(select, { target: { value: "high" } });
    expect(localStorage.getItem(AUDIO_QUALITY_STORAGE_KEY)).toBe("high");
    expect(select.value).toBe("high");
    await screen.findByTestId("tt-player-media");
    expect(controller).not.toBeNull();
    // Signing out puts it back to medium.
    act(() => kit.session.clear());
    expect(select.value).toBe("medium");
  });

  it("leaves stream URLs on the page's origin without a runtime configuration, and other providers' URLs alone", async () => {
    expect(await resolveUploadUrl("/api/room-service/songs/3/hls-playlist", "uploadService")).toBe(
      "/api/room-service/songs/3/hls-playlist",
    );
    expect(await resolveUploadUrl("https://cdn.example.test/a.m3u8", "uploadService")).toBe(
      "https://cdn.example.test/a.m3u8",
    );
    expect(await resolveUploadUrl("/a.mp3", "audius")).toBe("/a.mp3");
  });

  it("sends the listener's token for playlists and the key only, never for segments", () => {
    expect(needsListenerCredentials("/api/room-service/songs/12/hls-playlist")).toBe(true);
    expect(needsListenerCredentials("http://gw.test/api/upload-service/songs/12/hls/medium")).toBe(true);
    expect(needsListenerCredentials("/api/room-service/songs/hls/key?songId=12&expires=1&token=x")).toBe(true);
    expect(needsListenerCredentials("/api/upload-service/media/8b1c/00ab/medium/seg_00001.ts")).toBe(false);
  });

  it("is fetched on first use through the kit's entry: the lazy component and the headless controller", async () => {
    renderWithKit(<LazyPlayer song={{ musicProviders: { gramophone: "x" } }} urlHandler={idle} />);
    expect((await screen.findByRole("alert")).textContent).toBe("Unknown provider");
    const player = await loadPlayer();
    expect(typeof player.createPlayerController).toBe("function");
    expect(player.chooseProvider({ musicProviders: { uploadService: "1" } }, [idle]).provider).toBe("uploadService");
  });
});
