"""F1: the keys and a glossary of the words distributed training uses."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown

HELP = """\
# dtrain-tui help
{why}
## Keys on this screen
{keys}

## Glossary
- **Node**: one VM of the cluster (`instance_count` nodes).
- **Rank**: the number of one training process, 0 … WORLD_SIZE−1. Rank 0 logs and saves.
- **Local rank**: a process's number within its node; it picks the GPU (`cuda:LOCAL_RANK`).
- **Node rank**: the node's number, 0 … nodes−1 (`NODE_RANK`).
- **World size**: all training processes: nodes × processes per node (`WORLD_SIZE`).
- **Per-process launch**: Azure ML starts one process per GPU and sets RANK/LOCAL_RANK.
- **Per-node launch**: Azure ML starts one process per node (a launcher), which starts the
  workers and sets their ranks.
- **MASTER_ADDR / MASTER_PORT**: where rank 0 listens; every rank connects there first.
- **InfiniBand**: the fast network between nodes of ND-series VMs (200–400 Gb/s per GPU);
  NCCL needs SR-IOV to use it on Azure.
- **NCCL**: NVIDIA's library for all-reduce and the other collectives between GPUs.
- **gloo**: PyTorch's collectives library for the CPU; a rehearsal on a machine without GPUs
  uses it in place of NCCL.
- **Rehearsal**: the job run on this machine with the same plan (simulated nodes on 127.0.0.1,
  the framework's real launchers), to find mistakes before a cluster is paid for.
- **Straggler**: a rank that still runs but 20 %+ slower than the median; every step waits
  for it.
- **Hang**: ranks stopped inside a collective (all-reduce, barrier), each waiting for the
  others; nothing fails until a timeout, often 10–30 minutes later.
{glossary}
## The rank strip (job screen)
One cell per rank, coloured by whether its log still grows:

- **■ green** (running): its log grew lately.
- **■ yellow** (quiet): its log is empty or grows slower than usual, or it has no pace of its
  own yet; a rank that prints little is quiet, never a suspect.
- **▲ red** (suspect): it kept a pace and stopped while others go on: a straggler or a hang
  suspect. Every rank red at once: a possible collective hang.
- **▼ yellow**: a straggler by speed (steps/s 20 %+ under the median).
- **·** no log yet; **■ grey** ended.

Arrow keys pick a rank, Enter opens its log.

Press `escape` to close.
"""


_SKIP = {"tab", "shift+tab", "ctrl+c", "ctrl+q", "f1", "question_mark"}
"""Keys every screen has (moving focus, copy, quit, this help): listed once, after the rest."""
_NEVER_SENT = "super+"
"""macOS's Command key: a terminal keeps it for itself (Cmd+C copies in the terminal), so an app
in one never sees super+c or super+backspace; a row for them would promise a key that does
nothing."""


def keys_of(screen: Screen) -> list[tuple[str, str]]:
    """Every key `screen` answers now — shown in the footer or not — with what it does."""
    out: dict[str, str] = {}
    for key, active in screen.active_bindings.items():
        binding = active.binding
        if key in _SKIP or key.startswith(_NEVER_SENT) or binding.system or not active.enabled:
            continue
        # The footer's word, or the longer one its tooltip gives where the footer is short of room.
        action = binding.action.split("(")[0].replace("_", " ")
        does = binding.tooltip or binding.description or action
        out.setdefault(screen.app.get_key_display(binding), does)
    out |= {
        "tab / shift+tab": "move between fields",
        "ctrl+p": "every command, by name (the palette)",
        "ctrl+q": "quit",
        "F1 / ?": "this help",
    }
    return list(out.items())


def help_text(keys: list[tuple[str, str]], why: str | None = None) -> str:
    table = "| key | does |\n|---|---|\n" + "\n".join(
        f"| `{key.replace('|', '/')}` | {does} |" for key, does in keys
    )
    from tui.frameworks import registry

    glossary = "".join(
        f"- **{g.term}**: {g.text}\n" for f in registry.frameworks() for g in f.glossary
    )
    why_part = f"\n## Why this step\n{why}\n" if why else ""
    return HELP.format(keys=table, glossary=glossary, why=why_part)


class HelpScreen(ModalScreen[None]):
    """The keys of the screen it was opened from, and the glossary."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%; border: thick $primary; background: $surface;
    }
    """
    BINDINGS: ClassVar = [Binding("escape,f1,q,question_mark", "dismiss", "Close")]

    def __init__(self, keys: list[tuple[str, str]], why: str | None = None) -> None:
        super().__init__()
        self.keys = keys
        """What the F1 was pressed on answers: (key as the footer shows it, what it does)."""
        self.why = why
        """The step's Why panel text (a narrow terminal hides the panel itself)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(help_text(self.keys, self.why))
