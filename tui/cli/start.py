"""How every `dtrain-tui` command runs (`guarded_run`): stdout and stderr made safe, and a
problem said in one line with its exit code, never a traceback. And the wizard's start, which
`dtrain-tui` with no arguments reaches without the parser or any command's module (argparse
and the commands' imports were 30-40 ms of the 0.3 s before its first frame)."""

from __future__ import annotations

import sys
from collections.abc import Callable

LOOP = "a symbolic link that leads back to itself (a loop); fix or remove the link"


class CliError(Exception):
    """A problem with what the user asked for: printed as one line, exit code 2."""


def guarded_run(command: Callable[[], int]) -> int:
    """Run one command (its exit code) inside `guarded()`, its problems said as one line."""
    from tui.cli.streams import OutputError, guarded, silence

    with guarded():  # ASCII where `×` cannot be said; stdout's failures caught; stderr escaped
        try:
            code = command()
            sys.stdout.flush()  # a full stdout fails here, not in Python's flush at exit
            return code
        except CliError as err:
            print(f"dtrain-tui: error: {err}", file=sys.stderr)
            return 2
        except OutputError as err:  # `> /dev/full`, `>&-`: said once, not a traceback
            silence()
            print(f"dtrain-tui: error: cannot write to standard output ({err})", file=sys.stderr)
            return 1
        except BrokenPipeError:  # `dtrain-tui preview --show env | head -1`: the reader is done
            # Python flushes stdout again at exit and would fail on the closed pipe (exit 120,
            # "Exception ignored"); point it at /dev/null so the exit is quiet, as Unix tools do.
            silence()
            return 0
        except KeyboardInterrupt:
            return 130
        except UnicodeEncodeError as err:
            problem = locale_problem(err)
            if problem is None:
                raise
            print(f"dtrain-tui: error: {problem}", file=sys.stderr)
            return 2
        except (OSError, RuntimeError) as err:
            from tui.core.files import symlink_loop

            loop = symlink_loop(err)  # a code folder, script or job-file `code:` that loops
            if loop is None:
                raise
            print(f"dtrain-tui: error: {loop}: {LOOP}", file=sys.stderr)
            return 2


def locale_problem(err: UnicodeEncodeError) -> str | None:
    """Why a name could not be handed to the system, when the cause is the locale: without
    UTF-8 (`LC_ALL=C`, no UTF-8 mode) Python names files and starts processes in ASCII, so a
    file name like `données/` cannot be used at all (None: another cause)."""
    encoding = sys.getfilesystemencoding()
    if encoding.lower().replace("-", "") == "utf8" or err.encoding != encoding:
        return None
    word = err.object[err.start : err.end] if isinstance(err.object, str) else "?"
    # ascii(): the terminal of such a locale shows no `é`, and a folded `e` would mislead
    return (
        f"{err.object!a}: this locale cannot name {word!a} ({encoding} names: "
        "LC_ALL=C without UTF-8 mode); run with PYTHONUTF8=1 or LC_ALL=C.UTF-8"
    )


def wizard(preset: str | None = None) -> int:
    """The wizard (at Review with `preset`'s job); without a terminal, one line and exit 2."""
    spec = None
    if preset:  # presets (and yaml) only when asked: the first frame does not need them
        from tui.planning.presets import PresetProblem, get_preset

        try:
            spec = get_preset(preset).spec
        except PresetProblem as err:
            raise CliError(str(err)) from None
    need_terminal()
    from tui.app import run

    return run(spec, review=spec is not None)


def need_terminal() -> None:
    """The wizard is a full-screen UI: without a terminal it could only hang or garble."""
    from tui.cli.streams import NO_TERMINAL, has_terminal

    if not has_terminal():
        raise CliError(NO_TERMINAL)
