// Runs the playlist service alone (distributed mode); the kit owns start, signals and shutdown.
import { runServiceMain } from "@tt/kit";
import { playlistServiceDefinition } from "./index.ts";

await runServiceMain([playlistServiceDefinition]);
