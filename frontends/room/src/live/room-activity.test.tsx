// Issue 25 on the room page: the join stream's room activity reaches the chat slot, and the vote-skip rule is said in
// one sentence beside the votes (both forms: active, and waiting for listeners).
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { screen, waitFor } from "@testing-library/react";
import { RoomActivityKind } from "@tt/proto/tt/social/v1/stage_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { useEffect, useState } from "react";
import { LiveRoom, type ChatSlotProps } from "./LiveRoom.tsx";
import { createFakeSocial, demoSong, DJ_UUID, LISTENER_UUID, ROOM_UUID, type FakeSocial } from "./testing.ts";

/** Shows the activity the page hands the chat slot, and whom it offers for `@`. */
function ActivityProbe({ activity, people }: ChatSlotProps) {
  const [kinds, setKinds] = useState<string[]>([]);
  useEffect(
    () => activity?.subscribe((a) => setKinds((list) => [...list, `${RoomActivityKind[a.kind]}:${a.dislikes}`])),
    [activity],
  );
  return (
    <p data-testid="activity-probe">
      {kinds.join(",")} | {(people ?? []).length} people
    </p>
  );
}

function render(social: FakeSocial, search = "") {
  const kit = createTestKit({ routes: social.routes, search });
  kit.session.signIn(
    { token: `t:${LISTENER_UUID}`, tokenType: "user" },
    { uuid: LISTENER_UUID, email: "l@x.test", role: "user" },
  );
  renderWithKit(
    <LiveRoom
      room={ROOM_UUID}
      permissions={{ canDj: true, canChat: true, isModerator: false }}
      players={[]}
      activity={false}
      renderChat={(props) => <ActivityProbe {...props} />}
    />,
    kit,
  );
}

function playing(social: FakeSocial, voteSkip: { active: boolean; threshold: number; minListeners: number }) {
  social.change((stage) => {
    stage.seats = [{ $typeName: "tt.social.v1.StageSeat", userUuid: DJ_UUID }];
    stage.dancefloor = [LISTENER_UUID];
    stage.play = {
      $typeName: "tt.social.v1.StagePlay",
      playId: "play-1",
      djUuid: DJ_UUID,
      song: demoSong(),
      duration: 120,
      startedAt: timestampFromMs(Date.now() - 10_000),
    };
    stage.voteSkip = { $typeName: "tt.social.v1.VoteSkip", enabled: true, dislikes: 0, ...voteSkip };
  });
}

describe("room activity and the vote-skip rule (issue 25)", () => {
  afterEach(() => localStorage.clear());

  it("hands the join stream's room activity and the room's people to the chat", async () => {
    const social = createFakeSocial();
    render(social);
    playing(social, { active: true, threshold: 2, minListeners: 3 });
    await waitFor(() => expect(screen.getByTestId("activity-probe").textContent).toContain("2 people"));
    social.send({
      kind: { case: "activity", value: { kind: RoomActivityKind.VOTE_SKIPPED, userUuid: DJ_UUID, dislikes: 2 } },
    });
    await waitFor(() => expect(screen.getByTestId("activity-probe").textContent).toContain("VOTE_SKIPPED:2"));
  });

  it("says the rule in one sentence: how many dislikes skip, or from how many listeners vote-skip starts", async () => {
    const social = createFakeSocial();
    render(social);
    playing(social, { active: false, threshold: 1, minListeners: 3 });
    const rule = await screen.findByTestId("live-voteskip-rule");
    expect(rule.textContent).toBe("Vote-skip starts with 3 listeners besides the DJ.");
    // Below the rule's room size the meter counts the dislikes without a goal ("0 of 1" would contradict the rule).
    const meter = screen.getByTestId("live-voteskip");
    expect(meter.getAttribute("aria-valuetext")).toBe("0 dislikes so far");
    social.change((stage) => {
      stage.voteSkip!.active = true;
      stage.voteSkip!.threshold = 2;
    });
    await waitFor(() =>
      expect(screen.getByTestId("live-voteskip-rule").textContent).toBe(
        "2 dislikes skip the song when they outnumber the likes.",
      ),
    );
    expect(screen.getByTestId("live-voteskip").getAttribute("aria-valuetext")).toBe("0 of 2 dislikes skip the song");
  });

  it("says the rule in Spanish", async () => {
    const social = createFakeSocial();
    render(social, "?lang=es");
    playing(social, { active: false, threshold: 1, minListeners: 3 });
    expect((await screen.findByTestId("live-voteskip-rule")).textContent).toBe(
      "El salto por votos empieza con 3 oyentes además del DJ.",
    );
  });
});
