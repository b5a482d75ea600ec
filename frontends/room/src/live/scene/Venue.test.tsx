import { create } from "@bufbuild/protobuf";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { renderWithKit } from "@tt/web-kit/testing";
import { afterEach, describe, expect, it } from "vitest";
import { Booth } from "../Booth.tsx";
import { onOpenPersonCard } from "../people/person-card.ts";
import { Crowd } from "./Crowd.tsx";
import { CROWD_CAP_DESKTOP, CROWD_GRID_DESKTOP, sampleCrowd, spotOf } from "./crowd.ts";
import { ROOM_DESIGNS } from "./designs.ts";
import { Venue } from "./Venue.tsx";

const ROOM = "00000000-0000-4000-8000-000000000001";
const user = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
const DJS = [user(0xd1), user(0xd2)];
const NAMES = new Map([
  [DJS[0]!, "Nightjar"],
  [DJS[1]!, "Owl"],
]);
const nameOf = (uuid: string) => NAMES.get(uuid) ?? `Listener ${parseInt(uuid.slice(-4), 16)}`;
const avatarOf = () => undefined;

function stageOf(init: {
  numberOfDjs?: number;
  design?: string;
  djType?: string;
  seats?: string[];
  playing?: string;
  dancefloor?: string[];
  byUser?: Record<string, string>;
  grabbedBy?: Record<string, boolean>;
  guests?: number;
}): Stage {
  return create(StageSchema, {
    version: 1n,
    room: {
      uuid: ROOM,
      numberOfDjs: init.numberOfDjs ?? 3,
      design: init.design ?? "CLUB",
      djType: init.djType ?? "EVERYONE",
    },
    seats: (init.seats ?? []).map((userUuid) => ({ userUuid })),
    ...(init.playing ? { play: { playId: "p1", djUuid: init.playing } } : {}),
    dancefloor: init.dancefloor ?? [],
    votes: { byUser: init.byUser ?? {}, grabbedBy: init.grabbedBy ?? {} },
    listeners: { users: (init.dancefloor ?? []).length, guests: init.guests ?? 0 },
  });
}

function booth(stage: Stage, props: Partial<Parameters<typeof Booth>[0]> = {}) {
  return (
    <Booth
      stage={stage}
      me={user(0xe1)}
      canDj
      isModerator={false}
      busy={false}
      onTake={() => undefined}
      onLeave={() => undefined}
      onRemove={() => undefined}
      nameOf={nameOf}
      avatarOf={avatarOf}
      {...props}
    />
  );
}

let unsubscribe: (() => void) | undefined;
afterEach(() => unsubscribe?.());

describe("the venue (issue 25)", () => {
  it.each(ROOM_DESIGNS.filter((design) => design !== "CHAT_ONLY"))(
    "draws the %s scene with the stage and one deck per DJ seat",
    async (design) => {
      const stage = stageOf({ design, numberOfDjs: 4 });
      const { container } = renderWithKit(
        <Venue
          design={design}
          booth={booth(stage)}
          floor={<Crowd stage={stage} nameOf={nameOf} avatarOf={avatarOf} />}
        />,
      );
      await waitForScene(container, design);
      expect(container.querySelector(".tt-venue")?.getAttribute("data-design")).toBe(design);
      expect(screen.getByTestId("venue-stage")).toBeTruthy();
      expect(container.querySelectorAll("[data-deck]")).toHaveLength(4);
    },
  );

  it("draws no stage in a chat-only room: the seats only, no scene, no decks, no floor", () => {
    const stage = stageOf({ design: "CHAT_ONLY", numberOfDjs: 2 });
    const { container } = renderWithKit(
      <Venue
        design="CHAT_ONLY"
        booth={booth(stage, { compact: true })}
        floor={<Crowd stage={stage} nameOf={nameOf} avatarOf={avatarOf} />}
      />,
    );
    expect(screen.queryByTestId("venue-stage")).toBeNull();
    expect(container.querySelector(".tt-scene-art")).toBeNull();
    expect(container.querySelectorAll("[data-deck]")).toHaveLength(0);
    expect(screen.getByRole("list", { name: "DJ booth" })).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Dancefloor" })).toBeNull();
  });

  it("hangs the poster on the wall of a scene that has one, and an unknown design is drawn as the default", async () => {
    const stage = stageOf({});
    const { container } = renderWithKit(
      <Venue design="SPACESHIP" posterUrl="/media/posters/p.png" booth={booth(stage)} floor={null} />,
    );
    await waitForScene(container, "CLUB");
    expect(screen.getByRole("img", { name: "The room's poster" }).getAttribute("src")).toBe("/media/posters/p.png");
  });

  it.each([
    ["CLUB", ".tt-scene-art--sweep", ".tt-scene-beam--sweep", 6],
    ["BARN", ".tt-scene-art--twinkle", ".tt-scene-bulb", 14],
  ])(
    "draws %s's moving parts in layers of their own, which move whole (the compositor's work)",
    async (design, layer, part, parts) => {
      const { container } = renderWithKit(<Venue design={design} booth={booth(stageOf({}))} floor={null} />);
      await waitForScene(container, design);
      // Two groups moving at their own pace, each an <svg> over the still art; every moving part is in one of them.
      expect(container.querySelectorAll(`.tt-venue__backdrop > svg${layer}`)).toHaveLength(2);
      expect(container.querySelectorAll(`${layer} ${part}`)).toHaveLength(parts);
      expect(container.querySelectorAll(part)).toHaveLength(parts);
      // One layer carries the scene's name (the journeys wait for it).
      expect(container.querySelectorAll("[data-scene]")).toHaveLength(1);
    },
  );
});

/** The family's art arrives as its own chunk, drawn for this design. */
async function waitForScene(container: HTMLElement, design: string) {
  await waitFor(() => expect(container.querySelector(`svg[data-scene="${design}"]`)).toBeTruthy());
}

describe("the booth (issue 25)", () => {
  it("seats the DJs in order behind their decks, lights the playing one and opens a DJ's card", () => {
    const opened: string[] = [];
    unsubscribe = onOpenPersonCard((uuid) => opened.push(uuid));
    renderWithKit(booth(stageOf({ seats: [DJS[1]!, DJS[0]!], playing: DJS[1]!, numberOfDjs: 3 })));
    const seats = within(screen.getByRole("list", { name: "DJ booth" })).getAllByRole("listitem");
    expect(seats.map((seat) => seat.getAttribute("data-user"))).toEqual([DJS[1], DJS[0], null]);
    expect(seats.map((seat) => seat.getAttribute("aria-current"))).toEqual(["true", null, null]);
    fireEvent.click(within(seats[1]!).getByRole("button", { name: "Nightjar" }));
    expect(opened).toEqual([DJS[0]]);
    // The first free seat invites the viewer.
    expect(within(seats[2]!).getByRole("button", { name: "Take a seat" })).toBeTruthy();
  });

  it.each([
    ["a guest", { me: undefined }, "Sign in to take a DJ seat."],
    ["a listener without canDj", { canDj: false }, "You cannot DJ in this room."],
    ["anyone but invited DJs", { canDj: false, djType: "INVITE_ONLY" }, "Only invited DJs play in this room."],
    [
      "a DJ-disabled listener",
      { canDj: false, djDisabledUntil: null },
      "A moderator has stopped you from DJing in this room.",
    ],
  ] as const)("tells %s why the empty seat is not theirs", (_, props, reason) => {
    const { djType, ...rest } = props as { djType?: string; me?: undefined; canDj?: boolean; djDisabledUntil?: null };
    renderWithKit(booth(stageOf({ seats: [DJS[0]!], numberOfDjs: 2, ...(djType ? { djType } : {}) }), rest));
    const seats = within(screen.getByRole("list", { name: "DJ booth" })).getAllByRole("listitem");
    expect(within(seats[1]!).getByText(reason)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Take a seat" })).toBeNull();
  });

  it("gives the end of a timed DJ ban in the viewer's local time", () => {
    const until = Date.UTC(2026, 11, 24, 18, 30);
    renderWithKit(booth(stageOf({ numberOfDjs: 1 }), { canDj: false, djDisabledUntil: until }));
    const text = screen.getByText(/stopped you from DJing here until/).textContent ?? "";
    expect(text).not.toContain(String(until));
    expect(text).toMatch(/December 24/);
  });
});

describe("the crowd (issue 25)", () => {
  const floor = Array.from({ length: 100 }, (_, i) => user(0x1000 + i));

  it("puts a listener on the same spot on every join, and no two listeners on one spot", () => {
    const alone = sampleCrowd([floor[7]!], {}).spots[0]!;
    expect(alone).toEqual(spotOf(floor[7]!, false));
    expect(sampleCrowd([floor[7]!], {}).spots[0]).toEqual(alone);
    expect(alone.x).toBeGreaterThanOrEqual(0);
    expect(alone.x).toBeLessThanOrEqual(100);
    // A full floor: every avatar has a cell of its own (a whole target to tap), and most stand where they would alone.
    const full = sampleCrowd(floor, {}).spots;
    const cellOf = (spot: { x: number; y: number }) =>
      `${Math.floor((spot.x / 100) * CROWD_GRID_DESKTOP.cols)}:${Math.floor((spot.y / 100) * CROWD_GRID_DESKTOP.rows)}`;
    expect(new Set(full.map(cellOf)).size).toBe(full.length);
    const unmoved = full.filter((spot) => cellOf(spot) === cellOf(spotOf(spot.user, false)));
    expect(unmoved.length).toBeGreaterThan(full.length / 2);
  });

  it("draws at most the cap, the same sample on every page, friends first and nearest the stage", () => {
    const near = new Set([floor[99]!, floor[98]!]);
    const a = sampleCrowd(floor, { cap: CROWD_CAP_DESKTOP, nearStage: near });
    const b = sampleCrowd([...floor].reverse(), { cap: CROWD_CAP_DESKTOP, nearStage: near });
    expect(a.spots).toHaveLength(CROWD_CAP_DESKTOP);
    expect(a.more).toBe(100 - CROWD_CAP_DESKTOP);
    expect(b).toEqual(a);
    const friends = a.spots.filter((spot) => near.has(spot.user));
    expect(friends).toHaveLength(2);
    const farthestFriend = Math.max(...friends.map((spot) => spot.y));
    const nearestOther = Math.min(...a.spots.filter((spot) => !near.has(spot.user)).map((spot) => spot.y));
    // Friends in the front row; the others behind them, in the front row only once the rows behind are full.
    expect(farthestFriend).toBe(50 / CROWD_GRID_DESKTOP.rows);
    expect(farthestFriend).toBeLessThanOrEqual(nearestOther);
    const inFront = a.spots.filter((spot) => !near.has(spot.user) && spot.y === farthestFriend).length;
    expect(inFront).toBe(CROWD_CAP_DESKTOP - 2 - CROWD_GRID_DESKTOP.cols * (CROWD_GRID_DESKTOP.rows - 1));
    const few = sampleCrowd(floor.slice(0, 20), { nearStage: new Set([floor[0]!]) }).spots;
    expect(few.filter((spot) => spot.user !== floor[0] && spot.y === farthestFriend)).toHaveLength(0);
  });

  it("leaves the room's no-dancefloor users off the floor and counts the rest and the guests in words", () => {
    const hidden = new Set([floor[0]!]);
    const stage = stageOf({ dancefloor: floor.slice(0, 30), guests: 4 });
    renderWithKit(<Crowd stage={stage} nameOf={nameOf} avatarOf={avatarOf} hidden={hidden} cap={24} />);
    const list = screen.getByRole("list", { name: "Dancefloor" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(24);
    expect(list.querySelector(`[data-user="${floor[0]}"]`)).toBeNull();
    expect(screen.getByTestId("crowd-more").textContent).toBe("and 5 more on the floor");
    expect(screen.getByTestId("live-listeners").textContent).toBe("30 signed in, 4 guests");
  });

  it("says one guest in the singular", () => {
    renderWithKit(
      <Crowd stage={stageOf({ dancefloor: floor.slice(0, 2), guests: 1 })} nameOf={nameOf} avatarOf={avatarOf} />,
    );
    expect(screen.getByTestId("live-listeners").textContent).toBe("2 signed in, 1 guest");
  });

  it("makes a listener who liked the song dance, badges a grabber, and opens a listener's card", () => {
    const opened: string[] = [];
    unsubscribe = onOpenPersonCard((uuid) => opened.push(uuid));
    const [liker, hater, grabber] = floor;
    const stage = stageOf({
      dancefloor: [liker!, hater!, grabber!],
      byUser: { [liker!]: "like", [hater!]: "dislike" },
      grabbedBy: { [grabber!]: true },
    });
    const { container } = renderWithKit(<Crowd stage={stage} nameOf={nameOf} avatarOf={avatarOf} />);
    const spot = (uuid: string) => container.querySelector(`[data-user="${uuid}"]`)!;
    expect(spot(liker!).getAttribute("data-dancing")).toBe("true");
    expect(spot(hater!).hasAttribute("data-dancing")).toBe(false);
    expect(spot(grabber!).hasAttribute("data-dancing")).toBe(false);
    expect(within(spot(grabber!) as HTMLElement).getByText(`${nameOf(grabber!)} grabbed this song`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: nameOf(hater!) }));
    expect(opened).toEqual([hater]);
  });
});
