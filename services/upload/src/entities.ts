import { OutboxMessageSchema } from "@tt/kit";
import { UploadSecretSchema } from "./modules/songs/secret.entity.ts";
import { SongSchema } from "./modules/songs/song.entity.ts";

export const entities = [SongSchema, UploadSecretSchema, OutboxMessageSchema];
