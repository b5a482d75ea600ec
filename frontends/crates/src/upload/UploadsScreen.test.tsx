import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { UploadedSongSchema, type UploadedSong } from "@tt/proto/tt/upload/v1/song_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { clearToasts, toasts } from "../testing/ui.ts";
import { UploadError, type Uploader } from "./upload-client.ts";
import { parseDuration } from "./duration.ts";
import { UploadsScreen } from "./UploadsScreen.tsx";

const OWNER = { uuid: "00000000-0000-4000-8000-000000000001", email: "dj@example.test", role: "user" };

/** A small upload service: songs by id, each GetSong moving a packaging song one step on. */
function uploadService(opts: { capabilities?: string[]; editRefused?: boolean } = {}) {
  const songs = new Map<bigint, UploadedSong>();
  const edits: unknown[] = [];
  const deleted: bigint[] = [];
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
      deleteSong(request) {
        if (!songs.delete(request.id)) throw new ConnectError("Song not found", Code.NotFound);
        deleted.push(request.id);
        return {};
      },
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
  return { routes, songs, edits, deleted, add };
}

function signedIn(routes: (router: ConnectRouter) => void, search = "") {
  const kit = createTestKit({ routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, OWNER);
  return kit;
}

describe("parseDuration", () => {
  it.each([
    ["205", 205],
    ["3:25", 205],
    ["0:05", 5],
    ["1:02:05", 3725],
    [" 12 ", 12],
    ["4.5", 4.5],
    ["3:75", undefined],
    ["1:75:00", undefined],
    ["", undefined],
    ["three", undefined],
  ])("%j → %s seconds", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });
});

describe("upload screens", () => {
  beforeEach(clearToasts);

  it("tells a user without the uploadMusic capability that they cannot upload, and shows no form", async () => {
    const service = uploadService({ capabilities: [] });
    renderWithKit(<UploadsScreen uploader={() => Promise.reject(new Error("not called"))} />, signedIn(service.routes));
    expect(await screen.findByRole("heading", { name: "You can't upload music yet" })).toBeTruthy();
    expect(screen.queryByLabelText("Audio file")).toBeNull();
    // The next step instead: finding songs others uploaded.
    expect(screen.getAllByRole("link", { name: "Search for songs" })[0]?.getAttribute("href")).toBe("/search");
    // Or redeeming a voucher, on the shell's page.
    expect(screen.getByRole("link", { name: "Redeem a voucher" }).getAttribute("href")).toBe("/vouchers");
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

    expect((await screen.findByTestId("upload-status")).textContent).toBe("Needs details");
    expect(toasts()).toContain("success: “tone.mp3” uploaded.");
    expect((await screen.findByLabelText<HTMLInputElement>("Duration")).value).toBe("0:05");
    fireEvent.change(screen.getByLabelText("Title", { exact: true }), { target: { value: "Test tone" } });
    fireEvent.change(screen.getByLabelText("Artist", { exact: true }), { target: { value: "The Oscillators" } });
    fireEvent.click(screen.getByRole("button", { name: "Save details" }));
    await waitFor(() =>
      expect(service.edits).toEqual([{ trackName: "Test tone", artistName: "The Oscillators", duration: 5 }]),
    );

    await waitFor(() => expect(screen.getByTestId("upload-status").textContent).toBe("Ready"), {
      timeout: 5000,
    });
    expect(toasts()).toContain("success: Details saved: packaging “Test tone”.");
    await waitFor(() => expect(toasts()).toContain("success: “Test tone” is ready to play."));
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
    expect((await screen.findByRole("alert")).textContent).toBe("Enter a duration between 0:01 and 3:00:00.");
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
    fireEvent.change(await screen.findByLabelText("Duration"), { target: { value: "12" } });
    fireEvent.click(screen.getByRole("button", { name: "Save details" }));
    await screen.findByText("Unauthorized to edit tags that not belongs to the user");
  });

  it("lists uploads with their status in words, and removes one after asking", async () => {
    const user = userEvent.setup();
    const service = uploadService();
    service.add({ status: "VERIFIED", trackName: "Keeper", artistName: "Ada", duration: 200 });
    const gone = service.add({ status: "VERIFICATION_ERROR", trackName: "Broken", artistName: "Ada", duration: 10 });
    renderWithKit(<UploadsScreen />, signedIn(service.routes));
    const list = await screen.findByRole("list", { name: "Your uploaded songs" });
    expect(within(list).getByText("Ready")).toBeTruthy();
    expect(within(list).getByText("Packaging failed")).toBeTruthy();
    expect(within(list).getByText("3:20")).toBeTruthy();
    await user.click(within(list).getByRole("button", { name: "Remove Broken" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Remove “Broken”?" });
    await user.click(within(dialog).getByRole("button", { name: "Remove upload" }));
    await waitFor(() => expect(service.deleted).toEqual([gone]));
    await waitFor(() => expect(within(list).queryByText("Broken")).toBeNull());
    expect(toasts()).toContain("success: “Broken” removed.");
  });

  it("says what to do when nothing is uploaded yet", async () => {
    const service = uploadService();
    renderWithKit(<UploadsScreen />, signedIn(service.routes));
    expect(await screen.findByRole("heading", { name: "No uploads yet" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Upload a song" })).toBeTruthy();
  });
});
