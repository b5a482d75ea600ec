// The Agora Web SDK (agora-rtc-sdk-ng), its own chunk: only live-audio.ts's loadAgoraEngine imports this module,
// dynamically, so the SDK is fetched only when a room's live audio is joined on a deployment with Agora.
//
// PENDING (issue 14): the package is not installed yet (`npm install agora-rtc-sdk-ng -w frontends/room`); until
// it is, joining live audio fails with the message below, and the build and typecheck stay green. Once it is
// installed, this module is just:
//   import AgoraRTC from "agora-rtc-sdk-ng";
//   export const sdk: AgoraSdk = AgoraRTC; // typed against the part the engine uses
import type { AgoraSdk } from "./live-audio.ts";

const missing = () => {
  throw new Error("the Agora Web SDK is not installed on this site (agora-rtc-sdk-ng)");
};

export const sdk: AgoraSdk = { createClient: missing, createMicrophoneAudioTrack: missing };
