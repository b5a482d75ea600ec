// The Agora Web SDK (agora-rtc-sdk-ng, its ES module build), its own chunk: only live-audio.ts's loadAgoraEngine
// imports this module, dynamically, so the SDK is fetched only when a room's live audio is joined on a deployment
// with Agora.
import {
  createClient,
  createMicrophoneAudioTrack,
  type IAgoraRTCRemoteUser,
  type IMicrophoneAudioTrack,
} from "agora-rtc-sdk-ng/esm";
import type { AgoraSdk } from "./live-audio.ts";

// Typed against the part the engine uses: an SDK update that changes it fails the typecheck here.
export const sdk: AgoraSdk<IMicrophoneAudioTrack, IAgoraRTCRemoteUser> = { createClient, createMicrophoneAudioTrack };
