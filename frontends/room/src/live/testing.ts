// A small in-memory social service for the live room's component tests, served through Connect's router
// transport: Join streams the stage (full state, then the patches the test pushes), actions change it.
import { create, toJson, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs, timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { CrateSongSchema, type CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { JoinResponseSchema, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { createPatch } from "rfc6902";
import { RoomUserRoleService } from "../api.ts";
import { AvatarService, CrateService, ProfileService, ProviderTokenService, StageService } from "./api.ts";

export const ROOM_UUID = "00000000-0000-4000-8000-000000000001";
export const DJ_UUID = "00000000-0000-4000-8000-0000000000d1";
export const LISTENER_UUID = "00000000-0000-4000-8000-0000000000e1";
/** The DJ's avatar (a merch avatar slug) and its image. */
export const DJ_AVATAR = "neon-cat";
export const DJ_AVATAR_IMAGE = "/media/avatars/neon-cat.png";

const callerOf = (context: HandlerContext) =>
  /^Bearer t:(.+)$/.exec(context.requestHeader.get("Authorization") ?? "")?.[1];

export interface FakeSocial {
  routes: (router: ConnectRouter) => void;
  stage: Stage;
  calls: { method: string; caller: string | undefined; input: unknown }[];
  queue: CrateSong[];
  /** Profiles' avatar slugs by user (the DJ wears DJ_AVATAR), and the merch avatars' images by slug. */
  avatarIds: Map<string, string>;
  avatarImages: Map<string, string>;
  /** What GetUserData answers (the listener's explicit-audio preference). */
  allowExplicitAudio: boolean;
  /** Changes the stage and sends the patch to every open stream. */
  change(mutate: (stage: Stage) => void): void;
  /** Sends any message (kicked, reset, chat) to every open stream. */
  send(message: MessageInitShape<typeof JoinResponseSchema>): void;
  /** How many join streams were opened. */
  joins(): number;
}

export function demoSong(init: MessageInitShape<typeof CrateSongSchema> = {}): CrateSong {
  return create(CrateSongSchema, {
    crateSongUuid: "00000000-0000-4000-8000-00000000c001",
    trackName: "Demo Song",
    artistName: "Demo Artist",
    duration: 120,
    musicProviders: { uploadService: "7" },
    streamUrls: { uploadService: { hls: "/api/room-service/songs/7/hls-playlist" } },
    thumbnails: { uploadService: "/media/artwork.png" },
    ...init,
  });
}

export function createFakeSocial(): FakeSocial {
  const stage = create(StageSchema, {
    version: 1n,
    room: { uuid: ROOM_UUID, slug: "lounge", name: "Lounge", numberOfDjs: 2, ownerUuid: DJ_UUID },
    listeners: { users: 1, guests: 0 },
    voteSkip: { enabled: true, threshold: 1 },
  });
  const calls: FakeSocial["calls"] = [];
  const streams = new Set<(message: JoinResponse | null) => void>();
  let opened = 0;
  const queue = [demoSong(), demoSong({ crateSongUuid: "00000000-0000-4000-8000-00000000c002", trackName: "Second" })];

  const fake: FakeSocial = {
    stage,
    calls,
    queue,
    allowExplicitAudio: false,
    avatarIds: new Map([[DJ_UUID, DJ_AVATAR]]),
    avatarImages: new Map([[DJ_AVATAR, DJ_AVATAR_IMAGE]]),
    joins: () => opened,
    change(mutate) {
      const before = toJson(StageSchema, fake.stage);
      mutate(fake.stage);
      fake.stage.version += 1n;
      const operations = JSON.stringify(createPatch(before, toJson(StageSchema, fake.stage)));
      const message = create(JoinResponseSchema, {
        serverTime: timestampNow(),
        kind: { case: "patch", value: { version: fake.stage.version, operations } },
      });
      for (const push of streams) push(message);
    },
    send(init) {
      const message = create(JoinResponseSchema, init);
      for (const push of streams) push(message);
    },
    routes(router) {
      const record = (method: string, context: HandlerContext, input: unknown) =>
        calls.push({ method, caller: callerOf(context), input });
      const done = () => ({ stage: fake.stage });
      router.service(StageService, {
        async *join(request, context) {
          record("Join", context, request);
          opened += 1;
          const pending: (JoinResponse | null)[] = [
            create(JoinResponseSchema, { serverTime: timestampNow(), kind: { case: "state", value: fake.stage } }),
          ];
          let wake: (() => void) | undefined;
          const push = (message: JoinResponse | null) => {
            pending.push(message);
            wake?.();
          };
          streams.add(push);
          context.signal.addEventListener("abort", () => push(null));
          try {
            for (;;) {
              while (pending.length === 0) await new Promise<void>((resolve) => (wake = resolve));
              const next = pending.shift()!;
              if (next === null) return;
              yield next;
              if (next.kind.case === "kicked") return;
            }
          } finally {
            streams.delete(push);
          }
        },
        getClock(request, context) {
          record("GetClock", context, request);
          const now = timestampFromMs(Date.now());
          return { clientTime: request.clientTime, receiveTime: now, sendTime: now };
        },
        takeSeat(request, context) {
          record("TakeSeat", context, request);
          const caller = callerOf(context);
          if (!caller) throw new ConnectError("You cannot DJ in this room", Code.PermissionDenied);
          fake.change((s) => s.seats.push({ $typeName: "tt.social.v1.StageSeat", userUuid: caller }));
          return done();
        },
        leaveSeat(request, context) {
          record("LeaveSeat", context, request);
          const caller = callerOf(context);
          fake.change((s) => (s.seats = s.seats.filter((seat) => seat.userUuid !== caller)));
          return done();
        },
        like(request, context) {
          record("Like", context, request);
          const caller = callerOf(context)!;
          fake.change((s) => {
            s.votes ??= {
              $typeName: "tt.social.v1.StageVotes",
              likes: 0,
              dislikes: 0,
              grabs: 0,
              byUser: {},
              grabbedBy: {},
            };
            s.votes.byUser[caller] = "like";
            s.votes.likes += 1;
          });
          return done();
        },
        dislike(request, context) {
          record("Dislike", context, request);
          throw new ConnectError("You cannot vote on your own song", Code.PermissionDenied);
        },
        grab(request, context) {
          record("Grab", context, request);
          return done();
        },
      });
      router.service(RoomUserRoleService, {
        kickUserFromRoom(request, context) {
          record("KickUserFromRoom", context, request);
          return {};
        },
        grantRoomRole(request, context) {
          record("GrantRoomRole", context, request);
          return {};
        },
      });
      router.service(ProfileService, {
        getProfiles(request, context) {
          record("GetProfiles", context, request);
          return {
            profiles: request.users
              .filter((user) => user === DJ_UUID || fake.avatarIds.has(user))
              .map((uuid) => ({
                uuid,
                nickname: uuid === DJ_UUID ? "DJ Nightjar" : "",
                avatarId: fake.avatarIds.get(uuid) ?? "",
              })),
          };
        },
        getUserData(request, context) {
          record("GetUserData", context, request);
          return { userData: { allowExplicitAudio: fake.allowExplicitAudio } };
        },
      });
      router.service(AvatarService, {
        getAvatar(request, context) {
          record("GetAvatar", context, request);
          const imageUrl = fake.avatarImages.get(request.slug);
          if (imageUrl === undefined) throw new ConnectError("avatar not found", Code.NotFound);
          return { avatar: { slug: request.slug, name: request.slug, imageUrl } };
        },
      });
      router.service(ProviderTokenService, {
        createAgoraToken(request, context) {
          record("CreateAgoraToken", context, request);
          const caller = callerOf(context);
          if (!caller) throw new ConnectError("guests cannot join live audio", Code.PermissionDenied);
          return { token: `agora-${request.role}`, appId: "", uid: caller, channel: request.channel };
        },
      });
      router.service(CrateService, {
        listQueueSongs(request, context) {
          record("ListQueueSongs", context, request);
          return { songs: fake.queue, total: fake.queue.length, limit: request.limit, offset: 0 };
        },
        listMyCrates(request, context) {
          record("ListMyCrates", context, request);
          return {
            crates: [{ crateUuid: "00000000-0000-4000-8000-0000000000f1", crateName: "Favourites" }],
            total: 1,
            limit: request.limit,
            offset: 0,
          };
        },
        removeQueueSong(request, context) {
          record("RemoveQueueSong", context, request);
          fake.queue.splice(
            fake.queue.findIndex((song) => song.crateSongUuid === request.crateSongUuid),
            1,
          );
          return {};
        },
        moveQueueSong(request, context) {
          record("MoveQueueSong", context, request);
          const from = fake.queue.findIndex((song) => song.crateSongUuid === request.crateSongUuid);
          const [song] = fake.queue.splice(from, 1);
          fake.queue.splice(request.newPosition, 0, song!);
          return { song };
        },
      });
    },
  };
  return fake;
}
