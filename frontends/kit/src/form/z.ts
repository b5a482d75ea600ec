// The part of zod the apps' forms use, as the `z` they import from @tt/web-kit/form. Re-exporting zod's own
// namespace would carry every one of its 40-odd locales into the page (a namespace object defeats tree shaking:
// 103 KB gzip for the forms' chunk, measured on the shell's build); named exports keep only what is used.
// Add what a new form needs here.
export { array, boolean, email, number, object, string } from "zod";
export type { input, output, ZodType } from "zod";
