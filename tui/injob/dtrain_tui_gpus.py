"""dtrain-tui's GPU sampler: one per node, in local rank 0, started by dtrain-tui's `sitecustomize`.

Every `DTRAIN_GPU_SAMPLE` seconds (0: off) a daemon thread reads each GPU's utilisation and
memory, through NVML where `pynvml` imports and starts, else `nvidia-smi --query-gpu`, and
writes one marked line to the rank's stderr, its own log, which the app already follows:

    dtrain-tui gpus: node=0 t=1700000000 0:97,31500/81920 1:3,1200/81920

(`index:utilisation %,memory used/total MiB`; `-` where the GPU does not say). Where there is
neither NVML nor `nvidia-smi`, or the first reading fails, it stops without a word.
`tui.logs.gpus` reads the lines back; the job screen's log view and progress parser leave them
out. One process per node samples: it holds a name (an abstract Unix socket, named from the node
and the working folder, which is the node's own) for its life, so a script that starts Python
processes of its own gets no second sampler; nothing is added to any process's environment and
nothing is left on disk.
Standard library only; nothing here raises into the rank, and the thread never holds the
process's exit.
"""

from __future__ import annotations

import atexit as _atexit
import os
import sys
import threading as _threading
import time as _time

MARK = "dtrain-tui gpus:"
"""The start of a sample line (`tui.logs.gpus` reads it)."""
QUERY = (
    "--query-gpu=index,utilization.gpu,memory.used,memory.total",
    "--format=csv,noheader,nounits",
)
LOCAL_RANK_VARS = ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID")
"""Where launchers put a process's rank on its node; none set: one process on the node."""

Row = tuple[str, str, str, str]
"""One GPU: index, utilisation %, memory used and total (MiB), each `-` where unknown."""


def seconds(environ=os.environ) -> float:
    """The sampling interval `DTRAIN_GPU_SAMPLE` asks for; 0 when unset, off or not a number."""
    try:
        value = float(environ.get("DTRAIN_GPU_SAMPLE", ""))
    except ValueError:
        return 0.0
    return value if value > 0 else 0.0


def node_leader(environ=os.environ) -> bool:
    """Whether this process is local rank 0 (the node's one sampler)."""
    return next((environ[v] for v in LOCAL_RANK_VARS if environ.get(v)), "0").strip() == "0"


def node_name(environ=os.environ) -> str:
    """The node a line is about, as its launcher numbers it (`NODE_RANK`, a per-node launcher's
    `GROUP_RANK`), else the host name (an MPI job's nodes are hosts of their own)."""
    import socket

    return environ.get("NODE_RANK") or environ.get("GROUP_RANK") or socket.gethostname()


_HELD: list = []
"""The socket that holds this node's name, kept open: the name lasts as long as the process."""


def _claim(node: str) -> bool:
    """Whether this process is the one that samples `node`: it binds an abstract Unix socket
    named from the node and the working folder (Linux; the kernel frees the name when the
    process ends, however it ends). False where another process holds it; True where there are
    no abstract names (one sampler per process there)."""
    import hashlib
    import socket

    if not sys.platform.startswith("linux"):
        return True
    key = hashlib.sha1(f"{node}\0{os.getcwd()}".encode()).hexdigest()[:16]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(f"\0dtrain-tui-gpus-{key}")
    except OSError:
        sock.close()
        return False
    _HELD.append(sock)
    return True


def _value(text: str) -> str:
    text = text.strip()
    return text if text.replace(".", "", 1).isdigit() else "-"  # [N/A], [Not Supported]


def parse_csv(text: str) -> list[Row]:
    """`nvidia-smi --query-gpu=… --format=csv,noheader,nounits` output as rows."""
    rows = []
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) == 4 and fields[0].strip().isdigit():
            rows.append((fields[0].strip(), *(_value(f) for f in fields[1:])))
    return rows


def smi_reader():
    """A function reading every GPU through `nvidia-smi`, or None where there is none."""
    import shutil
    import subprocess

    tool = shutil.which("nvidia-smi")
    if tool is None:
        return None

    def read() -> list[Row]:
        done = subprocess.run(
            [tool, *QUERY], capture_output=True, text=True, timeout=20, check=True
        )
        return parse_csv(done.stdout)

    return read


def nvml_reader():
    """A function reading every GPU through NVML, or None where `pynvml` cannot start."""
    try:
        import pynvml

        pynvml.nvmlInit()
    except Exception:  # not installed, or no driver: nvidia-smi is asked instead
        return None
    mib = 1 << 20

    def read() -> list[Row]:
        rows = []
        for index in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
            util = pynvml.nvmlDeviceGetUtilizationRates(handle).gpu
            memory = pynvml.nvmlDeviceGetMemoryInfo(handle)
            rows.append((str(index), str(util), str(memory.used // mib), str(memory.total // mib)))
        return rows

    return read


def line(node: str, t: float, rows: list[Row]) -> str:
    """One sample as its marked line (no newline)."""
    gpus = " ".join(f"{i}:{util},{used}/{total}" for i, util, used, total in rows)
    return f"{MARK} node={node} t={int(t)} {gpus}"


_STOP = _threading.Event()
"""Set at the interpreter's exit: the sampler ends and is joined before finalisation."""


def sample(every: float, node: str, read=None, write=None, sleep=None, clock=None) -> None:
    """Write a sample line every `every` seconds until the main thread ends; return at once
    where no GPU can be read. `read`, `write`, `sleep` and `clock` are for tests. It imports
    nothing itself: a thread that imports while a short rank's interpreter shuts down can crash
    it (`arm` chooses the reader in the main thread)."""
    sleep, clock = sleep or _STOP.wait, clock or _time.time
    try:
        read = read or nvml_reader() or smi_reader()
        while read is not None and _threading.main_thread().is_alive() and not _STOP.is_set():
            rows = read()
            if not rows:
                return
            text = line(node, clock(), rows) + "\n"
            if write is not None:
                write(text)
            else:
                sys.stderr.flush()
                os.write(2, text.encode())
            sleep(every)
    except Exception:  # a sampler must never disturb the rank: it stops
        return


def arm(environ=os.environ) -> bool:
    """Start the sampler as `environ` says (the caller has left launchers and helper children
    out); True when started. Never raises."""
    every = seconds(environ)
    if not every or not node_leader(environ):
        return False
    try:
        node = node_name(environ)
        if not _claim(node):
            return False  # another process of this node samples it
        read = nvml_reader() or smi_reader()  # here, not in the thread (see `sample`)
        if read is None:
            return False  # no GPU to read: no thread at all
        thread = _threading.Thread(
            target=sample, args=(every, node, read), name="dtrain-tui gpus", daemon=True
        )
        thread.start()
        _atexit.register(_stop, thread)
    except Exception:
        return False
    return True


def _stop(thread: _threading.Thread) -> None:
    _STOP.set()
    thread.join(timeout=5.0)
