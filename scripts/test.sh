#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing first). Needs PostgreSQL on 127.0.0.1:5432 (started if down).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# Layer boundaries (docs/architecture.md), lint and format: a breach fails the run before any test.
npm run --silent check:boundaries
npm run --silent lint
npm run --silent format:check
exec npx vitest run "$@"
