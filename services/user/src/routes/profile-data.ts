import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { LockMode, OptimisticLockError } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { UserDataSchema as UserDataMessageSchema, type Profile as ProfileMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { compiledOnce, createObjectStore, findOrInsert, sql, type ExpressionBuilder, type Identity } from "@tt/kit";
import { db, type UserTables } from "../db.ts";
import { toAccountMessage } from "../modules/accounts/account-message.ts";
import { enqueueProfileUpdated, enqueueUserUpdated } from "../modules/profile-data/profile-events.ts";
import {
  CAPABILITIES,
  checkAvatarId,
  checkBadges,
  checkBio,
  checkColor,
  checkNickname,
  checkPage,
  checkSocial,
  checkUserData,
  isUuid,
  MAX_PROFILE_BATCH,
  PROFILE_NOT_FOUND,
  STAFF_ROLES,
  userIdOr404,
} from "../modules/profile-data/profile-rules.ts";
import {
  detailsFor,
  loadProfileMessages,
  loadProfileParts,
  toFullProfileMessage,
  toSocialsMessage,
} from "../modules/profile-data/profile-view.ts";
import { UserData } from "../modules/profile-data/user-data.entity.ts";
import { UserImage } from "../modules/profile-data/user-image.entity.ts";
import { UserSocials } from "../modules/profile-data/user-socials.entity.ts";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callIdentity } from "./call.ts";
import { deactivatedAmong } from "../modules/moderation/deactivated.ts";
import { imageRoutes } from "./profile-data-images.ts";

const notFound = () => new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);

/** The profile change a user (or an admin for them) asks for: present fields are set, absent ones kept. */
interface ProfileChange {
  nickname?: string;
  avatarId?: string;
  color?: string;
  bio?: string;
  profilePictureId?: string;
  coverPictureId?: string;
}

async function pictureOf(
  em: EntityManager,
  userId: string,
  kind: "profilePicture" | "coverPicture",
  id: string,
): Promise<UserImage | null> {
  if (id === "") return null;
  const image = isUuid(id) ? await em.findOne(UserImage, { id: id.toLowerCase() }, { populate: ["user"] }) : null;
  if (!image || image.user.id !== userId || image.kind !== kind) {
    const field = kind === "profilePicture" ? "profilePictureId" : "coverPictureId";
    throw new ConnectError(`${field} must name one of the user's ${kind} images`, Code.InvalidArgument);
  }
  return image;
}

/**
 * Changes of one profile run one at a time: the profile row is locked first. Without it two changes at once took the
 * profile's and its details' rows in either order (the order the parallel reads came back in) and deadlocked, so
 * concurrent first changes of a new user answered 409 "try again" (issue 23).
 */
function changeProfile(em: EntityManager, userId: string, change: ProfileChange, baseUrl: string) {
  return em.transactional(async (tx) => {
    await tx.findOne(Profile, { user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    return changeLockedProfile(tx, userId, change, baseUrl);
  });
}

async function changeLockedProfile(em: EntityManager, userId: string, change: ProfileChange, baseUrl: string) {
  const parts = (await loadProfileParts(em, [userId])).get(userId);
  if (!parts) throw notFound();
  // Every value is checked before anything changes, so a refused call leaves the profile as it was.
  const nickname = change.nickname === undefined ? undefined : checkNickname(change.nickname);
  const avatarId = change.avatarId === undefined ? undefined : checkAvatarId(change.avatarId);
  const color = change.color === undefined ? undefined : checkColor(change.color);
  const bio = change.bio === undefined ? undefined : checkBio(change.bio);
  const profilePicture =
    change.profilePictureId === undefined
      ? undefined
      : await pictureOf(em, userId, "profilePicture", change.profilePictureId);
  const coverPicture =
    change.coverPictureId === undefined
      ? undefined
      : await pictureOf(em, userId, "coverPicture", change.coverPictureId);

  const { profile } = parts;
  if (nickname !== undefined) profile.nickname = nickname;
  if (avatarId !== undefined) profile.avatarId = avatarId;
  if (color !== undefined) profile.color = color;
  if (bio !== undefined) profile.bio = bio;
  const details = parts.details ?? (await detailsFor(em, parts.user));
  if (profilePicture !== undefined) details.profilePicture = profilePicture;
  if (coverPicture !== undefined) details.coverPicture = coverPicture;
  details.updatedAt = new Date();
  const message = toFullProfileMessage({ ...parts, details }, baseUrl);
  enqueueProfileUpdated(em, message);
  await em.flush();
  return message;
}

/** The caller's own account id: user and bot tokens only (the access option already said so). */
function ownUserId(ctx: HandlerContext): string {
  const identity = callIdentity(ctx);
  if (identity.tokenType !== "user" && identity.tokenType !== "bot") throw notFound();
  return identity.subject;
}

/** Whether the caller sees private parts of `userId` (e-mail, password state): themselves, staff, services. */
function seesPrivate(identity: Identity, userId: string): boolean {
  return identity.tokenType === "service" || identity.subject === userId || STAFF_ROLES.has(identity.role);
}

/**
 * The user in full (the accounts area's view: profile, socials, e-mails, phones, ban, deactivation), with the
 * private parts blanked for callers that may not see them: others see who someone is, not how to reach them.
 */
async function userView(em: EntityManager, id: string, withPrivate: (userId: string) => boolean, baseUrl: string) {
  const userId = userIdOr404(id);
  const [user, profile] = await Promise.all([
    em.findOne(User, { id: userId }),
    em.findOne(Profile, { user: userId }, { fields: ["user"] }),
  ]);
  if (!user || !profile) throw notFound();
  const message = await toAccountMessage(em, user, baseUrl);
  if (!withPrivate(userId)) {
    message.email = "";
    message.emails = [];
    message.phoneNumbers = [];
    message.hasPassword = false;
  }
  return message;
}

async function changeBadges(em: EntityManager, uuid: string, next: (current: string[]) => string[]) {
  const user = await em.findOne(User, { id: userIdOr404(uuid) });
  if (!user) throw notFound();
  const badges = next([...user.badges]);
  const changed = badges.length !== user.badges.length || badges.some((b, i) => b !== user.badges[i]);
  if (changed) {
    user.badges = badges;
    enqueueUserUpdated(em, user, new Date());
    try {
      await em.flush();
    } catch (err) {
      // Two writers changed the account at once; the version column turned one away. Retrying is safe.
      if (err instanceof OptimisticLockError) {
        throw new ConnectError("the user changed meanwhile, try again", Code.Aborted, undefined, undefined, err);
      }
      throw err;
    }
  }
  return { badges: [...user.badges] };
}

// Ordered by the later of the profile's own change and its account's (role, badges), as profileChangedAt.
/**
 * Profiles (`p`, their users `u` and details `d`) changed at or after `since` (all when null), by when they last
 * changed: the user's or the details' update, whichever is later.
 */
function updatedProfiles(em: EntityManager, since: Date | null) {
  const changed = updatedSince(em);
  return since === null ? changed : changed.where((eb) => eb(changedAt(eb), ">=", since));
}

const updatedSince = (em: EntityManager) =>
  db(em)
    .selectFrom("profile as p")
    .innerJoin("users as u", "u.id", "p.user_id")
    .leftJoin("profile_details as d", "d.user_id", "p.user_id");

const changedAt = (
  eb: ExpressionBuilder<UserTables & { u: UserTables["users"]; d: UserTables["profile_details"] }, "u" | "d">,
) => eb.fn<Date | string>("greatest", ["u.updated_at", eb.fn.coalesce("d.updated_at", "u.updated_at")]);

/** The uuids of a batch call (GetProfiles, GetServiceAccounts), lower case, each once; 400 unless 1 to 150 uuids. */
function uuidBatch(users: readonly string[]): string[] {
  if (users.length === 0 || users.length > MAX_PROFILE_BATCH) {
    throw new ConnectError(`users must name 1 to ${MAX_PROFILE_BATCH} uuids`, Code.InvalidArgument);
  }
  const bad = users.find((id) => !isUuid(id));
  if (bad !== undefined) throw new ConnectError(`users must be uuids: ${JSON.stringify(bad)}`, Code.InvalidArgument);
  return [...new Set(users.map((id) => id.toLowerCase()))];
}

// Every stage admission of a signed-up listener asks it: compiled once.
const accountsOf = compiledOnce(db, (q, p: { ids: string[] }) =>
  q
    .selectFrom("users")
    .select(["id", "role", "capabilities"])
    .where(sql<boolean>`id = any(${p.ids}::uuid[])`),
);

function inOrder(ids: readonly string[], messages: Map<string, ProfileMessage>): ProfileMessage[] {
  return ids.flatMap((id) => messages.get(id) ?? []);
}

/** A user's private settings, the defaults when they saved none. */
async function userDataOf(em: EntityManager, userId: string) {
  const data = await em.findOne(UserData, { user: userId });
  return {
    userData: create(UserDataMessageSchema, {
      musicProviders: data ? [...data.musicProviders] : [],
      allowExplicitAudio: data?.allowExplicitAudio ?? false,
      audioQuality: data?.audioQuality ?? "medium",
      language: data?.language ?? "en",
    }),
  };
}

/** RPCs of the profile-data area: profiles beyond GetProfile, user data, socials, capabilities list, badges, service profile lists, images. */
export function profileDataRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ProfileService>> {
  const media = svc.areas.media;
  const baseUrl = media.MEDIA_BASE_URL;

  const profileOf = async (em: EntityManager, id: string) => {
    const userId = userIdOr404(id);
    const profile = (await loadProfileMessages(em, [userId], baseUrl)).get(userId);
    if (!profile) throw notFound();
    return profile;
  };

  return {
    ...imageRoutes({ config: media, store: createObjectStore(media), logger: svc.logger }),

    async getProfile(req, ctx) {
      const em = callEm(ctx);
      const profile = await profileOf(em, req.id);
      // Public reads hide a deactivated account until it is reactivated; service reads still see it.
      if ((await deactivatedAmong(em, [profile.uuid])).size > 0) throw notFound();
      return { profile };
    },

    async getServiceProfile(req, ctx) {
      return { profile: await profileOf(callEm(ctx), req.id) };
    },

    async getProfiles(req, ctx) {
      const requested = uuidBatch(req.users);
      const em = callEm(ctx);
      const hidden = await deactivatedAmong(em, requested);
      const ids = requested.filter((id) => !hidden.has(id));
      return { profiles: inOrder(ids, await loadProfileMessages(em, ids, baseUrl)) };
    },

    async getOwnProfile(_req, ctx) {
      return { profile: await profileOf(callEm(ctx), ownUserId(ctx)) };
    },

    async updateProfile(req, ctx) {
      return { profile: await changeProfile(callEm(ctx), ownUserId(ctx), req, baseUrl) };
    },

    async adminUpdateProfile(req, ctx) {
      const { uuid, ...change } = req;
      return { profile: await changeProfile(callEm(ctx), userIdOr404(uuid), change, baseUrl) };
    },

    getUserData: (_req, ctx) => userDataOf(callEm(ctx), ownUserId(ctx)),

    getServiceUserData: (req, ctx) => userDataOf(callEm(ctx), userIdOr404(req.id)),

    async updateUserData(req, ctx) {
      const em = callEm(ctx);
      const userId = ownUserId(ctx);
      const checked = checkUserData(req.userData ?? create(UserDataMessageSchema));
      const user = await em.findOne(User, { id: userId });
      if (!user) throw notFound();
      // The whole settings row, in one statement: concurrent first saves all answer (issue 23).
      await em.upsert(UserData, { user: userId, ...checked });
      return { userData: create(UserDataMessageSchema, checked) };
    },

    async getUser(req, ctx) {
      const identity = callIdentity(ctx);
      return { user: await userView(callEm(ctx), req.id, (id) => seesPrivate(identity, id), baseUrl) };
    },

    async getServiceUserProfile(req, ctx) {
      return { user: await userView(callEm(ctx), req.id, () => true, baseUrl) };
    },

    async getServiceAccounts(req, ctx) {
      const requested = uuidBatch(req.users);
      const found = new Map((await accountsOf(callEm(ctx), { ids: requested })).map((row) => [row.id, row] as const));
      return {
        accounts: requested.flatMap((id) => {
          const row = found.get(id);
          return row ? [{ uuid: id, role: row.role, capabilities: row.capabilities }] : [];
        }),
      };
    },

    async getCapabilities(_req, ctx) {
      const user = await callEm(ctx).findOne(User, { id: ownUserId(ctx) });
      if (!user) throw notFound();
      return { capabilities: [...user.capabilities], available: [...CAPABILITIES] };
    },

    async updateUserSocials(req, ctx) {
      const em = callEm(ctx);
      const userId = ownUserId(ctx);
      const fields = [
        "instagram",
        "twitter",
        "tiktok",
        "facebook",
        "soundcloud",
        "spotify",
        "youtube",
        "appleMusic",
        "website",
      ] as const;
      const changes: Partial<Record<(typeof fields)[number], string>> = {};
      for (const field of fields) {
        const value = req[field];
        if (value !== undefined) changes[field] = checkSocial(field, value);
      }
      const parts = (await loadProfileParts(em, [userId])).get(userId);
      if (!parts) throw notFound();
      const socials = parts.socials ?? (await findOrInsert(em, UserSocials, { user: userId }, { user: userId }));
      em.assign(socials, changes);
      const details = parts.details ?? (await detailsFor(em, parts.user));
      details.updatedAt = new Date();
      // The profile shows the socials, so its copies elsewhere need them too.
      enqueueProfileUpdated(em, toFullProfileMessage({ ...parts, socials, details }, baseUrl));
      await em.flush();
      return { socials: toSocialsMessage(socials) };
    },

    async addBadges(req, ctx) {
      const add = checkBadges(req.badges);
      return changeBadges(callEm(ctx), req.uuid, (current) => [...new Set([...current, ...add])]);
    },

    async removeBadges(req, ctx) {
      const remove = new Set(checkBadges(req.badges));
      return changeBadges(callEm(ctx), req.uuid, (current) => current.filter((b) => !remove.has(b)));
    },

    async adminChangeBadges(req, ctx) {
      const badges = checkBadges(req.badges);
      return changeBadges(callEm(ctx), req.uuid, () => badges);
    },

    async listAllUserProfiles(req, ctx) {
      const em = callEm(ctx);
      const { limit, offset } = checkPage(req.take, req.skip, undefined);
      const [rows, total] = await em.findAndCount(
        Profile,
        {},
        { fields: ["user"], orderBy: { user: "asc" }, limit, offset },
      );
      const ids = rows.map((p) => p.user.id);
      return { profiles: inOrder(ids, await loadProfileMessages(em, ids, baseUrl)), total };
    },

    async listUpdatedUserProfiles(req, ctx) {
      const em = callEm(ctx);
      const { limit, offset } = checkPage(req.take, req.skip, 100);
      const since = req.updatedSince
        ? new Date(Number(req.updatedSince.seconds) * 1000 + req.updatedSince.nanos / 1e6)
        : null;
      const page = updatedProfiles(em, since)
        .select((eb) => ["u.id", eb.fn.countAll<string>().over().as("total")])
        .orderBy((eb) => changedAt(eb))
        .orderBy("u.id")
        .offset(offset);
      const rows = await (limit === undefined ? page : page.limit(limit)).execute();
      // Past the last page the window function has no row to report the total on.
      const total =
        rows.length > 0
          ? Number(rows[0]!.total)
          : Number(
              (
                await updatedProfiles(em, since)
                  .select((eb) => eb.fn.countAll<string>().as("total"))
                  .executeTakeFirstOrThrow()
              ).total,
            );
      const ids = rows.map((r) => r.id);
      return { profiles: inOrder(ids, await loadProfileMessages(em, ids, baseUrl)), total };
    },
  };
}
