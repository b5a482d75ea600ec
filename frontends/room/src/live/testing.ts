// A small in-memory social service for the live room's component tests, served through Connect's router
// transport: Join streams the stage (full state, then the patches the test pushes), actions change it.
import { create, toJson, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs, timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { CrateSongSchema, type CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { JoinResponseSchema, type JoinResponse } from "@tt/proto/tt/social/v1/stage_service_pb";
import { createPatch } from "rfc6902";
import { RoomUserRoleService } from "../api.ts";
import {
  AvatarService,
  CatalogueService,
  CrateService,
  ProfileService,
  ProviderTokenService,
  StageService,
} from "./api.ts";
import { createFakePeople, type FakePeople } from "./people/testing.ts";

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
  /** The catalogue's songs, newest first: ListSongs answers them, AddQueueSongs takes them by id. None by default,
   * as in production (no demo songs). */
  catalogue: Song[];
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
  /** The room's role grants (owner, moderators, DJs, restrictions) the role service answers and changes. */
  roles: { userUuid: string; role: string; expiresAt?: Date }[];
  /** Methods the fake refuses, with the server's message (PermissionDenied). */
  refusals: Map<string, string>;
  /** Nicknames of users other than the DJ (GetProfiles answers them). */
  nicknames: Map<string, string>;
  /** The signed-in listeners ListListeners pages through; the stage's dancefloor when unset. */
  listeners?: string[];
  /** Follows, friends and blocks (issue 25's people). */
  people: FakePeople;
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
    catalogue: [],
    allowExplicitAudio: false,
    avatarIds: new Map([[DJ_UUID, DJ_AVATAR]]),
    avatarImages: new Map([[DJ_AVATAR, DJ_AVATAR_IMAGE]]),
    joins: () => opened,
    roles: [],
    refusals: new Map(),
    nicknames: new Map(),
    people: createFakePeople(),
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
      const record = (method: string, context: HandlerContext, input: unknown) => {
        calls.push({ method, caller: callerOf(context), input });
        const refusal = fake.refusals.get(method);
        if (refusal !== undefined) throw new ConnectError(refusal, Code.PermissionDenied);
      };
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
        removeFromSeat(request, context) {
          record("RemoveFromSeat", context, request);
          fake.change((s) => (s.seats = s.seats.filter((seat) => seat.userUuid !== request.user)));
          return done();
        },
        listListeners(request, context) {
          record("ListListeners", context, request);
          const all = fake.listeners ?? fake.stage.dancefloor;
          const limit = request.limit || 50;
          return {
            listeners: all.slice(request.offset, request.offset + limit).map((userUuid) => ({ userUuid })),
            total: all.length,
            guests: fake.stage.listeners?.guests ?? 0,
          };
        },
      });
      router.service(RoomUserRoleService, {
        kickUserFromRoom(request, context) {
          record("KickUserFromRoom", context, request);
          return {};
        },
        grantRoomRole(request, context) {
          record("GrantRoomRole", context, request);
          fake.roles.push({
            userUuid: request.userId,
            role: request.role,
            ...(request.expiresAt ? { expiresAt: new Date(Number(request.expiresAt.seconds) * 1000) } : {}),
          });
          return {};
        },
        removeRoomRole(request, context) {
          record("RemoveRoomRole", context, request);
          const at = fake.roles.findIndex((grant) => grant.userUuid === request.userId && grant.role === request.role);
          if (at < 0) throw new ConnectError("Role not found", Code.NotFound);
          fake.roles.splice(at, 1);
          return {};
        },
        listRoomRoles(request, context) {
          record("ListRoomRoles", context, request);
          const roles = [{ userUuid: fake.stage.room?.ownerUuid ?? "", role: "owner" }, ...fake.roles]
            .filter((grant) => !["banned", "kicked", "chatDisabled", "djDisabled"].includes(grant.role))
            .map((grant) => ({ roomUuid: request.roomId, userUuid: grant.userUuid, role: grant.role }));
          return { roles, total: roles.length };
        },
        listNoDancefloorUsers(request, context) {
          record("ListNoDancefloorUsers", context, request);
          const off = new Set(
            fake.roles.filter((grant) => grant.role === "banned" || grant.role === "kicked").map((g) => g.userUuid),
          );
          return { userIds: request.userIds.filter((user) => off.has(user)) };
        },
        getUserRoomRoles(request, context) {
          record("GetUserRoomRoles", context, request);
          const grants = [{ userUuid: fake.stage.room?.ownerUuid ?? "", role: "owner" }, ...fake.roles]
            .filter((grant) => grant.userUuid === request.userId)
            .map((grant, index) => ({
              id: `grant-${index}`,
              roomUuid: request.roomId,
              userUuid: grant.userUuid,
              role: grant.role,
              ...("expiresAt" in grant && grant.expiresAt
                ? { expiresAt: timestampFromMs(grant.expiresAt.getTime()) }
                : {}),
            }));
          return { roles: grants.map((grant) => grant.role), grants };
        },
      });
      router.service(ProfileService, {
        getProfiles(request, context) {
          record("GetProfiles", context, request);
          return {
            profiles: request.users
              .filter((user) => user === DJ_UUID || fake.avatarIds.has(user) || fake.nicknames.has(user))
              .map((uuid) => ({
                uuid,
                nickname: uuid === DJ_UUID ? "DJ Nightjar" : (fake.nicknames.get(uuid) ?? ""),
                avatarId: fake.avatarIds.get(uuid) ?? "",
              })),
          };
        },
        getUserData(request, context) {
          record("GetUserData", context, request);
          return { userData: { allowExplicitAudio: fake.allowExplicitAudio } };
        },
      });
      fake.people.routes(router);
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
      router.service(CatalogueService, {
        listSongs(request, context) {
          record("ListSongs", context, request);
          const matching = fake.catalogue.filter((song) => request.demo === undefined || song.demo === request.demo);
          const limit = request.limit || 20;
          return { songs: matching.slice(request.offset, request.offset + limit), total: matching.length, limit };
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
        addQueueSongs(request, context) {
          record("AddQueueSongs", context, request);
          const added = request.songs.map((input) => {
            const song = fake.catalogue.find((entry) => entry.songId === input.songId);
            if (!song) throw new ConnectError("song not found", Code.NotFound);
            return create(CrateSongSchema, {
              crateSongUuid: `00000000-0000-4000-8000-${String(fake.queue.length + 1).padStart(12, "a")}`,
              songId: song.songId,
              trackName: song.trackName,
              artistName: song.artistName,
              duration: song.duration,
            });
          });
          fake.queue.push(...added);
          return { songs: added };
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
