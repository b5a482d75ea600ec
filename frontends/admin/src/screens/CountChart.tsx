export interface CountPoint {
  at: Date;
  topic: string;
  count: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };
const COLOURS = ["#e4572e", "#29335c", "#f3a712", "#a8c686", "#669bbc", "#8e44ad", "#16a085", "#c0392b"];

/** Series per topic, buckets ascending. */
export function seriesOf(points: readonly CountPoint[]): Map<string, CountPoint[]> {
  const byTopic = new Map<string, CountPoint[]>();
  for (const point of points) {
    const list = byTopic.get(point.topic) ?? [];
    list.push(point);
    byTopic.set(point.topic, list);
  }
  for (const list of byTopic.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime());
  return byTopic;
}

/** A small line chart of event counts over time, one line per topic (plain SVG, no chart package). */
export function CountChart({
  points,
  label,
  format,
}: {
  points: readonly CountPoint[];
  label: string;
  format: (at: Date) => string;
}) {
  const series = seriesOf(points);
  const times = points.map((p) => p.at.getTime());
  const minT = Math.min(...times);
  const maxT = Math.max(...times);
  const maxC = Math.max(1, ...points.map((p) => p.count));
  const x = (t: number) =>
    PAD.left +
    (maxT === minT
      ? (WIDTH - PAD.left - PAD.right) / 2
      : ((t - minT) / (maxT - minT)) * (WIDTH - PAD.left - PAD.right));
  const y = (c: number) => HEIGHT - PAD.bottom - (c / maxC) * (HEIGHT - PAD.top - PAD.bottom);
  return (
    <figure className="tt-admin-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} width="100%">
        <line x1={PAD.left} y1={y(0)} x2={WIDTH - PAD.right} y2={y(0)} stroke="currentColor" strokeOpacity="0.4" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={y(0)} stroke="currentColor" strokeOpacity="0.4" />
        <text x={PAD.left - 6} y={y(maxC) + 4} textAnchor="end" fontSize="11" fill="currentColor">
          {maxC}
        </text>
        <text x={PAD.left - 6} y={y(0)} textAnchor="end" fontSize="11" fill="currentColor">
          0
        </text>
        {points.length > 0 && (
          <>
            <text x={PAD.left} y={HEIGHT - 8} fontSize="11" fill="currentColor">
              {format(new Date(minT))}
            </text>
            <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" fontSize="11" fill="currentColor">
              {format(new Date(maxT))}
            </text>
          </>
        )}
        {[...series.entries()].map(([topic, list], index) => {
          const colour = COLOURS[index % COLOURS.length];
          return (
            <g key={topic} data-topic={topic}>
              <polyline
                fill="none"
                stroke={colour}
                strokeWidth="2"
                points={list.map((p) => `${x(p.at.getTime()).toFixed(1)},${y(p.count).toFixed(1)}`).join(" ")}
              />
              {list.map((p) => (
                <circle key={p.at.getTime()} cx={x(p.at.getTime())} cy={y(p.count)} r="3" fill={colour}>
                  <title>{`${topic} ${format(p.at)}: ${p.count}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul className="tt-admin-legend">
          {[...series.keys()].map((topic, index) => (
            <li key={topic}>
              <span className="tt-admin-swatch" style={{ background: COLOURS[index % COLOURS.length] }} /> {topic}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
