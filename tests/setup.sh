#!/usr/bin/env bash
# Installs everything the tests need into .venv (and .tools/ for non-Python tools), then nothing
# else: `bash tests/setup.sh && .venv/bin/pytest` is the README's test command.
# Idempotent: a second run only checks what is there.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -U pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

# --- Azurite (issue 5): the Azure Storage emulator the log-follower tests run against. ---
# A local npm install under .tools/ (gitignored); never global, never sudo. Skipped when present.
AZURITE_BIN=.tools/azurite/node_modules/.bin/azurite-blob
if [ ! -x "$AZURITE_BIN" ]; then
    command -v npm >/dev/null || { echo "tests/setup.sh: npm is needed to install Azurite" >&2; exit 1; }
    mkdir -p .tools/azurite
    npm install --prefix .tools/azurite --no-audit --no-fund --loglevel=error azurite@3
fi
