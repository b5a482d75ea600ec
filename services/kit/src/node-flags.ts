// How every process of the platform runs its TypeScript: Node's own type handling (amaro), which removes the types
// and turns enums and parameter properties into JavaScript, and nothing else. tsx, which ran it before, compiles with
// esbuild's keepNames: every named function made at run time (each `const done = () => …` of each call) got its
// name redefined, which costs a property store per closure (about 0.25 KB each; 3 KB of every open join stream) and
// time on every call. The warning Node prints for the flag is left out.
export const NODE_TYPESCRIPT_FLAGS: readonly string[] = [
  "--experimental-transform-types",
  "--disable-warning=ExperimentalWarning",
];
