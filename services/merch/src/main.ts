import { runServiceMain } from "@tt/kit";
import { merchServiceDefinition } from "./index.ts";

await runServiceMain([merchServiceDefinition]);
