// Runs the user service alone (distributed mode); the kit owns start, signals and shutdown.
import { runServiceMain } from "@tt/kit";
import { userServiceDefinition } from "./index.ts";

await runServiceMain([userServiceDefinition]);
