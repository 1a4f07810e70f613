"""The plan's argv through the script's parser (read by `script_args`), the way the library
would take it: what it rejects (one line each: an option it does not have, a value of the
wrong type or not among the choices, a flag given a value, a required argument missing), and
which value each argument is given, for `script_flow` to follow."""

from __future__ import annotations

from collections.abc import Sequence

from tui.scripts.args import Arg, Outcome, Parser


def simulate(parser: Parser, argv: Sequence[str]) -> Outcome:
    """What `parser` does with `argv`: rejections (one line each) and the given values."""
    out = Outcome()
    if parser.file_arg and len(argv) == 1 and argv[0].endswith((".json", ".yaml", ".yml")):
        return out  # what the file holds is not known here
    positionals = [a for a in parser.args if not a.names]
    position = 0
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token == "--":
            break
        if token.startswith("-") and len(token) > 1 and not _number(token):
            name, eq, value = token.partition("=") if token.startswith("--") else (token, "", "")
            arg = _match(parser, name)
            if arg is None:
                if not (parser.open or name.startswith(parser.prefixes or ("\0",))):
                    out.rejected.append(f"{name}: {_no_such(parser)}")
                if not eq and i < len(argv) and not _option(argv[i]):
                    i += 1  # its value goes with it
                continue
            if arg.takes == "rest":
                out.given[arg.dest] = [value] * bool(eq) + list(argv[i:])
                break
            if arg.takes == "none":
                out.given[arg.dest] = arg.flag_value
                if eq:
                    out.rejected.append(f"{name} takes no value (got {value!r})")
                continue
            values: list[str] = [value] if eq else []
            while not eq and i < len(argv) and not _option(argv[i]):
                values.append(argv[i])
                i += 1
                if arg.takes != "many":
                    break
            if not values and arg.takes == "one":
                out.rejected.append(f"{name} expects a value" + _abbreviation(arg, name))
                continue
            if not values:
                out.given[arg.dest] = True
                continue
            for v in values:
                problem = _bad_value(arg, name, v)
                if problem:
                    out.rejected.append(problem)
            out.given[arg.dest] = values if arg.takes == "many" else values[0]
        elif parser.overrides and "=" in token:
            continue  # a hydra override: key=value
        elif position < len(positionals) and positionals[position].takes == "rest":
            out.given[positionals[position].dest] = [token, *argv[i:]]
            break
        elif position < len(positionals):
            arg = positionals[position]
            out.given[arg.dest] = token
            position += 1
            problem = _bad_value(arg, arg.dest, token)
            if problem:
                out.rejected.append(problem)
        elif parser.style == "fire":
            free = next((a for a in parser.args if a.dest not in out.given), None)
            if free is not None:
                out.given[free.dest] = token
            elif not parser.open:
                out.rejected.append(f"{token}: {_no_such(parser)}")
        elif not parser.open:
            out.rejected.append(f"{token}: an argument nothing takes")
    missing = [a for a in parser.args if a.required and a.dest not in out.given]
    if missing:
        names = ", ".join((a.names[0] if a.names else a.dest) for a in missing)
        out.rejected.append(f"the arguments {names} are required and the command lacks them")
    return out


def _match(parser: Parser, name: str) -> Arg | None:
    def same(option: str) -> bool:
        if parser.dashes:
            return option.replace("-", "_") == name.replace("-", "_")
        return option == name

    for arg in parser.args:
        if any(same(o) for o in arg.names):
            return arg
    if parser.abbrev and name.startswith("--"):
        hits = [a for a in parser.args if any(o.startswith(name) for o in a.names)]
        if len(hits) == 1:
            return hits[0]
    return None


ABBREVIATION = "an abbreviation of"


def _abbreviation(arg: Arg, name: str) -> str:
    """Why an option the parser does not have took a value: it starts only `arg`'s name."""
    if any(o.replace("-", "_") == name.replace("-", "_") for o in arg.names):
        return ""
    full = next((o for o in arg.names if o.startswith(name)), arg.names[0])
    return f" (the parser reads it as {ABBREVIATION} {full}, the one option it starts)"


def _no_such(parser: Parser) -> str:
    return {
        "argparse": "unrecognized arguments (argparse exits with code 2)",
        "click": "No such option (click exits with code 2)",
        "fire": "Could not consume arg (fire exits with code 2)",
        "hydra": "hydra takes key=value overrides, not options (it exits with code 2)",
        "absl": "Unknown command line flag (absl stops the program)",
    }.get(parser.style, f"not an option {parser.style} accepts")


def _bad_value(arg: Arg, name: str, value: str) -> str | None:
    if arg.kind == "int":
        try:
            int(value)
        except ValueError:
            return f"{name} expects a whole number, got {value!r}"
    if arg.kind == "float":
        try:
            float(value)
        except ValueError:
            return f"{name} expects a number, got {value!r}"
    if arg.choices is not None and value not in {str(c) for c in arg.choices}:
        return f"{name} {value!r} is not one of {', '.join(map(str, arg.choices))}"
    return None


def _number(token: str) -> bool:
    try:
        float(token)
        return True
    except ValueError:
        return False


def _option(token: str) -> bool:
    return token.startswith("-") and len(token) > 1 and not _number(token)
