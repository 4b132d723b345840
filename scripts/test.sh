#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing first). Needs PostgreSQL on 127.0.0.1:5432 (started if down).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec npx vitest run "$@"
