// One lint configuration for the whole workspace; `npm run lint` treats warnings as errors.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/",
      "proto/gen/",
      "**/dist/",
      ".data/",
      ".tmp/",
      ".tools/",
      "test-artifacts/",
      "coverage/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": "error",
    },
  },
  {
    // A promise that is started and then dropped rejects with nobody listening, which ends a Node process
    // (issue 9 defect 1). The kit and the gateway serve every request, so they are linted with type
    // information for it; `void` marks a promise deliberately left to run.
    files: ["services/kit/src/**/*.ts", "gateway/src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    files: ["frontends/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Command-line entry points and benchmarks print to the terminal on purpose.
    files: ["**/bench/**", "scripts/**", "**/*.cjs", "**/webpack.config.*"],
    rules: { "no-console": "off", "@typescript-eslint/no-require-imports": "off" },
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
        process: "readonly",
        console: "readonly",
      },
    },
  },
);
