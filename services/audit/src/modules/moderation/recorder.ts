// Records the moderation events of the user and room services in the moderation log, once per event id
// (consumeEvents marks each event processed in the same transaction as the entry).
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { MikroORM } from "@mikro-orm/postgresql";
import {
  consumeEvents,
  eventDeclaration,
  type Bus,
  type BusLogger,
  type EventContext,
  type Subscription,
} from "@tt/kit";
import {
  RoomRoleGrantedSchema,
  RoomRoleRemovedSchema,
  RoomUserBannedSchema,
  RoomUserKickedSchema,
} from "@tt/proto/tt/room/v1/events_pb";
import {
  RolesChangedSchema,
  UserBannedSchema,
  UserKickedSchema,
  UserUnbannedSchema,
} from "@tt/proto/tt/user/v1/events_pb";
import { ModerationAction } from "./moderation-action.entity.ts";
import { isUuid } from "@tt/kit";

/** What one event becomes in the log; undefined records nothing. */
interface Entry {
  actionType: string;
  userUuid: string;
  moderatorUuid?: string;
  roomUuid?: string;
  role?: string;
  previousRole?: string;
  reason?: string;
  endsAt?: Date;
}

const date = (t: Timestamp | undefined) => (t ? timestampDate(t) : undefined);

interface Recorder<D extends DescMessage> {
  name: string;
  schema: D;
  entry: (event: MessageShape<D>) => Entry | undefined;
}

const rec = <D extends DescMessage>(
  name: string,
  schema: D,
  entry: (event: MessageShape<D>) => Entry | undefined,
): Recorder<D> => ({ name, schema, entry });

/** The user service's moderation events ("user event names"). */
export const USER_RECORDERS = [
  rec("user-banned", UserBannedSchema, (e) => ({
    actionType: e.endsAt ? "temporaryBan" : "globalBan",
    userUuid: e.uuid,
    moderatorUuid: e.bannedByUuid,
    reason: e.reason,
    endsAt: date(e.endsAt),
  })),
  rec("user-unbanned", UserUnbannedSchema, (e) => ({
    actionType: "globalUnBan",
    userUuid: e.uuid,
    moderatorUuid: e.unbannedByUuid,
    reason: e.expired ? "expired" : undefined,
  })),
  rec("user-kicked", UserKickedSchema, (e) => ({
    actionType: "globalKick",
    userUuid: e.uuid,
    moderatorUuid: e.kickedByUuid,
    reason: e.reason,
  })),
  rec("roles-changed", RolesChangedSchema, (e) =>
    e.role === e.previousRole
      ? undefined // only capabilities changed: not a role action
      : {
          actionType: e.role === "user" ? "removeRole" : "grantRole",
          userUuid: e.uuid,
          moderatorUuid: e.changedByUuid,
          role: e.role,
          previousRole: e.previousRole,
        },
  ),
];

/** The room service's moderation events, the ones the live stage sends to clients ("socket event names"). */
export const ROOM_RECORDERS = [
  rec("room-role-granted", RoomRoleGrantedSchema, (e) => ({
    actionType: "grantRole",
    userUuid: e.userUuid,
    moderatorUuid: e.grantedBy,
    roomUuid: e.roomUuid,
    role: e.role,
    endsAt: date(e.expiresAt),
  })),
  rec("room-role-removed", RoomRoleRemovedSchema, (e) => ({
    actionType: "removeRole",
    userUuid: e.userUuid,
    moderatorUuid: e.removedBy,
    roomUuid: e.roomUuid,
    previousRole: e.role,
  })),
  rec("room-user-kicked", RoomUserKickedSchema, (e) => ({
    actionType: "kickUser",
    userUuid: e.userUuid,
    moderatorUuid: e.kickedBy,
    roomUuid: e.roomUuid,
    endsAt: date(e.until),
  })),
  rec("room-user-banned", RoomUserBannedSchema, (e) => ({
    actionType: "banUser",
    userUuid: e.userUuid,
    moderatorUuid: e.bannedBy,
    roomUuid: e.roomUuid,
    endsAt: date(e.until),
  })),
];

export const USER_EVENT_NAMES = USER_RECORDERS.map((r) => eventDeclaration(r.schema).subject);
export const SOCKET_EVENT_NAMES = ROOM_RECORDERS.map((r) => eventDeclaration(r.schema).subject);

const cut = (v: string | undefined, n: number) => (v ? v.slice(0, n) : null);
const uuidOrNull = (v: string | undefined) => (v && isUuid(v) ? v.toLowerCase() : null);

function record(entry: Entry | undefined, ctx: EventContext): void {
  if (!entry || !isUuid(entry.userUuid)) return; // nothing to record about (an event without a user)
  ctx.em.create(ModerationAction, {
    actionType: entry.actionType,
    userUuid: entry.userUuid.toLowerCase(),
    moderatorUuid: uuidOrNull(entry.moderatorUuid),
    roomUuid: uuidOrNull(entry.roomUuid),
    role: cut(entry.role, 32),
    previousRole: cut(entry.previousRole, 32),
    reason: cut(entry.reason, 500),
    endsAt: entry.endsAt ?? null,
    sourceEventId: ctx.eventId.slice(0, 255),
    sourceSubject: ctx.subject.slice(0, 255),
    createdAt: ctx.occurredAt && !Number.isNaN(ctx.occurredAt.getTime()) ? ctx.occurredAt : new Date(),
  });
}

/** Starts one durable consumer per event type; returns their names and one way to stop them all. */
export async function startModerationRecorders(
  bus: Bus,
  orm: MikroORM,
  prefix: string,
  logger: BusLogger,
): Promise<{ consumers: string[]; subscription: Subscription }> {
  const subs: Subscription[] = [];
  const consumers: string[] = [];
  for (const r of [...USER_RECORDERS, ...ROOM_RECORDERS] as Recorder<DescMessage>[]) {
    const durable = `${prefix}-${r.name}`;
    subs.push(
      await consumeEvents(bus, r.schema, async (event, ctx) => record(r.entry(event), ctx), { durable, orm, logger }),
    );
    consumers.push(durable);
  }
  return {
    consumers,
    subscription: { unsubscribe: async () => void (await Promise.all(subs.map((s) => s.unsubscribe()))) },
  };
}
