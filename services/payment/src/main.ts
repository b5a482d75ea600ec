import { runServiceMain } from "@tt/kit";
import { paymentServiceDefinition } from "./index.ts";

await runServiceMain([paymentServiceDefinition]);
