// CLUB, CLUB_UA and UNDERGROUND: a dark room with a light rig; the club has a mirror ball, the underground brick
// arches and a concrete floor.
import type { SceneArtProps } from "../designs.ts";
import { SceneLayer } from "./layer.tsx";

/** The club's six light beams, in two groups that sweep at their own pace (every other beam in the other colour). */
function Beams({ odd }: { odd: boolean }) {
  return (
    <SceneLayer className={odd ? "tt-scene-art--sweep tt-scene-art--odd" : "tt-scene-art--sweep"}>
      {[0, 1, 2, 3, 4, 5]
        .filter((i) => (i % 2 === 1) === odd)
        .map((i) => (
          <path
            key={i}
            className={
              odd ? "tt-scene-beam tt-scene-beam--sweep" : "tt-scene-beam tt-scene-beam--sweep tt-scene-beam--alt"
            }
            d={`M${120 + i * 150} 0 L${60 + i * 170} 330 L${140 + i * 160} 330 Z`}
          />
        ))}
    </SceneLayer>
  );
}

/** The rig, the floor and the speakers: in front of the beams. */
function Front() {
  return (
    <>
      <rect className="tt-scene-truss" x="0" y="0" width="1000" height="14" />
      <rect className="tt-scene-floor" y="330" width="1000" height="270" />
      {Array.from({ length: 10 }, (_, i) => (
        <line key={i} className="tt-scene-grid" x1={i * 110 - 40} y1="600" x2={300 + i * 45} y2="330" />
      ))}
      <rect className="tt-scene-speaker" x="30" y="200" width="90" height="140" rx="6" />
      <rect className="tt-scene-speaker" x="880" y="200" width="90" height="140" rx="6" />
      <circle className="tt-scene-cone" cx="75" cy="250" r="26" />
      <circle className="tt-scene-cone" cx="925" cy="250" r="26" />
      <circle className="tt-scene-cone" cx="75" cy="310" r="16" />
      <circle className="tt-scene-cone" cx="925" cy="310" r="16" />
    </>
  );
}

export default function ClubArt({ design }: SceneArtProps) {
  if (design === "UNDERGROUND") {
    return (
      <SceneLayer scene={design}>
        <rect className="tt-scene-wall" width="1000" height="600" />
        {[0, 250, 500, 750].map((x) => (
          <path key={x} className="tt-scene-arch" d={`M${x + 20} 330 V140 A105 105 0 0 1 ${x + 230} 140 V330 Z`} />
        ))}
        {Array.from({ length: 10 }, (_, i) => (
          <line key={i} className="tt-scene-line" x1="0" y1={30 + i * 30} x2="1000" y2={30 + i * 30} />
        ))}
        <rect className="tt-scene-pipe" x="0" y="18" width="1000" height="10" />
        <Front />
      </SceneLayer>
    );
  }
  // The beams sweep between the wall and the rig: the wall and the mirror ball behind them, the rest in front.
  return (
    <>
      <SceneLayer scene={design}>
        <rect className="tt-scene-wall" width="1000" height="600" />
        {/* The mirror ball hangs to one side: the middle of the stage is the booth's. */}
        <line className="tt-scene-line" x1="850" y1="0" x2="850" y2="40" />
        <circle className="tt-scene-ball" cx="850" cy="62" r="22" />
      </SceneLayer>
      <Beams odd={false} />
      <Beams odd />
      <SceneLayer>
        <Front />
      </SceneLayer>
    </>
  );
}
