// The recording fake provider server lives in the kit's testing helpers (shared by every service).
export { decodeBasicAuth, startFakeServer } from "@tt/kit/testing";
export type { FakeAnswer, FakeHandler, FakeServer, RecordedRequest } from "@tt/kit/testing";
