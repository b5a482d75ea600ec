import { runServiceMain } from "@tt/kit";
import { auditServiceDefinition } from "./index.ts";

await runServiceMain([auditServiceDefinition]);
