import { ImportJobSchema } from "./import-job.entity.ts";

/** Entities of the imports area. */
export const importEntities = [ImportJobSchema];
