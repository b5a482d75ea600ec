// Profile and cover pictures: checked, resized to every stored size, kept in the object store; the rows
// say whose they are. Files are written before the row and removed after it, so a row never points at
// missing files (a crash can at worst leave unreferenced files behind).
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { detectImageType } from "@tt/image-type";
import { type ObjectStore } from "@tt/kit";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Logger } from "pino";
import { imageKey, imageKeys } from "../modules/profile-data/image-keys.ts";
import { ImageDecodeError, resizeImage } from "../modules/profile-data/image-processing.ts";
import type { MediaConfig } from "../modules/profile-data/media-config.ts";
import { enqueueProfileUpdated } from "../modules/profile-data/profile-events.ts";
import {
  checkImageKind,
  IMAGE_NOT_FOUND,
  isUuid,
  PROFILE_NOT_FOUND,
  STAFF_ROLES,
  UNAUTHORIZED_TO_DELETE,
} from "../modules/profile-data/profile-rules.ts";
import { ProfileDetails } from "../modules/profile-data/profile-details.entity.ts";
import {
  detailsFor,
  loadProfileParts,
  toFullProfileMessage,
  toImageMessage,
} from "../modules/profile-data/profile-view.ts";
import { UserImage } from "../modules/profile-data/user-image.entity.ts";
import { callEm, callIdentity } from "./call.ts";

export interface MediaDeps {
  config: MediaConfig;
  store: ObjectStore;
  logger: Logger;
}

const STORE_UNAVAILABLE = "image storage is unavailable, try again later";

export function imageRoutes({ config: media, store, logger }: MediaDeps): Partial<ServiceImpl<typeof ProfileService>> {
  const baseUrl = media.MEDIA_BASE_URL;

  const removeFiles = async (imageId: string) => {
    const results = await Promise.allSettled(imageKeys(imageId).map((key) => store.delete(key)));
    const failed = results.filter((r) => r.status === "rejected");
    // Left-over files are unreachable without their row; worth a warning, not a failed call.
    if (failed.length > 0) logger.warn({ imageId, err: failed[0]!.reason as unknown }, "image files not removed");
  };

  const findImage = async (em: ReturnType<typeof callEm>, id: string) => {
    const image = isUuid(id) ? await em.findOne(UserImage, { id: id.toLowerCase() }, { populate: ["user"] }) : null;
    if (!image) throw new ConnectError(IMAGE_NOT_FOUND, Code.NotFound);
    return image;
  };

  return {
    async uploadUserImage(req, ctx) {
      const identity = callIdentity(ctx);
      const em = callEm(ctx);
      const kind = checkImageKind(req.kind);
      const bytes = req.file?.content;
      if (!bytes || bytes.length === 0) throw new ConnectError("file is required", Code.InvalidArgument);
      if (bytes.length > media.MEDIA_MAX_IMAGE_BYTES) {
        throw new ConnectError(`file must be at most ${media.MEDIA_MAX_IMAGE_BYTES} bytes`, Code.InvalidArgument);
      }
      if (!detectImageType(bytes)) {
        throw new ConnectError("file must be a JPEG, PNG, WebP or GIF image", Code.InvalidArgument);
      }
      const parts = (await loadProfileParts(em, [identity.subject])).get(identity.subject);
      if (!parts) throw new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);
      let sizes;
      try {
        sizes = await resizeImage(bytes);
      } catch (err) {
        if (err instanceof ImageDecodeError)
          throw new ConnectError(err.message, Code.InvalidArgument, undefined, undefined, err);
        throw err;
      }

      const id = randomUUID();
      try {
        await Promise.all(sizes.map(({ size, body }) => store.put(imageKey(id, size), body, "image/webp")));
      } catch (err) {
        await removeFiles(id);
        throw new ConnectError(STORE_UNAVAILABLE, Code.Unavailable, undefined, undefined, err);
      }

      try {
        const image = em.create(UserImage, { id, user: parts.user, kind, createdAt: new Date() });
        const details = parts.details ?? (await detailsFor(em, parts.user));
        // The new picture replaces the current one on the profile; the old image stays selectable.
        if (kind === "profilePicture") details.profilePicture = image;
        else details.coverPicture = image;
        details.updatedAt = new Date();
        enqueueProfileUpdated(em, toFullProfileMessage({ ...parts, details }, baseUrl));
        await em.flush();
        return { image: toImageMessage(image, baseUrl) };
      } catch (err) {
        await removeFiles(id);
        throw err;
      }
    },

    async getUserImage(req, ctx) {
      return { image: toImageMessage(await findImage(callEm(ctx), req.id), baseUrl) };
    },

    async deleteUserImage(req, ctx) {
      const identity = callIdentity(ctx);
      const em = callEm(ctx);
      const image = await findImage(em, req.id);
      const owner = image.user.id;
      if (identity.subject !== owner && !STAFF_ROLES.has(identity.role)) {
        throw new ConnectError(UNAUTHORIZED_TO_DELETE, Code.PermissionDenied);
      }
      const details = await em.findOne(
        ProfileDetails,
        { user: owner },
        { populate: ["profilePicture", "coverPicture"] },
      );
      if (details && (details.profilePicture?.id === image.id || details.coverPicture?.id === image.id)) {
        if (details.profilePicture?.id === image.id) details.profilePicture = null;
        if (details.coverPicture?.id === image.id) details.coverPicture = null;
        details.updatedAt = new Date();
        const parts = (await loadProfileParts(em, [owner])).get(owner);
        if (parts) enqueueProfileUpdated(em, toFullProfileMessage({ ...parts, details }, baseUrl));
      }
      em.remove(image);
      await em.flush();
      await removeFiles(image.id);
      return {};
    },
  };
}
