// Devices (spec 001 §7 "Devices"): push tokens by platform, owned by the user who registered them last. The
// spec's {a}/{b} are {user_id}/{token}; a user reaches only their own devices, admins and services anyone's.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { Device } from "../modules/devices/device.entity.ts";
import { callerId, forbidden, isAdmin, missing, page, ts, uniquely, conflict } from "./people-shared.ts";

export const toDeviceMessage = (
  d: Pick<Device, "id" | "userId" | "token" | "platform" | "createdAt" | "updatedAt">,
) => ({
  id: d.id,
  userId: d.userId,
  token: d.token,
  devicePlatform: d.platform,
  createdAt: ts(d.createdAt),
  updatedAt: ts(d.updatedAt),
});

/** The user themselves, an admin or a service; anyone else is refused before any lookup (403). */
function checkOwnerOrAdmin(ctx: HandlerContext, userId: string): void {
  const identity = callIdentity(ctx);
  if (isAdmin(identity)) return;
  if (identity.tokenType !== "user" || identity.subject !== userId) throw forbidden();
}

export function deviceRoutes(_svc: RoomServiceContext): ServiceImpl<typeof DeviceService> {
  return {
    async registerDevice(req, ctx) {
      const em = callEm(ctx);
      const userId = callerId(ctx);
      let device = await em.findOne(Device, { token: req.token });
      if (device) {
        device.userId = userId;
        device.platform = req.devicePlatform;
        device.updatedAt = new Date();
      } else {
        device = em.create(Device, { userId, token: req.token, platform: req.devicePlatform });
      }
      await uniquely(
        () => em.flush(),
        () => conflict("device already registered"),
      );
      return { device: toDeviceMessage(device) };
    },

    async deleteDevice(req, ctx) {
      const deleted = await callEm(ctx).nativeDelete(Device, { token: req.token, userId: callerId(ctx) });
      if (deleted === 0) throw missing("device not found");
      return {};
    },

    async deleteUserDevice(req, ctx) {
      const userId = req.userId.toLowerCase();
      checkOwnerOrAdmin(ctx, userId);
      const deleted = await callEm(ctx).nativeDelete(Device, { token: req.token, userId });
      if (deleted === 0) throw missing("device not found");
      return {};
    },

    async getUserDevice(req, ctx) {
      const userId = req.userId.toLowerCase();
      checkOwnerOrAdmin(ctx, userId);
      const device = await callEm(ctx).findOne(Device, { token: req.token, userId });
      if (!device) throw missing("device not found");
      return { device: toDeviceMessage(device) };
    },

    async listUserDevices(req, ctx) {
      const userId = req.userId.toLowerCase();
      checkOwnerOrAdmin(ctx, userId);
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        Device,
        { userId },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { devices: rows.map(toDeviceMessage), total };
    },
  };
}
