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
