// Notifications (spec 001 §7 "Mobile notifications", "Other notifications", "Web push"): mobile pushes through the
// push provider (admins and services, §6), DJ-fan notifications (the DJ themselves through REST, the live stage
// through its service-only RPC), messages from a room by its managers, web push with VAPID, and each user's inbox.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { roomAccessOf } from "../modules/communities/room-access.ts";
import { Deliverer, type DeliveryReport, type NotificationContent } from "../modules/notifications/deliver.ts";
import {
  claimDjSlot,
  djNameOf,
  notifyDjStartedPlaying,
  queueToFans,
  roomPage,
} from "../modules/notifications/dj-fans.ts";
import { queuedAnswer, queueNotification } from "../modules/notifications/jobs.ts";
import { Notification } from "../modules/notifications/notification.entity.ts";
import { WebPushSubscription } from "../modules/notifications/web-push-subscription.entity.ts";
import { badRequest, callerId, forbidden, isAdmin, missing, page, ts, uniquely, conflict } from "./people-shared.ts";

const MAX_TARGETS = 500;
const MAX_ROOM_TARGETS = 100;
const MAX_DATA = 20;
const DEFAULT_TITLE = "Turntable";

export const toNotificationMessage = (n: Notification) => ({
  id: n.id,
  kind: n.kind,
  title: n.title,
  body: n.body,
  roomId: n.roomId ?? "",
  senderId: n.senderId ?? "",
  data: n.data ?? {},
  createdAt: ts(n.createdAt),
  read: n.readAt != null,
});

const MAX_MARK_READ = 100;

interface Targets {
  tokens: string[];
  userIds: string[];
  title: string;
  body: string;
  data: Record<string, string>;
  roomId: string;
}

function checkTargets(req: Targets, max = MAX_TARGETS): void {
  if (req.tokens.length > max) throw badRequest(`tokens must hold at most ${max} entries`);
  if (req.userIds.length > max) throw badRequest(`userIds must hold at most ${max} entries`);
  if (Object.keys(req.data).length > MAX_DATA) throw badRequest(`data must hold at most ${MAX_DATA} entries`);
  for (const key of Object.keys(req.data))
    if (key.length > 64) throw badRequest("data keys must be at most 64 characters long");
}

function requireText(req: { title: string; body: string }): void {
  if (req.title === "" && req.body === "") throw badRequest("body missing in request");
}

function sender(ctx: HandlerContext): string {
  const identity = callIdentity(ctx);
  return identity.tokenType === "service" ? `service:${identity.subject}` : identity.subject;
}

const answer = (r: DeliveryReport, skipped = false) => ({ ...r, skipped });

/**
 * Whether a push endpoint's host may be pushed to: not a loopback, private, link-local or unique-local address,
 * nor a name that only resolves inside (localhost, .local, .internal). The server posts to these URLs when an
 * admin pushes, so a subscription must not point it at the deployment's own network.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (
    host === "localhost" ||
    /\.(localhost|local|internal|lan|home|corp)$/.test(host) ||
    (!host.includes(".") && !host.includes(":"))
  ) {
    return false;
  }
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) ||
      a >= 224
    );
  }
  if (host.includes(":")) {
    return !(
      host === "::" ||
      host === "::1" ||
      /^f[cd]/.test(host) ||
      /^fe[89ab]/.test(host) ||
      host.startsWith("::ffff:")
    );
  }
  return true;
}

export function notificationRoutes(svc: RoomServiceContext): ServiceImpl<typeof NotificationService> {
  const deliver = new Deliverer(svc.people, svc.logger);

  const content = (ctx: HandlerContext, req: Targets, kind: string, silent = false): NotificationContent => ({
    kind,
    title: req.title || (silent ? "" : DEFAULT_TITLE),
    body: req.body,
    data: req.data,
    roomId: req.roomId ? req.roomId.toLowerCase() : undefined,
    senderId: sender(ctx),
    silent,
  });

  return {
    async sendMobileNotification(req, ctx) {
      checkTargets(req);
      requireText(req);
      if (req.tokens.length === 0) throw badRequest("tokens missing in request");
      return answer(await deliver.toTokens(callEm(ctx), req.tokens, content(ctx, req, "admin")));
    },

    async sendAdminMobileNotification(req, ctx) {
      checkTargets(req);
      requireText(req);
      if (req.userIds.length === 0) throw badRequest("userIds missing in request");
      return answer(await deliver.toUsers(callEm(ctx), req.userIds, content(ctx, req, "admin")));
    },

    async sendSilentNotification(req, ctx) {
      checkTargets(req);
      if (req.tokens.length === 0) throw badRequest("tokens missing in request");
      return answer(await deliver.toTokens(callEm(ctx), req.tokens, content(ctx, req, "admin", true)));
    },

    async sendCustomMobileMessage(req, ctx) {
      checkTargets(req);
      requireText(req);
      if (req.userIds.length === 0) throw badRequest("userIds missing in request");
      return answer(await deliver.toUsers(callEm(ctx), req.userIds, content(ctx, req, "custom")));
    },

    async sendToAllDevices(req, ctx) {
      checkTargets(req);
      requireText(req);
      // Queued (issue 29): every device is pushed to after the answer.
      const n = content(ctx, req, "admin");
      await callEm(ctx).transactional(async (em) => {
        queueNotification(em, { kind: "all-devices" }, n);
      });
      return queuedAnswer();
    },

    async sendUserNotification(req, ctx) {
      const t = { ...req, tokens: [], userIds: [req.userId], roomId: "" };
      checkTargets(t);
      requireText(req);
      return answer(await deliver.toUsers(callEm(ctx), [req.userId], content(ctx, t, "user")));
    },

    async sendAdminUserNotification(req, ctx) {
      const t = { ...req, tokens: [], userIds: [req.userId], roomId: "" };
      checkTargets(t);
      requireText(req);
      return answer(await deliver.toUsers(callEm(ctx), [req.userId], content(ctx, t, "admin")));
    },

    async sendAdminUserSilentNotification(req, ctx) {
      const t = { ...req, tokens: [], userIds: [req.userId], roomId: "" };
      checkTargets(t);
      return answer(await deliver.toUsers(callEm(ctx), [req.userId], content(ctx, t, "admin", true)));
    },

    async sendRoomUsersNotification(req, ctx) {
      checkTargets(req);
      requireText(req);
      if (!req.roomId) throw badRequest("roomId missing in request");
      if (req.userIds.length === 0) throw badRequest("userIds missing in request");
      return answer(await deliver.toUsers(callEm(ctx), req.userIds, content(ctx, req, "room")));
    },

    async notifyMyFans(req, ctx) {
      const djId = callerId(ctx);
      const roomId = req.roomId.toLowerCase();
      if (!(await roomAccessOf(callEm(ctx), roomId, djId))) throw missing("room not found");
      // The DJ's nickname names them to their fans (the generic wording when the user service cannot say).
      const djName = await djNameOf(svc, djId);
      // The slot's claim and the job commit together (issue 29): the fans are pushed to after the answer.
      await callEm(ctx).transactional(async (em) => {
        if (!(await claimDjSlot(em, djId, svc.people.config.DJ_FANS_NOTIFICATION_INTERVAL_SECONDS))) {
          throw new ConnectError("DJ fans were notified recently", Code.ResourceExhausted);
        }
        queueToFans(em, djId, {
          kind: "dj-fans",
          title: djName ? `${djName} is playing` : "A DJ you follow is playing",
          body: req.body || "Come and listen.",
          // The DJ's own words on their own, so a page in another language words the default itself.
          data: { djId, ...(djName ? { djName } : {}), ...(req.body ? { message: req.body } : {}) },
          roomId,
          senderId: djId,
        });
      });
      return queuedAnswer();
    },

    async notifyDjStartedPlaying(req, ctx) {
      const interval = svc.people.config.DJ_FANS_NOTIFICATION_INTERVAL_SECONDS;
      const { skipped } = await callEm(ctx).transactional((em) => notifyDjStartedPlaying(em, interval, req));
      return skipped ? answer({ recipients: 0, sent: 0, failed: 0, removed: 0 }, true) : queuedAnswer();
    },

    async sendCustomMessage(req, ctx) {
      checkTargets(req);
      requireText(req);
      if (req.userIds.length === 0) throw badRequest("userIds missing in request");
      return answer(await deliver.toUsers(callEm(ctx), req.userIds, content(ctx, req, "custom"), { web: true }));
    },

    async sendCustomMessageFromRoom(req, ctx) {
      checkTargets(req, MAX_ROOM_TARGETS);
      requireText(req);
      if (!req.roomId) throw badRequest("roomId missing in request");
      if (req.userIds.length === 0) throw badRequest("userIds missing in request");
      const em = callEm(ctx);
      const access = await roomAccessOf(em, req.roomId.toLowerCase(), callerId(ctx));
      if (!access) throw missing("room not found");
      if (!access.manages && !isAdmin(callIdentity(ctx))) throw forbidden();
      return answer(
        await deliver.toUsers(em, req.userIds, content(ctx, req, "room"), {
          web: true,
          url: roomPage(req.roomId.toLowerCase()),
        }),
      );
    },

    async listRoomUsersNotifications(req, ctx) {
      const { limit, offset } = page(req);
      const [rows, total] = await callEm(ctx).findAndCount(
        Notification,
        { userId: callerId(ctx), kind: "room" },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      return { notifications: rows.map(toNotificationMessage), total };
    },

    async listMyNotifications(req, ctx) {
      const em = callEm(ctx);
      const userId = callerId(ctx);
      const { limit, offset } = page(req);
      const [rows, total] = await em.findAndCount(
        Notification,
        { userId },
        { orderBy: { createdAt: "DESC", id: "ASC" }, limit, offset },
      );
      const unread = await em.count(Notification, { userId, readAt: null });
      return { notifications: rows.map(toNotificationMessage), total, unread };
    },

    async markNotificationsRead(req, ctx) {
      if (req.ids.length === 0) throw badRequest("ids missing in request");
      if (req.ids.length > MAX_MARK_READ) throw badRequest(`ids must hold at most ${MAX_MARK_READ} entries`);
      const updated = await callEm(ctx).nativeUpdate(
        Notification,
        { id: { $in: [...new Set(req.ids.map((id) => id.toLowerCase()))] }, userId: callerId(ctx), readAt: null },
        { readAt: new Date() },
      );
      return { updated };
    },

    async unsubscribeWebPush(req, ctx) {
      const deleted = await callEm(ctx).nativeDelete(WebPushSubscription, {
        endpoint: req.endpoint,
        userId: callerId(ctx),
      });
      if (deleted === 0) throw missing("subscription not found");
      return {};
    },

    async subscribeWebPush(req, ctx) {
      const em = callEm(ctx);
      const keys = req.keys!;
      if (!/^https:/i.test(req.endpoint) && !(svc.people.config.WEB_PUSH_ALLOW_HTTP && /^http:/i.test(req.endpoint))) {
        throw badRequest("endpoint must be an https URL");
      }
      if (!svc.people.config.WEB_PUSH_ALLOW_HTTP && !isPublicHost(new URL(req.endpoint).hostname)) {
        throw badRequest("endpoint must be a public push service");
      }
      const p256dh = Buffer.from(keys.p256dh, "base64url");
      if (p256dh.length !== 65 || p256dh[0] !== 4)
        throw badRequest("keys.p256dh must be a P-256 public key (base64url)");
      if (Buffer.from(keys.auth, "base64url").length !== 16) throw badRequest("keys.auth must be 16 bytes (base64url)");
      const userId = callerId(ctx);
      let sub = await em.findOne(WebPushSubscription, { endpoint: req.endpoint });
      if (sub) {
        sub.userId = userId;
        sub.p256dh = keys.p256dh;
        sub.auth = keys.auth;
        sub.updatedAt = new Date();
      } else {
        sub = em.create(WebPushSubscription, { userId, endpoint: req.endpoint, p256dh: keys.p256dh, auth: keys.auth });
      }
      await uniquely(
        () => em.flush(),
        () => conflict("subscription already stored"),
      );
      return { id: sub.id };
    },

    async sendWebPush(req, ctx) {
      if (req.userIds.length > MAX_TARGETS) throw badRequest(`userIds must hold at most ${MAX_TARGETS} entries`);
      requireText(req);
      const n: NotificationContent = {
        kind: "admin",
        title: req.title || DEFAULT_TITLE,
        body: req.body,
        data: {},
        senderId: sender(ctx),
      };
      if (req.userIds.length > 0) return answer(await deliver.webToUsers(callEm(ctx), req.userIds, n, req.url));
      // To every subscription: queued (issue 29), the browsers are pushed to after the answer.
      await callEm(ctx).transactional(async (em) => {
        queueNotification(em, { kind: "all-subscriptions" }, n, { web: true, url: req.url });
      });
      return queuedAnswer();
    },

    async getWebPushPublicKey() {
      return { publicKey: svc.people.vapidPublicKey };
    },
  };
}
