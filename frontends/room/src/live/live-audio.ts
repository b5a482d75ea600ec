// A room's live audio (issue 14): when the room's liveAudio setting is on and the deployment configures Agora, the
// owner speaks into the room's voice channel (Agora PUBLISHER, "host") and everyone else listens (SUBSCRIBER,
// "audience"). The page talks to one small interface, like the player's play handlers; the Agora Web SDK behind
// it is its own chunk, fetched only when a room with live audio is opened on a deployment that has Agora.

/** Agora's roles, as the user service's token endpoint names them. */
export type LiveAudioRole = "PUBLISHER" | "SUBSCRIBER";

/** What joining the room's voice channel needs: the token endpoint's answer and the role it was asked for. */
export interface LiveAudioJoin {
  appId: string;
  /** The room's uuid. */
  channel: string;
  token: string;
  /** The Agora user account the token is for (the caller's uuid). */
  uid: string;
  role: LiveAudioRole;
}

/** A joined channel. */
export interface LiveAudioSession {
  /** Stops the microphone (a publisher's) and the remote audio, and leaves the channel. */
  leave(): Promise<void>;
}

/** Joins a voice channel: a publisher publishes the microphone, a subscriber plays the others' audio. */
export interface LiveAudioEngine {
  join(request: LiveAudioJoin): Promise<LiveAudioSession>;
}

/**
 * The part of the Agora Web SDK (agora-rtc-sdk-ng, 4.x) the engine uses; agora-sdk.ts checks the SDK against it.
 * Tracks and remote users stay the SDK's own types (Track, User): the engine only hands them back.
 */
export interface AgoraRemoteUser {
  readonly uid: string | number;
  readonly audioTrack?: { play(): void; stop(): void } | undefined;
}
export interface AgoraMicrophoneTrack {
  close(): void;
}
type MediaType = "audio" | "video" | "datachannel";
export interface AgoraClient<Track, User extends AgoraRemoteUser> {
  setClientRole(role: "host" | "audience"): Promise<void>;
  join(appid: string, channel: string, token: string | null, uid?: string | number | null): Promise<string | number>;
  publish(tracks: Track[]): Promise<void>;
  subscribe(user: User, mediaType: "audio"): Promise<unknown>;
  leave(): Promise<void>;
  on(event: "user-published", listener: (user: User, mediaType: MediaType) => void): void;
  on(event: "user-unpublished", listener: (user: User, mediaType: MediaType) => void): void;
  removeAllListeners(): void;
}
export interface AgoraSdk<
  Track extends AgoraMicrophoneTrack = AgoraMicrophoneTrack,
  User extends AgoraRemoteUser = AgoraRemoteUser,
> {
  createClient(config: { mode: "live"; codec: "vp8" }): AgoraClient<Track, User>;
  createMicrophoneAudioTrack(): Promise<Track>;
}

/** The Agora Web SDK behind the interface; the SDK itself is given (the page loads it lazily, see loadAgoraEngine). */
export function createAgoraEngine<Track extends AgoraMicrophoneTrack, User extends AgoraRemoteUser>(
  sdk: AgoraSdk<Track, User>,
): LiveAudioEngine {
  return {
    async join({ appId, channel, token, uid, role }) {
      // "live" mode: hosts publish, the audience only receives.
      const client = sdk.createClient({ mode: "live", codec: "vp8" });
      await client.setClientRole(role === "PUBLISHER" ? "host" : "audience");
      const playing = new Set<User>();
      client.on("user-published", (user, mediaType) => {
        if (mediaType !== "audio") return;
        void client
          .subscribe(user, "audio")
          .then(() => {
            user.audioTrack?.play();
            playing.add(user);
          })
          .catch(() => undefined);
      });
      client.on("user-unpublished", (user) => {
        user.audioTrack?.stop();
        playing.delete(user);
      });
      let microphone: Track | undefined;
      try {
        await client.join(appId, channel, token, uid);
        if (role === "PUBLISHER") {
          microphone = await sdk.createMicrophoneAudioTrack();
          await client.publish([microphone]);
        }
      } catch (error) {
        microphone?.close();
        client.removeAllListeners();
        await client.leave().catch(() => undefined);
        throw error;
      }
      return {
        async leave() {
          microphone?.close();
          for (const user of playing) user.audioTrack?.stop();
          playing.clear();
          client.removeAllListeners();
          await client.leave();
        },
      };
    },
  };
}

let loading: Promise<LiveAudioEngine> | undefined;

/** The Agora engine, its SDK fetched on first use (its own chunk); a failed fetch is tried again next time. */
export function loadAgoraEngine(): Promise<LiveAudioEngine> {
  loading ??= import("./agora-sdk.ts").then((module) => createAgoraEngine(module.sdk));
  loading.catch(() => (loading = undefined));
  return loading;
}
