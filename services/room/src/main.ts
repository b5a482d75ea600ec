// Runs the room service alone (distributed mode); the kit owns start, signals and shutdown.
import { runServiceMain } from "@tt/kit";
import { roomServiceDefinition } from "./index.ts";

await runServiceMain([roomServiceDefinition]);
