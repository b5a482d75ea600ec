// The demo stock's pictures, drawn here as SVG (no downloaded or copyrighted art): a listener with headphones in
// one of several kinds and colours for the avatars, a badge with a symbol for the consumables, a stack of coins
// for the token bundles. Every drawing is a pure function of its parameters, so a restart writes the same bytes.

export type Creature = "fox" | "cat" | "bear" | "owl" | "frog" | "robot" | "lion" | "record";

export interface AvatarArt {
  creature: Creature;
  /** Background, face and headphone colours. */
  sky: string;
  face: string;
  accent: string;
}

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256">${body}</svg>\n`;

const backdrop = (id: string, colour: string) =>
  `<defs><radialGradient id="${id}" cx="50%" cy="35%" r="75%"><stop offset="0" stop-color="#ffffff" stop-opacity="0.45"/>` +
  `<stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>` +
  `<rect width="256" height="256" rx="48" fill="${colour}"/><rect width="256" height="256" rx="48" fill="url(#${id})"/>`;

/** What sits on the head, drawn behind the face. */
function ears(a: AvatarArt): string {
  switch (a.creature) {
    case "fox":
      return `<path d="M70 110 L82 40 L120 86 Z M186 110 L174 40 L136 86 Z" fill="${a.face}"/><path d="M84 92 L88 60 L106 84 Z M172 92 L168 60 L150 84 Z" fill="#fff3e6"/>`;
    case "cat":
      return `<path d="M72 104 L78 50 L116 80 Z M184 104 L178 50 L140 80 Z" fill="${a.face}"/>`;
    case "bear":
      return `<circle cx="78" cy="78" r="26" fill="${a.face}"/><circle cx="178" cy="78" r="26" fill="${a.face}"/><circle cx="78" cy="78" r="12" fill="#00000022"/><circle cx="178" cy="78" r="12" fill="#00000022"/>`;
    case "owl":
      return `<path d="M76 84 L70 52 L104 74 Z M180 84 L186 52 L152 74 Z" fill="${a.face}"/>`;
    case "frog":
      return `<circle cx="92" cy="80" r="26" fill="${a.face}"/><circle cx="164" cy="80" r="26" fill="${a.face}"/>`;
    case "robot":
      return `<rect x="124" y="30" width="8" height="40" fill="#cfd6e0"/><circle cx="128" cy="30" r="10" fill="${a.accent}"/>`;
    case "lion": {
      const mane = Array.from({ length: 14 }, (_, i) => {
        const angle = (i / 14) * Math.PI * 2;
        return `<circle cx="${(128 + Math.cos(angle) * 70).toFixed(1)}" cy="${(140 + Math.sin(angle) * 70).toFixed(1)}" r="26" fill="#c8741a"/>`;
      }).join("");
      return mane + `<path d="M100 40 L106 16 L117 30 L128 8 L139 30 L150 16 L156 40 Z" fill="#f5c518"/>`;
    }
    case "record":
      return "";
  }
}

function eyes(a: AvatarArt): string {
  if (a.creature === "robot") {
    return `<rect x="90" y="120" width="28" height="20" rx="4" fill="${a.accent}"/><rect x="138" y="120" width="28" height="20" rx="4" fill="${a.accent}"/>`;
  }
  if (a.creature === "owl") {
    return `<circle cx="104" cy="130" r="22" fill="#fff"/><circle cx="152" cy="130" r="22" fill="#fff"/><circle cx="104" cy="132" r="10" fill="#222"/><circle cx="152" cy="132" r="10" fill="#222"/><path d="M120 152 L136 152 L128 168 Z" fill="#f0a020"/>`;
  }
  const y = a.creature === "frog" ? 80 : 128;
  return `<circle cx="104" cy="${y}" r="10" fill="#222"/><circle cx="152" cy="${y}" r="10" fill="#222"/><circle cx="107" cy="${y - 3}" r="3" fill="#fff"/><circle cx="155" cy="${y - 3}" r="3" fill="#fff"/>`;
}

function mouth(a: AvatarArt): string {
  if (a.creature === "owl") return "";
  if (a.creature === "robot") return `<rect x="104" y="162" width="48" height="8" rx="4" fill="#5b6472"/>`;
  if (a.creature === "frog")
    return `<path d="M88 150 Q128 190 168 150" stroke="#1d4d1d" stroke-width="6" fill="none"/>`;
  return `<ellipse cx="128" cy="156" rx="10" ry="7" fill="#3a2a2a"/><path d="M112 168 Q128 182 144 168" stroke="#3a2a2a" stroke-width="5" fill="none"/>`;
}

/** A demo avatar: a listener in headphones (or a spinning gold record, the season's award). */
export function avatarSvg(a: AvatarArt): string {
  const back = backdrop("glow", a.sky);
  if (a.creature === "record") {
    const grooves = [92, 80, 68, 56]
      .map((r) => `<circle cx="128" cy="128" r="${r}" fill="none" stroke="#00000033" stroke-width="3"/>`)
      .join("");
    const rays = Array.from({ length: 12 }, (_, i) => {
      const angle = (i / 12) * Math.PI * 2;
      const x = (128 + Math.cos(angle) * 124).toFixed(1);
      const y = (128 + Math.sin(angle) * 124).toFixed(1);
      return `<line x1="128" y1="128" x2="${x}" y2="${y}" stroke="#ffffff55" stroke-width="6"/>`;
    }).join("");
    return svg(
      back +
        rays +
        `<circle cx="128" cy="128" r="104" fill="${a.face}"/>${grooves}` +
        `<circle cx="128" cy="128" r="36" fill="${a.accent}"/><circle cx="128" cy="128" r="6" fill="#222"/>` +
        `<path d="M70 90 A70 70 0 0 1 128 58" stroke="#ffffff99" stroke-width="8" fill="none" stroke-linecap="round"/>`,
    );
  }
  const head =
    a.creature === "robot"
      ? `<rect x="62" y="70" width="132" height="122" rx="26" fill="${a.face}"/>`
      : `<ellipse cx="128" cy="140" rx="70" ry="64" fill="${a.face}"/>`;
  const headphones =
    `<path d="M50 140 Q50 48 128 48 Q206 48 206 140" stroke="${a.accent}" stroke-width="14" fill="none" stroke-linecap="round"/>` +
    `<rect x="36" y="122" width="30" height="52" rx="12" fill="${a.accent}"/><rect x="190" y="122" width="30" height="52" rx="12" fill="${a.accent}"/>`;
  return svg(back + ears(a) + head + eyes(a) + mouth(a) + headphones);
}

export type Symbol = "confetti" | "horn" | "spotlight" | "heart";

const SYMBOLS: Record<Symbol, string> = {
  confetti:
    `<path d="M70 196 L112 84 L172 144 Z" fill="#f5c518"/><path d="M70 196 L112 84 L124 96 Z" fill="#d99a00"/>` +
    [
      [150, 60, "#ff4d6d"],
      [186, 92, "#4dabf7"],
      [196, 140, "#51cf66"],
      [132, 44, "#845ef7"],
      [176, 52, "#ffa94d"],
    ]
      .map(
        ([x, y, c]) =>
          `<rect x="${x}" y="${y}" width="14" height="14" rx="3" fill="${c}" transform="rotate(30 ${x} ${y})"/>`,
      )
      .join(""),
  horn:
    `<path d="M60 112 L150 72 L150 184 L60 144 Z" fill="#ff6b6b"/><rect x="40" y="108" width="26" height="40" rx="6" fill="#495057"/>` +
    `<path d="M172 92 Q196 128 172 164 M188 76 Q220 128 188 180" stroke="#fff" stroke-width="8" fill="none" stroke-linecap="round"/>`,
  spotlight:
    `<path d="M110 60 L146 60 L210 212 L46 212 Z" fill="#fff3bf" opacity="0.85"/><rect x="100" y="36" width="56" height="32" rx="8" fill="#343a40"/>` +
    `<ellipse cx="128" cy="212" rx="82" ry="14" fill="#ffe066"/>`,
  heart:
    `<path d="M128 204 C40 144 56 70 104 70 C120 70 128 84 128 92 C128 84 136 70 152 70 C200 70 216 144 128 204 Z" fill="#ff4d6d"/>` +
    `<path d="M96 96 Q84 110 92 128" stroke="#ffffffaa" stroke-width="8" fill="none" stroke-linecap="round"/>`,
};

/** A demo consumable: its symbol on a coloured tile. */
export function consumableSvg(symbol: Symbol, sky: string): string {
  return svg(backdrop("glow", sky) + SYMBOLS[symbol]);
}

/** A demo token bundle: `stacks` stacks of gold coins, taller for a bigger bundle. */
export function bundleSvg(stacks: number, sky: string): string {
  let coins = "";
  for (let s = 0; s < stacks; s++) {
    const x = 128 + (s - (stacks - 1) / 2) * 56;
    const height = 3 + s * 2;
    for (let c = 0; c < height; c++) {
      const y = 200 - c * 14;
      coins +=
        `<ellipse cx="${x}" cy="${y + 6}" rx="28" ry="10" fill="#b8860b"/>` +
        `<ellipse cx="${x}" cy="${y}" rx="28" ry="10" fill="#f5c518" stroke="#d99a00" stroke-width="2"/>`;
    }
  }
  return svg(backdrop("glow", sky) + coins);
}
