import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { UploadedSongSchema, type UploadedSong } from "@tt/proto/tt/upload/v1/song_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { UploadError, type Uploader } from "./upload-client.ts";
import { UploadsScreen } from "./UploadsScreen.tsx";

const OWNER = { uuid: "00000000-0000-4000-8000-000000000001", email: "dj@example.test", role: "user" };

/** A small upload service: songs by id, each GetSong moving a packaging song one step on. */
function uploadService(opts: { capabilities?: string[]; editRefused?: boolean } = {}) {
  const songs = new Map<bigint, UploadedSong>();
  const edits: unknown[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(ProfileService, {
      getCapabilities: () => ({ capabilities: opts.capabilities ?? ["uploadMusic"], available: ["uploadMusic"] }),
    });
    router.service(SongService, {
      getSong(request) {
        const song = songs.get(request.id);
        if (!song) throw new ConnectError("Song not found", Code.NotFound);
        if (song.status === "UNVERIFIED") {
          song.progress += 50;
          if (song.progress >= 100) {
            song.status = "VERIFIED";
            song.hlsPlaylistUrl = `/api/room-service/songs/${song.songId}/hls-playlist`;
          }
        }
        return { song };
      },
      updateMetadata(request) {
        if (opts.editRefused) {
          throw new ConnectError("Unauthorized to edit tags that not belongs to the user", Code.PermissionDenied);
        }
        edits.push({ trackName: request.trackName, artistName: request.artistName, duration: request.duration });
        const song = songs.get(request.songId)!;
        Object.assign(song, {
          trackName: request.trackName,
          artistName: request.artistName,
          duration: request.duration,
          status: "UNVERIFIED",
          progress: 0,
          missingFields: [],
        });
        return { song };
      },
      listSongs: () => ({ songs: [...songs.values()].reverse(), total: songs.size }),
    });
  };
  const add = (
    fields: Pick<Partial<UploadedSong>, "status" | "trackName" | "artistName" | "duration" | "missingFields">,
  ) => {
    const songId = BigInt(songs.size + 1);
    songs.set(
      songId,
      create(UploadedSongSchema, {
        songId,
        ownerUuid: OWNER.uuid,
        musicProviders: { uploadService: String(songId) },
        ...fields,
      }),
    );
    return songId;
  };
  return { routes, songs, edits, add };
}

function signedIn(routes: (router: ConnectRouter) => void, search = "") {
  const kit = createTestKit({ routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, OWNER);
  return kit;
}

describe("upload screens", () => {
  it("tells a user without the uploadMusic capability that they cannot upload, and shows no form", async () => {
    const service = uploadService({ capabilities: [] });
    renderWithKit(<UploadsScreen uploader={() => Promise.reject(new Error("not called"))} />, signedIn(service.routes));
    expect(await screen.findByRole("heading", { name: "You can't upload music yet" })).toBeTruthy();
    expect(screen.queryByLabelText("Audio file")).toBeNull();
  });

  it("says it in Spanish too", async () => {
    const service = uploadService({ capabilities: [] });
    renderWithKit(<UploadsScreen />, signedIn(service.routes, "?lang=es"));
    expect(await screen.findByRole("heading", { name: "Todavía no puedes subir música" })).toBeTruthy();
  });

  it("uploads with progress, asks for the missing details, follows packaging and previews the verified song", async () => {
    const service = uploadService();
    let report: (fraction: number) => void = () => undefined;
    let finish: () => void = () => undefined;
    const uploader: Uploader = (input, onProgress) => {
      expect(input.file.name).toBe("tone.mp3");
      report = onProgress;
      return new Promise((resolve) => {
        finish = () => {
          const id = service.add({
            status: "MISSING_METADATA",
            missingFields: ["trackName", "artistName"],
            duration: 5,
          });
          resolve({ songId: String(id), status: "MISSING_METADATA" });
        };
      });
    };
    renderWithKit(<UploadsScreen uploader={uploader} />, signedIn(service.routes));
    const input = await screen.findByLabelText("Audio file");
    fireEvent.change(input, { target: { files: [new File(["ID3"], "tone.mp3", { type: "audio/mpeg" })] } });
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    await waitFor(() => expect(report).not.toBe(undefined));
    await waitFor(() => report(0.5));
    const bar = await screen.findByRole("progressbar", { name: "Upload progress" });
    await waitFor(() => expect(bar.getAttribute("value")).toBe("50"));
    finish();

    expect((await screen.findByTestId("upload-status")).textContent).toBe("Needs its title, artist or duration");
    expect(screen.getByLabelText<HTMLInputElement>("Duration (seconds)").value).toBe("5");
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Test tone" } });
    fireEvent.change(screen.getByLabelText("Artist"), { target: { value: "The Oscillators" } });
    fireEvent.click(screen.getByRole("button", { name: "Save details" }));
    await waitFor(() =>
      expect(service.edits).toEqual([{ trackName: "Test tone", artistName: "The Oscillators", duration: 5 }]),
    );

    await waitFor(() => expect(screen.getByTestId("upload-status").textContent).toBe("Ready to play"), {
      timeout: 5000,
    });
    const list = await screen.findByRole("list", { name: "Your uploaded songs" });
    const preview = await within(list).findByRole("button", { name: "Preview Test tone" });
    fireEvent.click(preview);
    expect(await screen.findByLabelText("Preview of Test tone")).toBeTruthy();
    expect(within(list).getByRole("button", { name: "Stop preview" })).toBeTruthy();
  });

  it("refuses an empty duration before asking the server", async () => {
    const service = uploadService();
    const id = service.add({ status: "MISSING_METADATA", trackName: "A", artistName: "B", duration: 0 });
    renderWithKit(<UploadsScreen />, signedIn(service.routes));
    fireEvent.click(await screen.findByRole("button", { name: "Complete details of A" }));
    fireEvent.click(await screen.findByRole("button", { name: "Save details" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Enter a duration in seconds between 1 and 10800.");
    expect(service.edits).toEqual([]);
    expect(service.songs.get(id)?.status).toBe("MISSING_METADATA");
  });

  it("shows the server's refusal texts: the upload's 403 and the tags' 403", async () => {
    const service = uploadService({ editRefused: true });
    service.add({ status: "MISSING_METADATA", trackName: "A", artistName: "B", duration: 0 });
    const uploader: Uploader = () =>
      Promise.reject(new UploadError(403, "Uploading music requires the uploadMusic capability"));
    renderWithKit(<UploadsScreen uploader={uploader} />, signedIn(service.routes));
    fireEvent.change(await screen.findByLabelText("Audio file"), {
      target: { files: [new File(["x"], "a.mp3")] },
    });
    fireEvent.click(screen.getByRole("button", { name: "Upload" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Uploading music requires the uploadMusic capability");

    fireEvent.click(await screen.findByRole("button", { name: "Complete details of A" }));
    fireEvent.change(await screen.findByLabelText("Duration (seconds)"), { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Save details" }));
    await screen.findByText("Unauthorized to edit tags that not belongs to the user");
  });
});
