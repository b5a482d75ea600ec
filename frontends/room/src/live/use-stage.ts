import type { Kicked, RoomActivity, Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { createChatFeed, createFeed, type ChatFeed, type Feed } from "./chat-feed.ts";
import {
  createStageConnection,
  type ConnectionStatus,
  type JoinStream,
  type StageConnection,
} from "./stage-connection.ts";
import { announceStage, STAGE_COMMIT_EVENT } from "./probe.ts";
import { kickDetailsOf, storeCurrentDancefloor, storeKickDetails, type KickDetails } from "./storage.ts";

export interface LiveStage {
  stage: Stage | null;
  status: ConnectionStatus;
  kicked: KickDetails | null;
  /** Why the join was refused for good (not admitted, no such room). */
  refused: Error | null;
  chat: ChatFeed;
  /** What happens in the room besides chat (skips, seats, kicks), as the join stream announces it. */
  activity: Feed<RoomActivity>;
  resync(): void;
}

/**
 * The room's stage over the join stream, for as long as the screen shows it. Stores the room's slug under
 * currentDancefloor (and its new slug when the room's settings change it); a kick clears it and keeps the details.
 */
export function useStage(
  room: string,
  join: JoinStream,
  onClockSample?: (t0: number, serverMs: number, t1: number) => void,
): LiveStage {
  const [stage, setStage] = useState<Stage | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [kicked, setKicked] = useState<KickDetails | null>(null);
  const [refused, setRefused] = useState<Error | null>(null);
  const chat = useMemo(() => createChatFeed(), []);
  const activity = useMemo(() => createFeed<RoomActivity>(), []);
  const connection = useRef<StageConnection | null>(null);
  // The latest callbacks, without reconnecting when they change.
  const sample = useRef(onClockSample);
  useEffect(() => {
    sample.current = onClockSample;
  });

  useEffect(() => {
    const created = createStageConnection({
      room,
      join,
      onStage: setStage,
      onStatus: setStatus,
      onChat: (event) => chat.publish(event),
      onActivity: (event) => activity.publish(event),
      onKicked: (details: Kicked) => {
        const stored = kickDetailsOf(details);
        storeKickDetails(stored);
        storeCurrentDancefloor(null);
        setStage(null);
        setKicked(stored);
      },
      onRefused: setRefused,
      onClockSample: (t0, serverMs, t1) => sample.current?.(t0, serverMs, t1),
    });
    connection.current = created;
    created.start();
    return () => {
      created.close();
      connection.current = null;
    };
  }, [room, join, chat, activity]);

  // The bench's mark: this stage is in the DOM now (the room's components render from it in the same commit).
  useLayoutEffect(() => {
    if (stage) announceStage(STAGE_COMMIT_EVENT, stage.version);
  }, [stage]);

  const slug = stage?.room?.slug;
  useEffect(() => {
    if (slug) storeCurrentDancefloor(slug);
  }, [slug]);

  return { stage, status, kicked, refused, chat, activity, resync: () => connection.current?.resync() };
}
