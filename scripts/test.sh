#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing first). Needs PostgreSQL on 127.0.0.1:5432 (started if down).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# Layer boundaries (docs/architecture.md): a breach fails the run before any test.
npm run --silent check:boundaries
exec npx vitest run "$@"
