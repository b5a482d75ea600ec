import { timestampMs, timestampNow } from "@bufbuild/protobuf/wkt";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Crate, CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import type { RoomActivity, Stage } from "@tt/proto/tt/social/v1/stage_pb";
import {
  DRIFT_TOLERANCE_S,
  isDiscordHost,
  loadPlayer,
  loadRuntimeConfig,
  Player,
  useAnalytics,
  useAppTranslation,
  useKit,
  useSession,
  type ClockSync,
  type PlayableSong,
  type PlayerController,
  type PlayHandler,
} from "@tt/web-kit";
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from "react";
import { Badge, Button, Card, Tab, TabList, TabPanel, Tabs, toast, useFormat, useNames } from "@tt/web-kit/ui";
import { Info, Play, RefreshCw, ShieldX } from "lucide-react";
import { useProfiles } from "../lib/people.ts";
import { ErrorText } from "../lib/ui.tsx";
import { useRoleClient } from "../api.ts";
import {
  liveKeys,
  PROFILE_BATCH,
  PROFILE_STALE_MS,
  useCrateClient,
  useProfileClient,
  useProviderTokenClient,
  useStageClient,
} from "./api.ts";
import { useAvatarImages } from "./Avatar.tsx";
import { Booth } from "./Booth.tsx";
import { LiveAudio } from "./LiveAudio.tsx";
import type { LiveAudioEngine } from "./live-audio.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";
import { NowPlaying } from "./NowPlaying.tsx";
import { PeoplePanel } from "./people/PeoplePanel.tsx";
import { PersonCard } from "./people/PersonCard.tsx";
import { useMyLists } from "./people/lists.ts";
import { QueuePanel } from "./QueuePanel.tsx";
import type { JoinStream } from "./stage-connection.ts";
import { countPreviewSong, PREVIEW_SONG_LIMIT, previewSongsPlayed, type KickDetails } from "./storage.ts";
import { useStage } from "./use-stage.ts";
import type { ChatFeed, Feed } from "./chat-feed.ts";
import { Volume } from "./Volume.tsx";
import { Crowd } from "./scene/Crowd.tsx";
import { usePhone } from "./scene/use-phone.ts";
import { Venue } from "./scene/Venue.tsx";
import { createPortal } from "react-dom";
import "./live.css";

type PlayerModule = Awaited<ReturnType<typeof loadPlayer>>;

/** A stage action the page sends, and how it is tracked once done (spec 002 §7). */
interface LiveAction {
  topic: "room-action" | "feedback-action";
  action: string;
  run: () => Promise<{ stage?: Stage }>;
  /** Told as a toast once done (moderation, skips and grabs; votes and seats show on the stage itself). */
  done?: string;
}

// CHAT's panel (live/chat), its own chunk.
const ChatPanel = lazy(() => import("./chat/index.ts").then((m) => ({ default: m.ChatPanel })));

export interface LivePermissions {
  canDj: boolean;
  canChat: boolean;
  isModerator: boolean;
  /** The viewer's djDisabled in the room: until when (ms), null without an end; absent when they are not. */
  djDisabledUntil?: number | null;
}

export interface LiveRoomProps {
  /** The room's uuid or slug. */
  room: string;
  permissions: LivePermissions;
  /** The guest password of a private room, as the room's join was given it. */
  guestPassword?: string;
  /** Songs a guest hears before being asked to sign up (spec 002 §4's preview threshold). */
  previewLimit?: number;
  /** The deployment's outside players and brand; by default from the runtime configuration (/remotes.json). */
  players?: readonly string[];
  brand?: string;
  /** The deployment's Agora app id (live audio); by default from the runtime configuration, null: none. */
  agoraAppId?: string | null;
  /** Tests: the live-audio engine (Agora's by default, loaded only when a room's live audio is joined). */
  loadLiveAudio?: () => Promise<LiveAudioEngine>;
  /** Tests: the handler of the URL providers. */
  urlHandler?: PlayHandler;
  /** Inside the chat platform's activity (Discord); by default from the page's host. */
  activity?: boolean;
  /** The chat panel, given the join stream's chat events; by default the room's (live/chat). */
  renderChat?: (props: ChatSlotProps) => ReactNode;
  /** The people panel (below the stage; the phone's People tab); by default the room's (live/people). */
  renderPeople?: () => ReactNode;
  /** The viewer's friends and the DJs they follow, drawn nearest the stage (when known). */
  nearStage?: ReadonlySet<string>;
  /** The room's no-dancefloor users, not drawn on the floor (when known). */
  noDancefloor?: ReadonlySet<string>;
}

export interface ChatSlotProps {
  room: string;
  feed: ChatFeed;
  /** Signed in and allowed to chat (guests read only). */
  canSend: boolean;
  userUuid: string | undefined;
  isModerator: boolean;
  /** What happens in the room (skips, seats, kicks): system lines in the room chat. */
  activity?: Feed<RoomActivity>;
  /** The people in the room (DJs and the dancefloor): `@nickname` completion. */
  people?: readonly string[];
  /** The chat fills the desktop's full-height column. */
  fill?: boolean;
}

/** Jumps to the room's position per play (start, stalls), each aiming ahead by what the last one lost. */
const ALIGN_ATTEMPTS = 4;
const ALIGN_MAX_LEAD_S = 2;
/** Beyond this drift (seconds) a running player jumps rather than nudges, while it has jumps left. */
const ALIGN_NUDGE_LIMIT_S = 0.5;

/** The no-dancefloor call takes at most 500 users; its answer is asked again each minute. */
const NO_DANCEFLOOR_ASK = 500;
const NO_DANCEFLOOR_STALE_MS = 60_000;

const NO_CRATES: readonly Crate[] = [];

/** How many finished songs the page keeps in its recent-songs cache. */
const RECENT_SONGS = 10;

/** The crate song as the player needs it. */
function playableOf(song: CrateSong): PlayableSong {
  return {
    musicProviders: song.musicProviders,
    streamUrls: song.streamUrls,
    duration: song.duration,
    trackName: song.trackName,
    artistName: song.artistName,
  };
}

/** The gap kept between the chat column and the window's edges (px), and its least height. */
const SIDE_GAP_PX = 12;
const SIDE_MIN_PX = 448;

/**
 * A ref that keeps an element (the chat column, sticky at the top) as tall as the window below its top: on the
 * first screen its composer is in view under the room's title, and once scrolled it fills the window.
 */
function useFitToWindow(): (element: HTMLElement | null) => (() => void) | undefined {
  return useCallback((element: HTMLElement | null) => {
    if (!element) return;
    let frame = 0;
    const fit = () => {
      frame = 0;
      const top = Math.max(SIDE_GAP_PX, element.getBoundingClientRect().top);
      element.style.height = `${Math.max(SIDE_MIN_PX, window.innerHeight - top - SIDE_GAP_PX)}px`;
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(fit);
    };
    fit();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, []);
}

function KickedNotice({ details }: { details: KickDetails }) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  const people = useProfiles(details.by ? [details.by] : []);
  const by = details.by ? people.profileOf(details.by)?.nickname || t("kicked.byModerator") : undefined;
  return (
    <Card className="tt-live-kicked" role="alert" aria-labelledby="live-kicked">
      <span className="tt-icon-tile tt-icon-tile--round tt-icon-tile--danger" aria-hidden="true">
        <ShieldX />
      </span>
      <h2 id="live-kicked">{t("kicked.title")}</h2>
      <p>
        <Badge tone="danger">{details.reason === "banned" ? t("kicked.banned") : t("kicked.kicked")}</Badge>
      </p>
      <p>
        {details.until !== undefined
          ? t("kicked.until", { until: format.dateTime(details.until) })
          : t("kicked.forever")}
      </p>
      {by && !people.isPending && <p className="tt-muted">{t("kicked.by", { by })}</p>}
      <a className="tt-button tt-button--secondary" href="/room">
        {t("kicked.back")}
      </a>
    </Card>
  );
}

/**
 * The live room (issue 14): the stage over the join stream, the player at the room's position (clock sync and
 * drift correction), the booth, votes and vote-skip, the listener's queue, the chat panel, play tracking.
 */
export function LiveRoom({
  room,
  permissions,
  guestPassword = "",
  previewLimit = PREVIEW_SONG_LIMIT,
  players,
  brand,
  agoraAppId,
  loadLiveAudio,
  urlHandler,
  renderChat,
  renderPeople,
  nearStage,
  noDancefloor,
  activity = typeof window !== "undefined" && isDiscordHost(window.location.hostname),
}: LiveRoomProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const format = useFormat();
  const names = useNames();
  const kit = useKit();
  const session = useSession();
  const me = session.signedIn ? session.user?.uuid : undefined;
  const stageClient = useStageClient();
  const crateClient = useCrateClient();
  const tokens = useProviderTokenClient();
  const queryClient = useQueryClient();
  const phone = usePhone();

  // The player's headless parts (clock sync, handlers, play tracking), fetched with the player itself.
  const [playerModule, setPlayerModule] = useState<PlayerModule | null>(null);
  useEffect(() => {
    let live = true;
    void loadPlayer().then((module) => live && setPlayerModule(module));
    return () => {
      live = false;
    };
  }, []);

  // Clock sync against the social service's GetClock, plus a sample from each join's first message.
  const clock = useMemo<ClockSync | null>(() => {
    if (!playerModule) return null;
    return playerModule.createClockSync({
      serverTime: async () => {
        const answer = await stageClient.getClock({ clientTime: timestampNow() });
        if (!answer.receiveTime || !answer.sendTime) throw new Error("GetClock answered no time");
        return { receiveMs: timestampMs(answer.receiveTime), sendMs: timestampMs(answer.sendTime) };
      },
    });
  }, [playerModule, stageClient]);
  useEffect(() => {
    clock?.start();
    return () => clock?.stop();
  }, [clock]);

  const join = useCallback<JoinStream>(
    (id, signal) => stageClient.join({ room: id, guestPassword }, { signal }),
    [stageClient, guestPassword],
  );
  const live = useStage(room, join, (t0, serverMs, t1) => clock?.addSample(t0, serverMs, t1));
  const stage = live.stage;
  // The room's clock (the server's, once synced); read when needed, never on a timer here: the progress bar ticks
  // on its own, so the room redraws on the stage's changes only.
  const serverNow = useCallback(() => (clock ? clock.serverNow() : Date.now()), [clock]);

  // The outside players the deployment configured, and its brand's provider priority (spec 002 §9); its Agora
  // app id when it has Agora (live audio).
  type LiveConfig = { players?: string[]; brand?: string; agoraAppId?: string };
  const config = useQuery({
    queryKey: ["rooms", "live", "runtimeConfig"],
    queryFn: () =>
      loadRuntimeConfig().then(
        (value) => value as LiveConfig,
        () => ({}) as LiveConfig,
      ),
    enabled: players === undefined || agoraAppId === undefined,
    staleTime: Infinity,
  });
  const configuredAgora = agoraAppId === undefined ? config.data?.agoraAppId : (agoraAppId ?? undefined);
  // A configuration without players (the array form of /remotes.json, or none) configures none.
  const configuredPlayers = useMemo(
    () => players ?? (config.data ? (config.data.players ?? []) : undefined),
    [players, config.data],
  );
  const configuredBrand = brand ?? config.data?.brand;
  const [handlers, setHandlers] = useState<PlayHandler[] | null>(null);
  useEffect(() => {
    if (!playerModule || configuredPlayers === undefined) return;
    let live = true;
    void playerModule
      .loadPlayHandlers({
        players: configuredPlayers,
        spotify: {
          getToken: async () => {
            if (!kit.session.getSnapshot().user) return undefined;
            const answer = await tokens.refreshSpotifyToken({}).catch(() => undefined);
            return answer?.token?.accessToken || undefined;
          },
        },
      })
      .then((loaded) => live && setHandlers(loaded));
    return () => {
      live = false;
    };
  }, [playerModule, configuredPlayers, kit, tokens]);
  const priority = useMemo(() => playerModule?.priorityForBrand(configuredBrand), [playerModule, configuredBrand]);

  const play = stage?.play;
  const playId = play?.playId;
  const startedAtMs = play?.startedAt ? timestampMs(play.startedAt) : undefined;
  const duration = play ? play.duration || play.song?.duration || 0 : 0;
  const positionNow = useCallback(
    () => (startedAtMs !== undefined ? (serverNow() - startedAtMs) / 1000 : 0),
    [serverNow, startedAtMs],
  );
  const endsAt = startedAtMs !== undefined ? startedAtMs + duration * 1000 : undefined;

  // A guest's preview counter (spec 002 §4): one more song each time a new play starts for them.
  const [previewCount, setPreviewCount] = useState(() => (me ? 0 : previewSongsPlayed()));
  const counted = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (me || !playId || counted.current === playId) return;
    counted.current = playId;
    setPreviewCount(countPreviewSong());
  }, [me, playId]);
  const previewOver = !me && previewCount > previewLimit;

  // Listeners in the chat platform's activity whose explicit audio is disallowed skip explicit songs (issue 14,
  // spec 002 §6); until their preference is known (and for guests there) explicit songs are not played.
  const profileClient = useProfileClient();
  const userData = useQuery({
    queryKey: liveKeys.userData,
    queryFn: () => profileClient.getUserData({}),
    enabled: activity && me !== undefined,
  });
  const explicitSkipped =
    activity && (play?.song?.explicit ?? false) && userData.data?.userData?.allowExplicitAudio !== true;

  // The song for the player: the same object for one play, so nothing restarts on a re-render.
  const song = useMemo(
    () => (play?.song && !explicitSkipped ? playableOf(play.song) : null),
    [playId, explicitSkipped], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const startAt = useMemo(() => Math.max(0, positionNow()), [playId, clock]); // eslint-disable-line react-hooks/exhaustive-deps

  // The recent-songs cache: a finished play's song joins it (spec 002 §4).
  const previous = useRef<{ id: string; song: CrateSong } | null>(null);
  const recentKey = liveKeys.recentSongs(stage?.room?.uuid ?? room);
  useEffect(() => {
    const before = previous.current;
    if (before && before.id !== playId) {
      queryClient.setQueryData<CrateSong[]>(recentKey, (list = []) => [before.song, ...list].slice(0, RECENT_SONGS));
    }
    previous.current = playId && play?.song ? { id: playId, song: play.song } : null;
  }, [playId]); // eslint-disable-line react-hooks/exhaustive-deps
  const recent = useQuery({ queryKey: recentKey, queryFn: () => [] as CrateSong[], staleTime: Infinity });

  // Drift correction: every second the player is brought to the room's position. When the audio starts, or
  // resumes after a stall, a pause or a refused autoplay, it first jumps to the room's position: the rate nudge is
  // for the small drift of a running player, far too slow for the seconds a start can lose. A jump itself costs the
  // time to buffer there, so each further jump of the same play aims that much ahead (at most ALIGN_ATTEMPTS).
  const [controller, setController] = useState<PlayerController | null>(null);
  const mediaBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!controller || !clock || startedAtMs === undefined || !playerModule) return;
    const position = () => (clock.serverNow() - startedAtMs) / 1000;
    const media = mediaBox.current?.querySelector("audio");
    let lead = 0;
    let attempts = 0;
    let lastAim: number | undefined;
    const align = () => {
      if (controller.getState().status !== "playing" || attempts >= ALIGN_ATTEMPTS) return;
      const at = position();
      if (!media?.currentSrc) {
        // An SDK's own player: its controller seeks beyond the seek threshold.
        controller.seekTo(at);
        return;
      }
      const drift = at - media.currentTime;
      if (Math.abs(drift) <= DRIFT_TOLERANCE_S) return;
      if (lastAim !== undefined) lead = Math.min(ALIGN_MAX_LEAD_S, Math.max(0, lead + drift));
      attempts += 1;
      lastAim = at + lead;
      media.currentTime = lastAim;
    };
    media?.addEventListener("playing", align);
    align();
    const unsubscribe = controller.subscribe(align);
    const stop = playerModule.startDriftCorrection({
      seekTo: (at) => {
        if (controller.getState().status !== "playing") return;
        const drift = media?.currentSrc ? at - media.currentTime : 0;
        // A large drift (a stall) is jumped over while jumps are left; a small one is nudged.
        if (Math.abs(drift) > ALIGN_NUDGE_LIMIT_S && attempts < ALIGN_ATTEMPTS) align();
        else controller.seekTo(at);
      },
      position,
    });
    return () => {
      media?.removeEventListener("playing", align);
      unsubscribe();
      stop();
    };
  }, [controller, clock, startedAtMs, playerModule]);
  // A browser that refused to start the audio by itself (no interaction with the page yet) leaves the player
  // ready but paused: the listener starts it, at the room's position.
  const playerStatus = useSyncExternalStore(
    (listener) => controller?.subscribe(listener) ?? (() => undefined),
    () => controller?.getState().status ?? "idle",
    () => "idle",
  );
  // (Once it plays, the jump above puts it at the room's position.)
  const listen = useCallback(
    () =>
      void mediaBox.current
        ?.querySelector("audio")
        ?.play()
        .catch(() => undefined),
    [],
  );

  // Play tracking (spec 002 §4): start when this listener's player plays a new play, continue every second, end.
  // Through the page's analytics client (batched with the page's other events).
  const analytics = useAnalytics();
  const tracker = useMemo(
    () =>
      playerModule?.createPlayTracker({
        analytics,
        userUuid: () => {
          const snapshot = kit.session.getSnapshot();
          return snapshot.accessToken?.tokenType === "user" ? snapshot.user?.uuid : undefined;
        },
      }),
    [playerModule, analytics, kit],
  );
  const volume = () => mediaBox.current?.querySelector("audio")?.volume ?? 1;
  const roomSlug = stage?.room?.slug ?? room;
  const trackedPlay = useRef<{ roomSlug: string; playId: string } | null>(null);
  useEffect(() => {
    if (!controller || !tracker || !play || !playId) return;
    const at = { roomSlug, playId };
    const onState = () => {
      const state = controller.getState();
      if (state.status !== "playing" || trackedPlay.current?.playId === playId) return;
      trackedPlay.current = at;
      tracker.start(
        {
          roomSlug,
          roomOwnerUuid: stage?.room?.ownerUuid ?? "",
          djUuid: play.djUuid,
          songInfo: {
            trackName: play.song?.trackName,
            artistName: play.song?.artistName,
            songId: play.song?.songId,
            isrc: play.song?.isrc,
          },
          playId,
          userProvider: state.provider ?? "",
        },
        volume(),
      );
    };
    onState();
    const unsubscribe = controller.subscribe(onState);
    const timer = setInterval(() => {
      if (controller.getState().status === "playing") tracker.progress(at, volume());
    }, 1000);
    return () => {
      unsubscribe();
      clearInterval(timer);
      if (trackedPlay.current?.playId === playId) {
        tracker.end(at);
        trackedPlay.current = null;
      }
    };
  }, [controller, tracker, playId, roomSlug]); // eslint-disable-line react-hooks/exhaustive-deps

  // The names of the DJs and of the dancefloor (profiles in one batch, §9), the uuid until known.
  // (The query key is compared by value: a new array of the same people fetches nothing.)
  const seats = stage?.seats;
  const dancefloor = stage?.dancefloor;
  const people = useMemo(
    () =>
      [...new Set([...(seats ?? []).map((seat) => seat.userUuid), ...(dancefloor ?? [])])]
        .sort()
        .slice(0, PROFILE_BATCH),
    [seats, dancefloor],
  );
  const profiles = useQuery({
    queryKey: liveKeys.profiles(people),
    queryFn: () => profileClient.getProfiles({ users: people }),
    enabled: people.length > 0,
    staleTime: PROFILE_STALE_MS,
    placeholderData: (previousData) => previousData,
  });
  // Never an id on screen: "…" while the batch loads, "Someone" for a user the user service does not know.
  // (Stable between the stage's changes: the booth, the crowd and now playing redraw on what they show only.)
  const loaded = profiles.data?.profiles;
  const loading = profiles.isPending;
  const nameOf = useCallback(
    (uuid: string) =>
      uuid === me ? t("you") : loaded?.find((p) => p.uuid === uuid)?.nickname || (loading ? "…" : t("someone")),
    [me, t, loaded, loading],
  );
  // Their avatars' images (merch avatars by slug); the generated default stands in for the rest.
  const avatars = useAvatarImages(loaded);
  const avatarOf = useCallback((uuid: string) => avatars.get(uuid), [avatars]);

  // Spec 002 §4: when the room's settings change its slug, the cached room follows (currentDancefloor too, in
  // useStage), so links and a reload use the new one; its name, look, poster and live mark too, so the page's title
  // and details say what the stage says.
  const stageRoom = stage?.room;
  useEffect(() => {
    if (!stageRoom?.uuid) return;
    const { uuid, slug, name, design, posterUrl, isLive } = stageRoom;
    type Joined = {
      room?: { uuid: string; slug: string; name: string; design: string; posterUrl: string; isLive: boolean };
    };
    queryClient.setQueriesData<Joined>({ queryKey: ["rooms", "join"] }, (data) => {
      const cached = data?.room;
      if (!cached || cached.uuid !== uuid) return data;
      const same =
        cached.slug === slug &&
        cached.name === name &&
        cached.design === design &&
        cached.posterUrl === posterUrl &&
        cached.isLive === isLive;
      return same ? data : { ...data, room: { ...cached, slug, name, design, posterUrl, isLive } };
    });
  }, [queryClient, stageRoom]);

  const roomId = stage?.room?.uuid ?? room;
  // The people the viewer knows stand nearest the stage: their friends and the DJs they follow (002 §6).
  const lists = useMyLists(me);
  const friendIds = lists.friends.data;
  const followedIds = lists.followed.data?.ids;
  const known = useMemo(
    () => nearStage ?? (friendIds || followedIds ? new Set([...(friendIds ?? []), ...(followedIds ?? [])]) : undefined),
    [nearStage, friendIds, followedIds],
  );
  // The room's no-dancefloor users (001 §7: the banned and kicked among those asked) are not drawn. Asked about
  // the floor as it is when asked, and again each minute: not on every join, which a full room has many of a second.
  const roleClient = useRoleClient();
  const floorNow = useRef<readonly string[]>([]);
  useEffect(() => {
    floorNow.current = dancefloor ?? [];
  }, [dancefloor]);
  const hasFloor = (stage?.dancefloor.length ?? 0) > 0;
  const offFloor = useQuery({
    queryKey: liveKeys.noDancefloor(roomId),
    queryFn: async () => {
      const answer = await roleClient.listNoDancefloorUsers({
        roomId,
        userIds: floorNow.current.slice(0, NO_DANCEFLOOR_ASK),
      });
      return new Set(answer.userIds);
    },
    enabled: noDancefloor === undefined && hasFloor && stage?.room?.uuid !== undefined,
    staleTime: NO_DANCEFLOOR_STALE_MS,
    refetchInterval: NO_DANCEFLOOR_STALE_MS,
    retry: false,
  });
  const hiddenFromFloor = noDancefloor ?? offFloor.data;

  // The listener's crates, for grabbing into one.
  const crates = useQuery({
    queryKey: liveKeys.crates,
    queryFn: () => crateClient.listMyCrates({ limit: 100, offset: 0 }),
    enabled: me !== undefined,
  });

  // One action at a time; its failure is shown with the server's message (spec 002 §8). Once the server has done it,
  // it is tracked (spec 002 §7): votes and grabs as feedback actions, seats and skips as room actions.
  const action = useMutation({
    mutationFn: async ({ run }: LiveAction) => run(),
    onSuccess: (_answer, { topic, action: name, done }) => {
      analytics.track(topic, { action: name, roomUuid: roomId, playId: playId ?? null });
      if (done) toast({ title: done, tone: "success" });
    },
  });
  const { mutate } = action;
  const act = useCallback(
    (topic: LiveAction["topic"], name: string, run: LiveAction["run"], done?: string) =>
      mutate({ topic, action: name, run, ...(done ? { done } : {}) }),
    [mutate],
  );
  const media = useCallback(() => mediaBox.current?.querySelector("audio"), []);
  // A crate as a person knows it: the queue and the built-in crates by their word, others by their name.
  const myCrates = crates.data?.crates ?? NO_CRATES;
  const crateNameOf = useCallback(
    (crateUuid: string) => {
      const name = myCrates.find((crate) => crate.crateUuid === crateUuid)?.crateName;
      if (!name) return t("queueCrate");
      return name === "default" || name === "tt-stars" ? names("crate", name) : name;
    },
    [myCrates, t, names],
  );

  // The booth's and now playing's acts, the same functions until the room or the play changes.
  const boothActs = useMemo(
    () => ({
      onTake: () => act("room-action", "take-seat", () => stageClient.takeSeat({ room: roomId })),
      onLeave: () => act("room-action", "leave-seat", () => stageClient.leaveSeat({ room: roomId })),
      onRemove: (user: string) =>
        act(
          "room-action",
          "remove-from-seat",
          () => stageClient.removeFromSeat({ room: roomId, user }),
          t("removedFromSeat", { name: nameOf(user) }),
        ),
    }),
    [act, stageClient, roomId, t, nameOf],
  );
  const playActs = useMemo(() => {
    const at = { room: roomId, playId: playId ?? "" };
    return {
      onVote: (kind: "like" | "dislike") =>
        act("feedback-action", kind, () => (kind === "like" ? stageClient.like(at) : stageClient.dislike(at))),
      onGrab: (crateUuid: string) =>
        act(
          "feedback-action",
          "grab",
          () => stageClient.grab({ ...at, crateUuid }),
          t("grabDone", { crate: crateNameOf(crateUuid) }),
        ),
      onSkip: () => act("room-action", "skip-song", () => stageClient.skipSong(at), t("skipped")),
      onModeratorSkip: () => act("room-action", "moderator-skip", () => stageClient.moderatorSkip(at), t("skipped")),
      onVoteSkip: (enabled: boolean) =>
        act(
          "room-action",
          enabled ? "vote-skip-on" : "vote-skip-off",
          () => stageClient.setVoteSkip({ room: roomId, enabled }),
          enabled ? t("voteSkipOn") : t("voteSkipNowOff"),
        ),
    };
  }, [act, stageClient, roomId, playId, t, crateNameOf]);

  const seatUsers = useMemo(() => seats?.map((seat) => seat.userUuid), [seats]);
  const fitToWindow = useFitToWindow();
  // The chat is drawn once, into a host element that moves to whichever slot the layout has (the desktop's column or
  // the phone's tab): a window that crosses the phone's width keeps the chat's lines, tab and open conversation.
  const [chatHost] = useState(() => {
    if (typeof document === "undefined") return null;
    const host = document.createElement("div");
    host.className = "tt-live-chat-host";
    return host;
  });
  const placeChat = useCallback(
    (slot: HTMLElement | null) => {
      if (slot && chatHost) slot.appendChild(chatHost);
    },
    [chatHost],
  );

  // The listener's controls in now playing (listen, volume, the player): the same element until what it shows
  // changes, so a vote redraws the votes and not the player.
  const roomUuid = stage?.room?.uuid;
  const controls = useMemo(
    () => (
      <div className="tt-live-controls">
        {!previewOver && handlers && priority && playerStatus === "ready" && song && (
          <Button size="sm" icon={<Play aria-hidden="true" />} onClick={listen}>
            {t("listen")}
          </Button>
        )}
        {!previewOver && handlers && priority && <Volume media={media} playKey={playId ?? ""} />}
        <div ref={mediaBox} className="tt-live-player" data-play={playId ?? ""} data-ends-at={endsAt ?? ""}>
          {explicitSkipped && (
            <p className="tt-live-notice" data-testid="live-explicit">
              <Info aria-hidden="true" />
              {t("explicitSkipped")}
            </p>
          )}
          {previewOver ? (
            <p role="alert" className="tt-live-preview">
              {t("previewOver")}{" "}
              <a className="tt-button" href="/signup">
                {t("signUp")}
              </a>
            </p>
          ) : handlers && priority ? (
            <Player
              song={song}
              startAt={startAt}
              endsAt={endsAt}
              label={t("nowPlaying")}
              handlers={handlers}
              priority={priority}
              onController={setController}
              {...(roomUuid ? { room: roomUuid } : {})}
              {...(urlHandler ? { urlHandler } : {})}
            />
          ) : null}
        </div>
      </div>
    ),
    [
      previewOver,
      handlers,
      priority,
      playerStatus,
      song,
      listen,
      t,
      media,
      playId,
      endsAt,
      explicitSkipped,
      startAt,
      roomUuid,
      urlHandler,
    ],
  );

  if (live.kicked) return <KickedNotice details={live.kicked} />;

  const statusText = t(`status.${live.status}`);

  const design = stage?.room?.design;
  const chatOnly = design === "CHAT_ONLY";
  const boothView = stage && (
    <Booth
      stage={stage}
      me={me}
      canDj={permissions.canDj}
      isModerator={permissions.isModerator}
      busy={action.isPending}
      {...boothActs}
      nameOf={nameOf}
      avatarOf={avatarOf}
      djDisabledUntil={permissions.djDisabledUntil}
      compact={chatOnly}
    />
  );
  const crowdView = stage && (
    <Crowd stage={stage} nameOf={nameOf} avatarOf={avatarOf} nearStage={known} hidden={hiddenFromFloor} />
  );
  const nowPlayingView = stage && (
    <NowPlaying
      stage={stage}
      me={me}
      isModerator={permissions.isModerator}
      positionNow={positionNow}
      crates={myCrates}
      busy={action.isPending}
      {...playActs}
      nameOf={nameOf}
      avatarOf={avatarOf}
    >
      {controls}
    </NowPlaying>
  );
  const recentView = (recent.data?.length ?? 0) > 0 && (
    <section className="tt-card tt-live-recent" aria-labelledby="live-recent">
      <h2 id="live-recent" className="tt-eyebrow">
        {t("recent")}
      </h2>
      <ol data-testid="live-recent">
        {recent.data!.map((item, index) => (
          <li key={`${item.crateSongUuid}-${index}`}>
            <span className="tt-live-recent__title">{item.trackName}</span>
            <span className="tt-muted">{item.artistName}</span>
            <span className="tt-muted tt-live-recent__time">{format.duration(item.duration)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
  const chatView = (
    <section className="tt-live-chat" aria-labelledby="live-chat">
      <h2 id="live-chat" className="tt-eyebrow">
        {t("chat")}
      </h2>
      <Suspense fallback={<p className="tt-muted">{t("chatUnavailable")}</p>}>
        {(renderChat ?? ((props: ChatSlotProps) => <ChatPanel {...props} />))({
          room: roomId,
          feed: live.chat,
          canSend: me !== undefined && permissions.canChat,
          userUuid: me,
          isModerator: permissions.isModerator,
          activity: live.activity,
          people,
          fill: !phone,
        })}
      </Suspense>
    </section>
  );
  const peopleView = renderPeople ? renderPeople() : stage ? <PeoplePanel room={roomId} stage={stage} me={me} /> : null;
  return (
    <section className="tt-live" aria-labelledby="live-stage" data-status={live.status}>
      <header className="tt-live-header">
        <h2 id="live-stage" className="tt-visually-hidden">
          {t("stage")}
        </h2>
        <Badge tone={live.status === "live" ? "success" : "neutral"} className="tt-live-status">
          <span className="tt-live-status__dot" aria-hidden="true" />
          <span role="status">{statusText}</span>
        </Badge>
        <Button variant="ghost" size="sm" icon={<RefreshCw aria-hidden="true" />} onClick={live.resync}>
          {t("resync")}
        </Button>
      </header>
      {!session.signedIn && (
        <p className="tt-live-notice">
          <Info aria-hidden="true" />
          {t("guestNotice")}
        </p>
      )}
      <ErrorText error={action.error ?? live.refused} />
      {stage?.room?.liveAudio && (
        <LiveAudio
          room={stage.room.uuid}
          me={me}
          isOwner={me !== undefined && me === stage.room.ownerUuid}
          appId={configuredAgora}
          {...(loadLiveAudio ? { loadEngine: loadLiveAudio } : {})}
        />
      )}
      {stage && (
        <div className={`tt-live-grid${phone ? " tt-live-grid--phone" : ""}`} data-design={design}>
          <div className="tt-live-main">
            <Venue design={design} posterUrl={stage.room?.posterUrl} booth={boothView} floor={crowdView} />
            {nowPlayingView}
            {!phone && (
              <div className="tt-live-more">
                {me !== undefined && <QueuePanel refreshKey={playId ?? ""} />}
                {peopleView}
                {recentView}
              </div>
            )}
          </div>
          {phone ? (
            <Tabs className="tt-live-panes" defaultValue="chat">
              <TabList label={t("panes.label")}>
                <Tab value="chat">{t("panes.chat")}</Tab>
                <Tab value="people" count={stage.listeners?.users ?? 0}>
                  {t("panes.people")}
                </Tab>
                {me !== undefined && <Tab value="queue">{t("panes.queue")}</Tab>}
              </TabList>
              <TabPanel value="chat" keepMounted>
                <div className="tt-live-chat-slot" ref={placeChat} />
              </TabPanel>
              <TabPanel value="people">{peopleView}</TabPanel>
              {me !== undefined && (
                <TabPanel value="queue">
                  <QueuePanel refreshKey={playId ?? ""} />
                  {recentView}
                </TabPanel>
              )}
            </Tabs>
          ) : (
            /* Beside the stage, the full height of the room. */
            <aside className="tt-live-side" ref={fitToWindow}>
              <div className="tt-live-chat-slot" ref={placeChat} />
            </aside>
          )}
        </div>
      )}
      {stage && chatHost && createPortal(chatView, chatHost)}
      <PersonCard room={roomId} me={me} isModerator={permissions.isModerator} seats={seatUsers} />
    </section>
  );
}
