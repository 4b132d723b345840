#!/usr/bin/env bash
# Quick start: installs what is missing, then runs the service on its embedded default (PGlite + local files).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec node bin/cutroom.js serve "$@"
