// BARN and BARN_UA: a timber barn, hay bales by the stage, string lights under the rafters.
import type { SceneArtProps } from "../designs.ts";
import { SceneLayer } from "./layer.tsx";

const BULBS = Array.from({ length: 14 }, (_, i) => ({ x: 60 + i * 63, y: 118 + Math.abs(Math.sin(i / 2.2)) * 30 }));

/** The bulbs twinkle in two groups half a cycle apart (every third bulb late): each group is a layer that fades. */
function Bulbs({ late }: { late: boolean }) {
  return (
    <SceneLayer className={late ? "tt-scene-art--twinkle tt-scene-art--late" : "tt-scene-art--twinkle"}>
      {BULBS.filter((_, i) => (i % 3 === 2) === late).map(({ x, y }) => (
        <circle key={x} className="tt-scene-bulb" cx={x} cy={y} r="7" />
      ))}
    </SceneLayer>
  );
}

export default function BarnArt({ design }: SceneArtProps) {
  return (
    <>
      <SceneLayer scene={design}>
        <rect className="tt-scene-wall" width="1000" height="600" />
        {Array.from({ length: 20 }, (_, i) => (
          <rect key={i} className="tt-scene-plank" x={i * 50} y="0" width="46" height="330" />
        ))}
        <path className="tt-scene-beam" d="M0 60 L500 0 L1000 60 L1000 80 L500 20 L0 80 Z" />
        <path className="tt-scene-line" d="M40 110 Q270 170 500 110 Q730 170 960 110" fill="none" />
        <rect className="tt-scene-floor" y="330" width="1000" height="270" />
        {Array.from({ length: 8 }, (_, i) => (
          <line key={i} className="tt-scene-line" x1="0" y1={350 + i * 32} x2="1000" y2={350 + i * 32} />
        ))}
        <rect className="tt-scene-bale" x="40" y="280" width="120" height="60" rx="8" />
        <rect className="tt-scene-bale" x="840" y="280" width="120" height="60" rx="8" />
        <rect className="tt-scene-bale" x="880" y="230" width="80" height="50" rx="8" />
      </SceneLayer>
      {/* Nothing of the barn is drawn over the bulbs: their layers lie on top of it. */}
      <Bulbs late={false} />
      <Bulbs late />
    </>
  );
}
