// Geolocation from geoip-lite's offline database (shipped in the package: no outside call). The database is
// loaded on the first lookup, not at start (it takes a while and some memory).
import { createRequire } from "node:module";
import { isIP } from "node:net";
import type { HandlerContext } from "@connectrpc/connect";
import { clientAddress } from "@tt/kit";

interface GeoipLookup {
  country: string;
  region: string;
  city: string;
  timezone: string;
  eu: string;
  ll: [number, number];
}

let geoip: { lookup(ip: string): GeoipLookup | null } | undefined;
function db() {
  geoip ??= createRequire(import.meta.url)("geoip-lite") as { lookup(ip: string): GeoipLookup | null };
  return geoip;
}

export interface GeolocationAnswer {
  ip: string;
  found: boolean;
  reason: string;
  country: string;
  region: string;
  city: string;
  timezone: string;
  latitude: number;
  longitude: number;
  eu: boolean;
}

const empty = (ip: string, reason: string): GeolocationAnswer => ({
  ip,
  found: false,
  reason,
  country: "",
  region: "",
  city: "",
  timezone: "",
  latitude: 0,
  longitude: 0,
  eu: false,
});

/** An IPv4-mapped IPv6 address (::ffff:1.2.3.4) as its IPv4 form; anything else unchanged. */
export function normaliseIp(ip: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return m?.[1] ?? ip;
}

/** Private, loopback, link-local, shared, unspecified and unique-local addresses: nowhere on the map. */
export function isPrivateIp(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split(".").map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const v = ip.toLowerCase();
  return v === "::" || v === "::1" || /^f[cd]/.test(v) || /^fe[89ab]/.test(v) || /^ff/.test(v);
}

/** Looks an address up: 'private', 'unknown' (not in the database) or a place. The address must be valid. */
export function geolocate(raw: string): GeolocationAnswer {
  const ip = normaliseIp(raw);
  if (isPrivateIp(ip)) return empty(ip, "private");
  const hit = db().lookup(ip);
  if (!hit || !hit.country) return empty(ip, "unknown");
  return {
    ip,
    found: true,
    reason: "",
    country: hit.country,
    region: hit.region ?? "",
    city: hit.city ?? "",
    timezone: hit.timezone ?? "",
    latitude: hit.ll?.[0] ?? 0,
    longitude: hit.ll?.[1] ?? 0,
    eu: hit.eu === "1",
  };
}

/**
 * The caller's address as the gateway vouches for it (the kit's clientAddress: the one x-forwarded-for entry, or
 * the one before the gateway's own), undefined for a direct caller or an entry that is no IP address.
 */
export function callerAddress(ctx: HandlerContext): string | undefined {
  const hop = clientAddress(ctx);
  return hop && isIP(normaliseIp(hop)) ? normaliseIp(hop) : undefined;
}
