import { runServiceMain } from "@tt/kit";
import { uploadServiceDefinition } from "./index.ts";

await runServiceMain([uploadServiceDefinition]);
