#!/bin/sh
# Starts one backend process of the platform image: SERVICE=<name> runs services/<name>, SERVICE=gateway the gateway.
# Node runs the TypeScript itself (services/kit/src/node-flags.ts has the flags and why), as PID 1 with no child, so
# SIGTERM reaches the service's graceful shutdown directly.
set -eu

case "${SERVICE:-}" in
  "") echo "entrypoint: set SERVICE to a service name (user, ...) or gateway" >&2; exit 64 ;;
  gateway) entry=gateway/src/main.ts ;;
  kit | platform) echo "entrypoint: SERVICE=$SERVICE is not a deployable service" >&2; exit 64 ;;
  *) entry="services/$SERVICE/src/main.ts" ;;
esac

if [ ! -f "$entry" ]; then
  echo "entrypoint: unknown SERVICE=$SERVICE (no $entry in the image)" >&2
  exit 64
fi

exec node --experimental-transform-types --disable-warning=ExperimentalWarning "$entry" "$@"
