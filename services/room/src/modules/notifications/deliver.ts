// Delivering a notification: one inbox row per recipient user (not for silent pushes), then a push to each of
// their devices through the mobile provider and, when asked, to their browsers through web push. Devices and
// subscriptions the provider says are gone are removed. Pushes go out a few at a time; one failing push does
// not stop the others.
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { PeopleServices } from "../../people-context.ts";
import { Device } from "../devices/device.entity.ts";
import { Notification } from "./notification.entity.ts";
import { WebPushSubscription } from "./web-push-subscription.entity.ts";

export interface NotificationContent {
  /** dj-fans, room, custom, admin, user or friend (a friend invitation). */
  kind: string;
  title: string;
  body: string;
  data: Record<string, string>;
  roomId?: string;
  senderId?: string;
  /** Data only: no inbox row, no alert. */
  silent?: boolean;
}

export interface DeliveryReport {
  recipients: number;
  sent: number;
  failed: number;
  removed: number;
}

const CONCURRENCY = 8;
const BATCH = 500;

async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}

export class Deliverer {
  constructor(
    private readonly people: PeopleServices,
    private readonly logger: Logger,
  ) {}

  private async pushDevices(em: EntityManager, devices: Device[], n: NotificationContent, report: DeliveryReport) {
    const gone: string[] = [];
    await pool(devices, async (device) => {
      try {
        const result = await this.people.push.send({
          token: device.token,
          platform: device.platform,
          title: n.title,
          body: n.body,
          data: { ...n.data, kind: n.kind, ...(n.roomId ? { roomId: n.roomId } : {}) },
          silent: n.silent ?? false,
        });
        if (result.ok) report.sent++;
        else {
          report.failed++;
          if (result.unregistered) gone.push(device.id);
        }
      } catch (error) {
        report.failed++;
        this.logger.warn({ err: error }, "mobile push failed");
      }
    });
    if (gone.length > 0) report.removed += await em.nativeDelete(Device, { id: { $in: gone } });
  }

  private async pushBrowsers(
    em: EntityManager,
    subs: WebPushSubscription[],
    n: NotificationContent,
    url: string,
    report: DeliveryReport,
  ) {
    const gone: string[] = [];
    const payload = JSON.stringify({ title: n.title, body: n.body, url, kind: n.kind, data: n.data });
    await pool(subs, async (sub) => {
      try {
        const result = await this.people.webPush.send(sub, payload);
        if (result.ok) report.sent++;
        else {
          report.failed++;
          if (result.gone) gone.push(sub.id);
        }
      } catch (error) {
        report.failed++;
        this.logger.warn({ err: error }, "web push failed");
      }
    });
    if (gone.length > 0) report.removed += await em.nativeDelete(WebPushSubscription, { id: { $in: gone } });
  }

  private async inbox(em: EntityManager, userIds: string[], n: NotificationContent): Promise<void> {
    if (n.silent || userIds.length === 0) return;
    // Inboxes are kept for NOTIFICATION_INBOX_DAYS: a recipient's older notifications go as new ones arrive.
    const cutoff = new Date(Date.now() - this.people.config.NOTIFICATION_INBOX_DAYS * 86_400_000);
    await em.nativeDelete(Notification, { userId: { $in: userIds }, createdAt: { $lt: cutoff } });
    for (const userId of userIds) {
      em.create(Notification, {
        userId,
        kind: n.kind,
        title: n.title,
        body: n.body,
        roomId: n.roomId ?? null,
        senderId: n.senderId ?? null,
        data: Object.keys(n.data).length > 0 ? n.data : null,
      });
    }
    await em.flush();
  }

  /** To every device (and, with `web`, every browser subscription) of these users. */
  async toUsers(
    em: EntityManager,
    userIds: string[],
    n: NotificationContent,
    options: { web?: boolean; url?: string } = {},
  ): Promise<DeliveryReport> {
    const users = [...new Set(userIds.map((u) => u.toLowerCase()))];
    const report: DeliveryReport = { recipients: n.silent ? 0 : users.length, sent: 0, failed: 0, removed: 0 };
    await this.inbox(em, users, n);
    for (let i = 0; i < users.length; i += BATCH) {
      const slice = users.slice(i, i + BATCH);
      await this.pushDevices(em, await em.find(Device, { userId: { $in: slice } }), n, report);
      if (options.web) {
        await this.pushBrowsers(
          em,
          await em.find(WebPushSubscription, { userId: { $in: slice } }),
          n,
          options.url ?? "",
          report,
        );
      }
    }
    return report;
  }

  /** To the registered devices with these tokens (unknown tokens are skipped). */
  async toTokens(em: EntityManager, tokens: string[], n: NotificationContent): Promise<DeliveryReport> {
    const devices = await em.find(Device, { token: { $in: [...new Set(tokens)] } });
    const users = [...new Set(devices.map((d) => d.userId))];
    const report: DeliveryReport = { recipients: n.silent ? 0 : users.length, sent: 0, failed: 0, removed: 0 };
    await this.inbox(em, users, n);
    await this.pushDevices(em, devices, n, report);
    return report;
  }

  /** To these users' browser subscriptions (an inbox row each). */
  async webToUsers(em: EntityManager, userIds: string[], n: NotificationContent, url: string): Promise<DeliveryReport> {
    const users = [...new Set(userIds.map((u) => u.toLowerCase()))];
    const report: DeliveryReport = { recipients: users.length, sent: 0, failed: 0, removed: 0 };
    await this.inbox(em, users, n);
    await this.pushBrowsers(em, await em.find(WebPushSubscription, { userId: { $in: users } }), n, url, report);
    return report;
  }

  /**
   * To the browser subscriptions with these ids (no inbox row: the web push to every subscription, issue 29);
   * ids no longer stored are skipped.
   */
  async toSubscriptions(
    em: EntityManager,
    ids: string[],
    n: NotificationContent,
    url: string,
  ): Promise<DeliveryReport> {
    const report: DeliveryReport = { recipients: 0, sent: 0, failed: 0, removed: 0 };
    await this.pushBrowsers(em, await em.find(WebPushSubscription, { id: { $in: ids } }), n, url, report);
    return report;
  }
}
