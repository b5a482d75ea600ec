#!/usr/bin/env bash
# The static checks of `npm test`: ESLint with Prettier, and the TypeScript compiler. Each is single-threaded, so
# they run side by side (on the two cores of the CI machine this takes about a minute off the run); the first to
# fail does not stop the other, so one run reports both.
set -uo pipefail
cd "$(dirname "$0")/.."
npm run --silent lint &
lint=$!
npm run --silent typecheck
typecheck=$?
wait "$lint"
lint_status=$?
[ "$lint_status" -eq 0 ] || echo "lint failed (exit $lint_status)" >&2
[ "$typecheck" -eq 0 ] || echo "typecheck failed (exit $typecheck)" >&2
[ "$lint_status" -eq 0 ] && [ "$typecheck" -eq 0 ]
