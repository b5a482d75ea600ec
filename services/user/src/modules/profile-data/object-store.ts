// The object store moved into the kit (issue 12: the upload service stores packaged songs through the same one).
export { FsObjectStore, ObjectStoreError, S3ObjectStore } from "@tt/kit";
export type { ObjectStore, S3ObjectStoreOptions, StoredObject } from "@tt/kit";
