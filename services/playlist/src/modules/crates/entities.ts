import { CrateSongSchema } from "./crate-song.entity.ts";
import { CrateSchema } from "./crate.entity.ts";

/** The crates area's entities. */
export const crateEntities = [CrateSchema, CrateSongSchema];
