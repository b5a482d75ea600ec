import { ConnectError } from "@connectrpc/connect";
import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Button } from "@tt/web-kit/ui";
import { Radio, RotateCcw } from "lucide-react";
import { useEffect, useState } from "react";
import { useProviderTokenClient } from "./api.ts";
import { loadAgoraEngine, type LiveAudioEngine, type LiveAudioRole } from "./live-audio.ts";
import { LIVE_NAMESPACE, liveTranslations } from "./locales.ts";

export interface LiveAudioProps {
  /** The room's uuid: the voice channel's name. */
  room: string;
  /** The signed-in user; guests get no Agora token (the token endpoint is for users and bots). */
  me: string | undefined;
  /** The room's owner publishes; everyone else subscribes. */
  isOwner: boolean;
  /** The deployment's Agora app id (/remotes.json agoraAppId); undefined: Agora is not configured. */
  appId: string | undefined;
  /** The engine behind the interface; by default Agora's, loaded on first use. */
  loadEngine?: () => Promise<LiveAudioEngine>;
}

type LiveAudioState =
  { status: "connecting" } | { status: "joined"; role: LiveAudioRole } | { status: "failed"; error: unknown };

/**
 * A room's live audio (issue 14), shown while the room's liveAudio setting is on: the owner publishes the
 * microphone into the room's channel, listeners play it; leaving the page (or the setting going off) leaves the
 * channel. Without Agora it says live audio is unavailable.
 */
export function LiveAudio({ room, me, isOwner, appId, loadEngine = loadAgoraEngine }: LiveAudioProps) {
  const { t } = useAppTranslation(LIVE_NAMESPACE, liveTranslations);
  const errorText = useErrorText();
  const tokens = useProviderTokenClient();
  const [attempt, setAttempt] = useState(0);
  const role: LiveAudioRole = isOwner ? "PUBLISHER" : "SUBSCRIBER";
  const enabled = appId !== undefined && me !== undefined;
  // The outcome of one join (room, role, attempt); another join is connecting until it has its own.
  const joinKey = `${room} ${role} ${appId ?? ""} ${me ?? ""} ${attempt}`;
  const [outcome, setOutcome] = useState<{ key: string; state: LiveAudioState } | null>(null);
  const state: LiveAudioState = outcome?.key === joinKey ? outcome.state : { status: "connecting" };

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let leave: (() => Promise<void>) | undefined;
    const setState = (next: LiveAudioState) => setOutcome({ key: joinKey, state: next });
    void (async () => {
      try {
        const [engine, answer] = await Promise.all([
          loadEngine(),
          tokens.createAgoraToken({ channel: room, role, ttlSeconds: 0 }, { signal: abort.signal }),
        ]);
        if (abort.signal.aborted) return;
        const session = await engine.join({
          appId: answer.appId || appId,
          channel: answer.channel || room,
          token: answer.token,
          uid: answer.uid || me,
          role,
        });
        leave = () => session.leave();
        // Left while joining: leave at once.
        if (abort.signal.aborted) return void leave().catch(() => undefined);
        setState({ status: "joined", role });
      } catch (error) {
        if (!abort.signal.aborted) setState({ status: "failed", error });
      }
    })();
    return () => {
      abort.abort();
      void leave?.().catch(() => undefined);
    };
  }, [enabled, joinKey, room, role, appId, me, loadEngine, tokens]);

  let text: string;
  if (appId === undefined) text = t("liveAudioUnavailable");
  else if (me === undefined) text = t("liveAudioSignIn");
  else if (state.status === "connecting") text = t("liveAudioConnecting");
  else if (state.status === "joined") text = state.role === "PUBLISHER" ? t("liveAudioOnAir") : t("liveAudioListening");
  else {
    const { error } = state;
    const reason =
      !(error instanceof ConnectError) && error instanceof Error && error.message ? error.message : errorText(error);
    text = t("liveAudioFailed", { reason });
  }
  return (
    <p className="tt-live-notice tt-live-audio" data-testid="live-audio" data-status={enabled ? state.status : "off"}>
      <Radio aria-hidden="true" />
      <span>
        {t("liveAudio")}: {text}
      </span>
      {enabled && state.status === "failed" && (
        <Button
          variant="ghost"
          size="sm"
          icon={<RotateCcw aria-hidden="true" />}
          onClick={() => setAttempt((n) => n + 1)}
        >
          {t("liveAudioRetry")}
        </Button>
      )}
    </p>
  );
}
