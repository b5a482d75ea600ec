import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { createKit, type Kit } from "@tt/web-kit";
import { MemoryStorage, renderWithKit } from "@tt/web-kit/testing";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import "../testing/ui.ts";
import { ProviderTokenService } from "./api.ts";
import {
  createAgoraEngine,
  type AgoraClient,
  type AgoraMicrophoneTrack,
  type AgoraRemoteUser,
  type AgoraSdk,
  type LiveAudioEngine,
  type LiveAudioJoin,
} from "./live-audio.ts";
import { LiveAudio } from "./LiveAudio.tsx";

const ROOM = "00000000-0000-4000-8000-000000000001";
const OWNER = "00000000-0000-4000-8000-0000000000d1";
const LISTENER = "00000000-0000-4000-8000-0000000000e1";
const APP_ID = "0123456789abcdef0123456789abcdef";

// The user service's token endpoint over real HTTP (Connect, as the gateway serves it): it records each request
// with its caller, and answers like the service (the caller's uuid as the Agora account).
let server: Server;
let origin: string;
const requests: { channel: string; role: string; caller: string | undefined }[] = [];
let refuse: ConnectError | undefined;

beforeAll(async () => {
  const adapter = connectNodeAdapter({
    routes: (router) =>
      router.service(ProviderTokenService, {
        createAgoraToken(request, context) {
          const caller = /^Bearer t:(.+)$/.exec(context.requestHeader.get("Authorization") ?? "")?.[1];
          requests.push({ channel: request.channel, role: request.role, caller });
          if (refuse) throw refuse;
          return {
            token: `token-${request.role}-${caller}`,
            appId: APP_ID,
            uid: caller ?? "",
            channel: request.channel,
            expiresAt: timestampFromMs(Date.now() + 3_600_000),
          };
        },
      }),
  });
  server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", req.headers.origin ?? "*");
    res.setHeader("Access-Control-Allow-Headers", "*");
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    adapter(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  requests.length = 0;
  refuse = undefined;
});

/** A recording stand-in for the Agora engine: what was joined, what was left; `fail` makes the next join fail. */
function recordingEngine() {
  const joins: LiveAudioJoin[] = [];
  const left: LiveAudioJoin[] = [];
  let loads = 0;
  const state = { fail: undefined as Error | undefined };
  const engine: LiveAudioEngine = {
    async join(request) {
      if (state.fail) {
        const error = state.fail;
        state.fail = undefined;
        throw error;
      }
      joins.push(request);
      return { leave: async () => void left.push(request) };
    },
  };
  const load = async () => {
    loads += 1;
    return engine;
  };
  return { joins, left, load, state, loads: () => loads };
}

function kitFor(user: string | undefined): Kit {
  const kit = createKit({ baseUrl: origin, storage: new MemoryStorage() });
  if (user) {
    kit.session.signIn(
      { token: `t:${user}`, tokenType: "user" },
      { uuid: user, email: `${user}@x.test`, role: "user" },
    );
  }
  return kit;
}

describe("a room's live audio (issue 14)", () => {
  it("the owner publishes: a PUBLISHER token for the room's channel, joined as host; leaving the page leaves", async () => {
    const engine = recordingEngine();
    const { unmount } = renderWithKit(
      <LiveAudio room={ROOM} me={OWNER} isOwner appId={APP_ID} loadEngine={engine.load} />,
      kitFor(OWNER),
    );
    await screen.findByText(/You are on air/);
    expect(requests).toEqual([{ channel: ROOM, role: "PUBLISHER", caller: OWNER }]);
    expect(engine.joins).toEqual([
      { appId: APP_ID, channel: ROOM, token: `token-PUBLISHER-${OWNER}`, uid: OWNER, role: "PUBLISHER" },
    ]);
    expect(screen.getByTestId("live-audio").dataset["status"]).toBe("joined");
    unmount();
    await waitFor(() => expect(engine.left).toHaveLength(1));
  });

  it("a listener subscribes to the room's channel and plays it", async () => {
    const engine = recordingEngine();
    renderWithKit(
      <LiveAudio room={ROOM} me={LISTENER} isOwner={false} appId={APP_ID} loadEngine={engine.load} />,
      kitFor(LISTENER),
    );
    await screen.findByText(/You hear the room's live audio/);
    expect(requests).toEqual([{ channel: ROOM, role: "SUBSCRIBER", caller: LISTENER }]);
    expect(engine.joins.map((join) => [join.role, join.uid, join.token])).toEqual([
      ["SUBSCRIBER", LISTENER, `token-SUBSCRIBER-${LISTENER}`],
    ]);
  });

  it("without Agora says it is unavailable, and neither asks for a token nor loads the SDK", async () => {
    const engine = recordingEngine();
    renderWithKit(
      <LiveAudio room={ROOM} me={LISTENER} isOwner={false} appId={undefined} loadEngine={engine.load} />,
      kitFor(LISTENER),
    );
    expect(screen.getByTestId("live-audio").textContent).toContain("Agora is not configured");
    // A guest gets no token (the endpoint is for users and bots): they are asked to sign in.
    renderWithKit(
      <LiveAudio room={ROOM} me={undefined} isOwner={false} appId={APP_ID} loadEngine={engine.load} />,
      kitFor(undefined),
    );
    expect(await screen.findByText(/Sign in to hear the room's live audio/)).toBeTruthy();
    expect(requests).toEqual([]);
    expect(engine.loads()).toBe(0);
  });

  it("shows why it could not start (the server's message, the SDK's), and tries again on request", async () => {
    const engine = recordingEngine();
    refuse = new ConnectError("channel must be 1 to 64 characters Agora accepts", Code.InvalidArgument);
    renderWithKit(
      <LiveAudio room={ROOM} me={LISTENER} isOwner={false} appId={APP_ID} loadEngine={engine.load} />,
      kitFor(LISTENER),
    );
    expect(await screen.findByText(/Live audio could not start: Channel must be 1 to 64/)).toBeTruthy();
    refuse = undefined;
    engine.state.fail = new Error("NotAllowedError: Permission denied");
    fireEvent.click(screen.getByRole("button", { name: "Try live audio again" }));
    expect(await screen.findByText(/Live audio could not start: NotAllowedError: Permission denied/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Try live audio again" }));
    await screen.findByText(/You hear the room's live audio/);
    expect(requests).toHaveLength(3);
    expect(engine.joins).toHaveLength(1);
  });

  it("speaks Spanish", async () => {
    const engine = recordingEngine();
    const kit = kitFor(OWNER);
    await kit.i18n.changeLanguage("es");
    renderWithKit(<LiveAudio room={ROOM} me={OWNER} isOwner appId={APP_ID} loadEngine={engine.load} />, kit);
    expect(await screen.findByText(/Estás en el aire/)).toBeTruthy();
  });
});

/** A recording stand-in for the Agora Web SDK, to drive the engine that sits on it. */
function recordingSdk() {
  const log: string[] = [];
  const listeners = new Map<string, (user: AgoraRemoteUser, mediaType: "audio" | "video" | "datachannel") => void>();
  const client: AgoraClient<AgoraMicrophoneTrack, AgoraRemoteUser> = {
    setClientRole: async (role) => void log.push(`role ${role}`),
    join: async (appId, channel, token, uid) => {
      log.push(`join ${appId} ${channel} ${token} ${String(uid)}`);
      return uid ?? 0;
    },
    publish: async (tracks) => void log.push(`publish ${tracks.length}`),
    subscribe: async (user, mediaType) => void log.push(`subscribe ${String(user.uid)} ${mediaType}`),
    leave: async () => void log.push("leave"),
    on: (event: string, listener: (user: AgoraRemoteUser, mediaType: "audio" | "video" | "datachannel") => void) =>
      void listeners.set(event, listener),
    removeAllListeners: () => {
      log.push("off");
      listeners.clear();
    },
  };
  const sdk: AgoraSdk = {
    createClient: (config) => {
      log.push(`client ${config.mode}`);
      return client;
    },
    createMicrophoneAudioTrack: async () => {
      log.push("microphone");
      return { close: () => void log.push("microphone closed") };
    },
  };
  const remote = (uid: string): AgoraRemoteUser => ({
    uid,
    audioTrack: { play: () => void log.push(`play ${uid}`), stop: () => void log.push(`stop ${uid}`) },
  });
  return { sdk, log, listeners, remote };
}

describe("the Agora engine", () => {
  const join = (role: "PUBLISHER" | "SUBSCRIBER"): LiveAudioJoin => ({
    appId: APP_ID,
    channel: ROOM,
    token: "tok",
    uid: OWNER,
    role,
  });

  it("joins as host and publishes the microphone; leaving closes it and leaves", async () => {
    const { sdk, log } = recordingSdk();
    const session = await createAgoraEngine(sdk).join(join("PUBLISHER"));
    expect(log).toEqual(["client live", "role host", `join ${APP_ID} ${ROOM} tok ${OWNER}`, "microphone", "publish 1"]);
    log.length = 0;
    await session.leave();
    expect(log).toEqual(["microphone closed", "off", "leave"]);
  });

  it("joins as audience, plays each published audio and stops it when unpublished or on leaving", async () => {
    const { sdk, log, listeners, remote } = recordingSdk();
    const session = await createAgoraEngine(sdk).join(join("SUBSCRIBER"));
    expect(log).toEqual(["client live", "role audience", `join ${APP_ID} ${ROOM} tok ${OWNER}`]);
    log.length = 0;
    const host = remote("host-1");
    listeners.get("user-published")!(remote("video-only"), "video");
    listeners.get("user-published")!(host, "audio");
    await waitFor(() => expect(log).toEqual(["subscribe host-1 audio", "play host-1"]));
    listeners.get("user-unpublished")!(host, "audio");
    listeners.get("user-published")!(host, "audio");
    await waitFor(() => expect(log.at(-1)).toBe("play host-1"));
    log.length = 0;
    await session.leave();
    expect(log).toEqual(["stop host-1", "off", "leave"]);
  });
});
