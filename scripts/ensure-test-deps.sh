#!/usr/bin/env bash
# Installs the system packages the test suite needs on a fresh Debian machine (runs before `npm test`):
# Chromium and its headless shell for the browser journeys, and nats-server when no NATS answers on 127.0.0.1:4222 and NATS_URL
# is unset. Does nothing when they are present.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ -z "${NATS_URL:-}" ] && ! command -v nats-server >/dev/null 2>&1 \
  && ! (exec 3<>/dev/tcp/127.0.0.1/4222) 2>/dev/null; then
  missing+=(nats-server)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need these Debian packages: ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "Installing ${missing[*]} for the tests"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
