#!/usr/bin/env bash
# Installs what Cutroom needs on a fresh Debian machine (idempotent): Debian packages, npm packages, the build.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian packages the service and its tests use. Keep one per line with the reason.
APT_PACKAGES=(
  ffmpeg                # ffmpeg + ffprobe of one Debian-maintained build (5.1): media probing, analysis, rendering
  pocketsphinx          # embedded speech recognition engine (pocketsphinx_batch), docs/asr.md
  pocketsphinx-en-us    # its US English acoustic model, language model and dictionary
  pocketsphinx-testdata # human read-speech clips used by the speech test fixtures
  espeak-ng             # speech synthesis for the generated test fixtures
  chromium              # the browser the Studio's end-to-end tests drive (playwright-core, never a downloaded browser)
)

if [ ${#APT_PACKAGES[@]} -gt 0 ]; then
  missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  # onnxruntime-node (Silero VAD) ships its CPU runtime; skip its optional CUDA download (offline).
  ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
fi

# The build (dist/, sdk/dist/, the SDK's tarball dist/sdk/cutroom-sdk.tgz and the Studio in dist/web/), skipped when nothing it reads changed since the last one: a file or
# folder newer than the stamp (an edit, a checkout, an added or removed file) builds again; the types the
# build generates into sdk/src (schema.d.ts, resources.ts) do not count, nor does the folder that first build creates them in.
stamp=dist/.build-stamp
if [ -f "$stamp" ] && [ -d sdk/dist ] && [ -f dist/sdk/cutroom-sdk.tgz ] && [ -f dist/web/index.html ] && [ -z "$(find src sdk/src sdk/package.json sdk/tsconfig.json sdk/README.md scripts/build-sdk.ts scripts/sdk-resources.ts tsconfig.json package.json package-lock.json web \( -path sdk/src/schema.d.ts -o -path sdk/src/resources.ts \) -prune -o -newer "$stamp" ! -path sdk/src -print -quit)" ]; then
  echo "setup: the build is up to date"
else
  echo "setup: building"
  # Stamped with the time the build started: a file changed while it ran builds again next time.
  mkdir -p dist && touch "$stamp.next"
  npm run --silent build
  mv "$stamp.next" "$stamp"
fi
