// Internal names (enum values, provider ids, role and capability names, built-in crate names) as words a person
// reads, in the page's language. Every app shows these through useNames(), never the raw value.
import { useMemo } from "react";
import { useAppTranslation } from "@tt/web-kit";
import type { Translations } from "@tt/web-kit";

export const NAMES_NAMESPACE = "names";

const en = {
  provider: {
    apple: "Apple Music",
    audius: "Audius",
    soundcloud: "SoundCloud",
    soundCloudPublic: "SoundCloud",
    spotify: "Spotify",
    youtube: "YouTube",
    sevenDigital: "7digital",
    uploadService: "Your uploads",
    catalogue: "Catalogue",
    napster: "Napster",
    pandora: "Pandora",
    deezer: "Deezer",
    tidal: "TIDAL",
    amazonMusic: "Amazon Music",
    yandex: "Yandex Music",
    spinrilla: "Spinrilla",
  },
  design: {
    BARN: "Barn",
    BARN_UA: "Barn (Ukraine)",
    CHAT_ONLY: "Chat only",
    CLUB: "Club",
    CLUB_UA: "Club (Ukraine)",
    FERRY_BUILDING: "Ferry Building",
    FESTIVAL: "Festival",
    STADIUM: "Stadium",
    THEATER: "Theater",
    TOMORROWLAND: "Tomorrowland",
    UNDERGROUND: "Underground",
    YACHT: "Yacht",
  },
  djType: { EVERYONE: "Everyone", INVITE_ONLY: "Invited DJs only", PRO_PLAN_OWNER: "Pro plan owners" },
  roomType: { PUBLIC: "Public", PRIVATE: "Private" },
  roomRole: {
    owner: "Owner",
    coOwner: "Co-owner",
    moderator: "Moderator",
    dj: "DJ",
    banned: "Banned",
    kicked: "Kicked",
    chatDisabled: "Chat muted",
    djDisabled: "DJ seat blocked",
    globalModerator: "Global moderator",
    staff: "Staff",
    superUser: "Super user",
    user: "Listener",
    guest: "Guest",
  },
  userRole: {
    globalModerator: "Global moderator",
    admin: "Admin",
    moderator: "Moderator",
    staff: "Staff",
    promoter: "Promoter",
    user: "Member",
    superUser: "Super user",
    bot: "Bot",
  },
  capability: { uploadMusic: "Upload music", promoteRoom: "Promote rooms" },
  badge: {
    VERIFIED: "Verified",
    PLATINUM: "Platinum",
    DOUBLE_PLATINUM: "Double platinum",
    JQBX: "JQBX",
    STAFF: "Staff",
  },
  crate: { default: "Queue", "tt-stars": "Likes" },
  status: {
    PUBLIC: "Public",
    PRIVATE: "Private",
    SEASON_AWARD: "Season award",
    SUBSCRIBER_ONLY: "Subscribers only",
    PENDING: "Pending",
    REDEEMED: "Redeemed",
    REVOKED: "Revoked",
    active: "Active",
    disabled: "Disabled",
    PENDING_UPLOAD: "Waiting for the file",
    VALID_FILE_TYPE: "File received",
    MISSING_METADATA: "Needs details",
    VERIFIED: "Ready",
    UNVERIFIED: "Packaging",
    VERIFICATION_ERROR: "Packaging failed",
    VERIFICATION_POSTPONED: "Packaging postponed",
    past_due: "Past due",
    canceled: "Canceled",
    incomplete: "Incomplete",
  },
  paymentType: { one_time: "One-time", recurring: "Recurring" },
  moderationAction: {
    banUser: "Banned from a room",
    kickUser: "Kicked from a room",
    grantRole: "Role given",
    removeRole: "Role taken away",
    globalKick: "Signed out everywhere",
    globalBan: "Banned",
    globalUnBan: "Ban lifted",
    temporaryBan: "Banned for a while",
  },
  analyticsTopic: {
    "page-view": "Page views",
    "user-song-total-played": "Songs played to the end",
    "15-seconds": "Plays past 15 seconds",
    "30-seconds": "Plays past 30 seconds",
    "home-rooms-loaded": "Home page room lists",
    "room-action": "Room actions",
    "playlist-action": "Playlist actions",
    "queue-action": "Queue actions",
    "shop-action": "Shop actions",
    "purchase-action": "Purchases",
    "feedback-action": "Feedback",
    "login-action": "Logins",
  },
  channel: { email: "E-mail", sms: "SMS" },
  emailStatus: {
    PENDING_VERIFICATION: "Not verified yet",
    VERIFIED: "Verified",
    DELETED: "Deleted",
    CREATED_BY_ADMIN: "Added by an admin",
  },
};

const es: typeof en = {
  provider: { ...en.provider, uploadService: "Tus subidas", catalogue: "Catálogo", yandex: "Yandex Música" },
  design: {
    BARN: "Granero",
    BARN_UA: "Granero (Ucrania)",
    CHAT_ONLY: "Solo chat",
    CLUB: "Club",
    CLUB_UA: "Club (Ucrania)",
    FERRY_BUILDING: "Ferry Building",
    FESTIVAL: "Festival",
    STADIUM: "Estadio",
    THEATER: "Teatro",
    TOMORROWLAND: "Tomorrowland",
    UNDERGROUND: "Underground",
    YACHT: "Yate",
  },
  djType: { EVERYONE: "Todos", INVITE_ONLY: "Solo DJ invitados", PRO_PLAN_OWNER: "Titulares del plan Pro" },
  roomType: { PUBLIC: "Pública", PRIVATE: "Privada" },
  roomRole: {
    owner: "Propietario",
    coOwner: "Copropietario",
    moderator: "Moderador",
    dj: "DJ",
    banned: "Expulsado",
    kicked: "Echado",
    chatDisabled: "Chat silenciado",
    djDisabled: "Cabina bloqueada",
    globalModerator: "Moderador global",
    staff: "Equipo",
    superUser: "Superusuario",
    user: "Oyente",
    guest: "Invitado",
  },
  userRole: {
    globalModerator: "Moderador global",
    admin: "Administrador",
    moderator: "Moderador",
    staff: "Equipo",
    promoter: "Promotor",
    user: "Miembro",
    superUser: "Superusuario",
    bot: "Bot",
  },
  capability: { uploadMusic: "Subir música", promoteRoom: "Promocionar salas" },
  badge: {
    VERIFIED: "Verificado",
    PLATINUM: "Platino",
    DOUBLE_PLATINUM: "Doble platino",
    JQBX: "JQBX",
    STAFF: "Equipo",
  },
  crate: { default: "Cola", "tt-stars": "Me gusta" },
  status: {
    PUBLIC: "Pública",
    PRIVATE: "Privada",
    SEASON_AWARD: "Premio de temporada",
    SUBSCRIBER_ONLY: "Solo suscriptores",
    PENDING: "Pendiente",
    REDEEMED: "Canjeado",
    REVOKED: "Revocado",
    active: "Activa",
    disabled: "Desactivada",
    PENDING_UPLOAD: "Esperando el archivo",
    VALID_FILE_TYPE: "Archivo recibido",
    MISSING_METADATA: "Faltan datos",
    VERIFIED: "Lista",
    UNVERIFIED: "Empaquetando",
    VERIFICATION_ERROR: "Falló el empaquetado",
    VERIFICATION_POSTPONED: "Empaquetado aplazado",
    past_due: "Pago vencido",
    canceled: "Cancelada",
    incomplete: "Incompleta",
  },
  paymentType: { one_time: "Pago único", recurring: "Recurrente" },
  moderationAction: {
    banUser: "Expulsado de una sala",
    kickUser: "Echado de una sala",
    grantRole: "Rol concedido",
    removeRole: "Rol retirado",
    globalKick: "Sesiones cerradas",
    globalBan: "Expulsado",
    globalUnBan: "Expulsión levantada",
    temporaryBan: "Expulsado por un tiempo",
  },
  analyticsTopic: {
    "page-view": "Páginas vistas",
    "user-song-total-played": "Canciones escuchadas enteras",
    "15-seconds": "Reproducciones de más de 15 segundos",
    "30-seconds": "Reproducciones de más de 30 segundos",
    "home-rooms-loaded": "Listas de salas de la portada",
    "room-action": "Acciones en salas",
    "playlist-action": "Acciones en listas",
    "queue-action": "Acciones en la cola",
    "shop-action": "Acciones en la tienda",
    "purchase-action": "Compras",
    "feedback-action": "Opiniones",
    "login-action": "Inicios de sesión",
  },
  channel: { email: "Correo electrónico", sms: "SMS" },
  emailStatus: {
    PENDING_VERIFICATION: "Sin verificar",
    VERIFIED: "Verificado",
    DELETED: "Borrado",
    CREATED_BY_ADMIN: "Añadido por un administrador",
  },
};

export const namesTranslations: Translations = { en, es };

export type NameKind = keyof typeof en;

/** The word for an internal value of a kind; an unknown value is shown as itself, spaced out ("FOO_BAR" → "Foo bar"). */
export function useNames(): (kind: NameKind, value: string) => string {
  const { t } = useAppTranslation(NAMES_NAMESPACE, namesTranslations);
  return useMemo(
    () => (kind: NameKind, value: string) => t(`${kind}.${value}`, { defaultValue: humanise(value) }),
    [t],
  );
}

/** "FERRY_BUILDING" → "Ferry building", "uploadMusic" → "Upload music". */
export function humanise(value: string): string {
  const words = value
    .replace(/[_-]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The options of a picker over the values of a kind, labelled in the page's language. */
export function useNameOptions(kind: NameKind, values: readonly string[]): { value: string; label: string }[] {
  const name = useNames();
  return useMemo(() => values.map((value) => ({ value, label: name(kind, value) })), [name, kind, values]);
}
