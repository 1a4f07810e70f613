"""dtrain-tui's stack dumper, started in every rank by Python's own `sitecustomize` hook.

The plan puts this folder first on PYTHONPATH (see `tui.planning.stacks_env`), so each rank imports
it at start with no change to the training script. It then:

- registers SIGUSR1 with `faulthandler`: `kill -USR1 <pid>` (what the job screen's `S` sends)
  writes every thread's Python stack to the rank's stderr, its own log, even while the main
  thread sits in C code (a collective, a sleep) where no Python signal handler would run;
- starts one daemon thread that looks at where the main thread is every `DTRAIN_STACKS` / 10
  minutes (at most every 30 s) and, once it has not left the same place for `DTRAIN_STACKS`
  minutes, writes one marked line and every thread's stack, once per place. It never blocks
  the process's exit (a daemon thread, nothing joined);
- in local rank 0, where `DTRAIN_GPU_SAMPLE` asks, starts the node's GPU sampler
  (`dtrain_tui_gpus.py` beside this file);
- then runs the `sitecustomize` that was on the path behind it, if any, as Python would have.

Processes named in `DTRAIN_STACKS_SKIP` (a per-node launcher: it waits on its workers by
design) and multiprocessing's helper children are left alone. Standard library only, and
nothing here may raise into the rank: a failure to arm is ignored.
"""

from __future__ import annotations

import atexit as _atexit
import faulthandler as _faulthandler
import os
import sys
import threading as _threading
import time as _time

_STOP = _threading.Event()
"""Set at the interpreter's exit (before its finalisation): the watcher ends and is joined, so
no thread of ours is alive while a short rank's interpreter shuts down (one that was, in a
rank that ended at once, is the likely cause of a rank lost to SIGSEGV)."""
MARK = "dtrain-tui stacks:"
"""The start of the line written before a stall's dump (`tui.logs.stacks` reads it)."""


def _program() -> tuple[str, str]:
    """The program's file name and, for `python -m pkg.mod`, the module."""
    argv = getattr(sys, "orig_argv", None) or [sys.executable, *sys.argv]
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    module = ""
    if "-m" in argv[1:]:
        index = argv.index("-m", 1)
        module = argv[index + 1] if index + 1 < len(argv) else ""
    return name, module


def _helper_child() -> bool:
    """A process multiprocessing starts for itself (spawn, forkserver, resource tracker)."""
    argv = getattr(sys, "orig_argv", None) or sys.argv
    return any(a == "--multiprocessing-fork" or "from multiprocessing." in a for a in argv)


def _skipped(skip: str) -> bool:
    names = {n.strip() for n in skip.split(",") if n.strip()}
    program, module = _program()
    return program in names or module in names or _helper_child()


def _register_signal() -> None:
    import faulthandler
    import signal

    if sys.stderr is None or not hasattr(signal, "SIGUSR1"):
        return
    previous = signal.getsignal(signal.SIGUSR1)
    # Chaining to the default action would end the process (SIGUSR1's default is to terminate):
    # chain only to a handler someone installed.
    chain = previous not in (signal.SIG_DFL, signal.SIG_IGN)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True, chain=chain)


def watch(minutes: float, clock=None, sleep=None, write=None) -> None:
    """Dump every thread's stack once the main thread has stayed in one place for `minutes`.

    Runs until the main thread is gone. `clock`, `sleep` and `write` are for tests. It imports
    nothing itself: a thread that imports while a short rank's interpreter shuts down can crash
    it (SIGSEGV), so what it needs was imported when the module was.
    """
    faulthandler, threading, time = _faulthandler, _threading, _time
    clock = clock or time.monotonic
    sleep = sleep or _STOP.wait
    limit = minutes * 60.0
    every = min(30.0, max(limit / 10.0, 0.05))
    main = threading.main_thread().ident
    place = None
    since = clock()
    dumped = False
    while True:
        sleep(every)
        if _STOP.is_set():
            return
        frame = sys._current_frames().get(main)
        if frame is None or not threading.main_thread().is_alive():
            return
        here = (id(frame), id(frame.f_code), frame.f_lasti)
        del frame  # holding it would keep the rank's locals alive
        now = clock()
        if here != place:
            place, since, dumped = here, now, False
            continue
        if dumped or now - since < limit:
            continue
        dumped = True
        stalled = (now - since) / 60.0
        line = (
            f"{MARK} the main thread has not moved for {stalled:.1f} min "
            f"(pid {os.getpid()}); every thread's stack follows\n"
        )
        if write is not None:
            write(line)
            continue
        try:
            sys.stderr.flush()
            os.write(2, line.encode())
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        except (OSError, ValueError):
            return


def _start_watch(minutes: float) -> None:
    thread = _threading.Thread(target=watch, args=(minutes,), name="dtrain-tui stacks", daemon=True)
    thread.start()
    _atexit.register(stop, thread)


def stop(thread: _threading.Thread) -> None:
    """End a helper's thread and wait for it (at exit: it wakes from its wait at once)."""
    _STOP.set()
    thread.join(timeout=5.0)


def _arm_gpus(environ) -> None:
    """Start the node's GPU sampler (`dtrain_tui_gpus`, beside this file) where asked."""
    if environ.get("DTRAIN_GPU_SAMPLE", "0").strip() not in ("", "0"):
        try:
            import dtrain_tui_gpus
        except ImportError:  # the folder is not on the path (imported as tui.injob…)
            return
        dtrain_tui_gpus.arm(environ)


def arm(environ=os.environ) -> bool:
    """Arm the dumper (and the GPU sampler) as `environ` says; True when the dumper is armed.
    Never raises."""
    try:
        if _skipped(environ.get("DTRAIN_STACKS_SKIP", "")):
            return False
        _arm_gpus(environ)
        minutes = float(environ.get("DTRAIN_STACKS", ""))
        _register_signal()
        if minutes > 0:
            _start_watch(minutes)
    except Exception:  # a dumper must never stop the rank
        return False
    return True


def _chain() -> None:
    """Run the next `sitecustomize` on the path (the image's, the user's), as site would."""
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


if __name__ == "sitecustomize":
    arm()
    _chain()
