// The linter of the pages' JavaScript (./dev lint): every module under a
// static/ folder of the apps and of the games' UI folders, and their tests;
// also the Node scripts of benchmarks/peer (not their node_modules).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "staticfiles/", ".venv/", "tests/artifacts/"] },
  js.configs.recommended,
  {
    files: ["**/static/**/*.js", "tests/js/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // boardgame.io's side of benchmarks/compare_bench.py: CommonJS run by Node
    files: ["benchmarks/peer/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "commonjs", globals: globals.node },
    rules: {
      "no-unused-vars": ["error", { caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    files: ["tests/js/*.js", "eslint.config.js"],
    languageOptions: { globals: globals.node },
  },
];
