// GET /geolocate (the caller's address) and POST /geolocate (a given one), from the offline database.
import { isIP } from "node:net";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { GeolocationService } from "@tt/proto/tt/audit/v1/geolocation_service_pb";
import { callerAddress, geolocate, normaliseIp } from "../modules/geo/geolocate.ts";

export function geolocationRoutes(): ServiceImpl<typeof GeolocationService> {
  return {
    geolocateCaller(_req, ctx) {
      const ip = callerAddress(ctx);
      if (!ip) {
        return {
          geolocation: {
            ip: "",
            found: false,
            reason: "unavailable",
          },
        };
      }
      return { geolocation: geolocate(ip) };
    },

    geolocateAddress(req) {
      const ip = normaliseIp(req.ip.trim());
      if (!isIP(ip)) throw new ConnectError("ip must be an IP address", Code.InvalidArgument);
      return { geolocation: geolocate(ip) };
    },
  };
}
