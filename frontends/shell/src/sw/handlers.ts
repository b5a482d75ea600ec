// The shell's service worker's two jobs (issue 26), kept apart from the worker's globals so they can be tested:
// a push from the room service (JSON: title, body, url, kind, data) becomes a notification, and a click on it
// focuses a tab already showing its page or opens one. Plain structural types: the project's TypeScript knows
// the DOM, not the worker's globals.

/** What the room service sends (services/room/src/modules/notifications/deliver.ts). */
export interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  kind?: string;
  data?: Record<string, string>;
}

export interface ShownNotification {
  title: string;
  options: { body: string; tag?: string; data: { url: string }; lang?: string };
}

const WORDS = {
  en: {
    site: "Turntable",
    playing: (name: string) => `${name} is playing`,
    someDj: "A DJ you follow",
    nowIn: (room: string) => `Now playing in ${room}.`,
    comeListen: "Come and listen.",
    invites: (name: string) => `${name} wants to be your friend`,
    someone: "Someone",
    answer: "Answer the invitation on their profile.",
  },
  es: {
    site: "Turntable",
    playing: (name: string) => `${name} está pinchando`,
    someDj: "Un DJ al que sigues",
    nowIn: (room: string) => `Ahora suena en ${room}.`,
    comeListen: "Ven a escuchar.",
    invites: (name: string) => `${name} quiere ser tu amigo`,
    someone: "Alguien",
    answer: "Responde a la invitación en su perfil.",
  },
};

function parse(text: string | undefined): PushPayload {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as PushPayload) : { body: text };
  } catch {
    return { body: text };
  }
}

/** Only a page of this site: a push never sends the person elsewhere. */
export function safePath(url: string | undefined, origin: string): string {
  if (!url) return "/";
  try {
    const resolved = new URL(url, origin);
    return resolved.origin === origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : "/";
  } catch {
    return "/";
  }
}

/**
 * The notification a push shows, in the browser's language: a DJ's start is worded here (the names come in
 * `data`), anything a person wrote (a room's or the team's message) is shown as they wrote it.
 */
export function notificationFor(text: string | undefined, origin: string, language = "en"): ShownNotification {
  const payload = parse(text);
  const lang = language.toLowerCase().startsWith("es") ? "es" : "en";
  const words = WORDS[lang];
  const data = payload.data ?? {};
  let title = payload.title || words.site;
  let body = payload.body ?? "";
  if (payload.kind === "dj-fans") {
    title = words.playing(data.djName || words.someDj);
    body = data.roomName ? words.nowIn(data.roomName) : data.message || words.comeListen;
  } else if (payload.kind === "friend") {
    title = words.invites(data.fromName || words.someone);
    body = words.answer;
  }
  return {
    title,
    options: {
      body,
      lang,
      // One notification per DJ: a second start replaces the first rather than piling up.
      ...(data.djId ? { tag: `dj-${data.djId}` } : {}),
      data: { url: safePath(payload.url, origin) },
    },
  };
}

export interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
}

export interface ClientsLike {
  matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<readonly WindowLike[]>;
  openWindow(url: string): Promise<unknown>;
}

/** A click: the tab already on that page is focused; else a tab of the site is sent there; else a new one opens. */
export async function openFromNotification(clients: ClientsLike, origin: string, url: string | undefined) {
  const path = safePath(url, origin);
  const target = new URL(path, origin).href;
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const same = windows.find((w) => w.url === target);
  if (same) return same.focus();
  const ours = windows.find((w) => w.url.startsWith(origin) && w.navigate);
  if (ours?.navigate) {
    await ours.navigate(target);
    return ours.focus();
  }
  return clients.openWindow(target);
}
