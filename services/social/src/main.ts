import { runServiceMain } from "@tt/kit";
import { socialServiceDefinition } from "./index.ts";

await runServiceMain([socialServiceDefinition]);
