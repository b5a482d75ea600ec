// The resident DJ (@tt/resident-dj): a bot made with the bot kit that keeps the Lobby playing. See docs/bots.md.
export { helpText, startResidentDj, type ResidentDj, type ResidentDjOptions } from "./resident-dj.ts";
export { loadResidentDjConfig, residentDjConfigSchema, type ResidentDjConfig } from "./config.ts";
export { residentDjFromEnv } from "./from-env.ts";
