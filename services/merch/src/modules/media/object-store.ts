// Copied from the user service (services/user/src/modules/profile-data/object-store.ts): the same key → bytes
// interface over the same MEDIA_DIR / S3 bucket. A candidate for the kit once a third service needs it.
// The object store moved into the kit (issue 12: the upload service stores packaged songs through the same one).
export { FsObjectStore, ObjectStoreError, S3ObjectStore } from "@tt/kit";
export type { ObjectStore, S3ObjectStoreOptions, StoredObject } from "@tt/kit";
