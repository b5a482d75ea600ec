import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createDevAgoraTokens, createSignedAgoraTokens } from "./agora.ts";

// The package's own parser, to read back what was signed; not part of its typed API.
const { AccessToken2, ServiceRtc } = createRequire(import.meta.url)("agora-token/src/AccessToken2.js") as {
  AccessToken2: new () => {
    from_string(token: string): boolean;
    verifySignature(certificate: string): boolean;
    // Strings come back as Buffers from the parser; String() reads them.
    appId: Buffer;
    expire: number;
    services: { __channel_name: Buffer; __uid: Buffer; __privileges: Record<string, number> }[];
  };
  ServiceRtc: Record<string, number>;
};

const APP_ID = "970ca35de60c44645bbae8a215061b33";
const CERTIFICATE = "5cfd2fd1755d40ecb72977518be15d3b";

function parse(token: string) {
  const parsed = new AccessToken2();
  expect(parsed.from_string(token)).toBe(true);
  return parsed;
}

describe("Agora RTC tokens", () => {
  const now = Date.parse("2026-06-01T10:00:00Z");
  const agora = createSignedAgoraTokens({ appId: APP_ID, appCertificate: CERTIFICATE, now: () => now });

  it("signs a publisher token for a string account that joins and publishes", async () => {
    const result = await agora.rtcToken({ channel: "room-42", uid: "5b0e-user", role: "PUBLISHER", ttlSeconds: 3600 });
    expect(result.appId).toBe(APP_ID);
    expect(result.expiresAt).toEqual(new Date(now + 3_600_000));
    expect(result.token.startsWith("007")).toBe(true);

    const parsed = parse(result.token);
    expect(parsed.verifySignature(CERTIFICATE)).toBe(true);
    expect(parsed.verifySignature("00000000000000000000000000000000")).toBe(false);
    expect(String(parsed.appId)).toBe(APP_ID);
    expect(parsed.expire).toBe(3600);
    const [rtc] = parsed.services;
    expect(String(rtc?.__channel_name)).toBe("room-42");
    expect(String(rtc?.__uid)).toBe("5b0e-user");
    expect(
      Object.keys(rtc?.__privileges ?? {})
        .map(Number)
        .sort(),
    ).toEqual([
      ServiceRtc.kPrivilegeJoinChannel,
      ServiceRtc.kPrivilegePublishAudioStream,
      ServiceRtc.kPrivilegePublishVideoStream,
      ServiceRtc.kPrivilegePublishDataStream,
    ]);
  });

  it("signs a subscriber token for a numeric uid that may only join", async () => {
    const { token } = await agora.rtcToken({ channel: "room-42", uid: 1234, role: "SUBSCRIBER", ttlSeconds: 600 });
    const [rtc] = parse(token).services;
    expect(String(rtc?.__uid)).toBe("1234");
    expect(Object.keys(rtc?.__privileges ?? {}).map(Number)).toEqual([ServiceRtc.kPrivilegeJoinChannel]);
  });

  it("refuses a lifetime over a day, a bad channel and a bad uid", async () => {
    await expect(agora.rtcToken({ channel: "c", uid: 1, role: "SUBSCRIBER", ttlSeconds: 86_401 })).rejects.toThrow(
      /ttlSeconds/,
    );
    await expect(agora.rtcToken({ channel: "a/b", uid: 1, role: "SUBSCRIBER", ttlSeconds: 60 })).rejects.toThrow(
      /channel/,
    );
    await expect(agora.rtcToken({ channel: "c", uid: -1, role: "SUBSCRIBER", ttlSeconds: 60 })).rejects.toThrow(/uid/);
  });
});

describe("development Agora", () => {
  it("says voice and video are not configured", async () => {
    await expect(
      createDevAgoraTokens().rtcToken({ channel: "c", uid: 1, role: "PUBLISHER", ttlSeconds: 60 }),
    ).rejects.toMatchObject({
      provider: "agora",
      kind: "not-configured",
      reason: "Voice and video (Agora) is not configured",
    });
  });
});
