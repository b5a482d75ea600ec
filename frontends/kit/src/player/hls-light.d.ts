// hls.js ships no types for its light build (no subtitles, alternate audio, EME or CMCD; AES-128 is in it):
// the same API as the full one.
declare module "hls.js/light" {
  import Hls from "hls.js";
  export * from "hls.js";
  export default Hls;
}
declare module "hls.js/dist/hls.light.min.mjs" {
  import Hls from "hls.js";
  export * from "hls.js";
  export default Hls;
}
