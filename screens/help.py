"""F1: the keys and a glossary of the words distributed training uses."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# dtrain-tui help

## Keys
| key | does |
|---|---|
| `ctrl+n` | Next step (Submit on Review) |
| `escape` | Back (every answer is kept) |
| `tab` / `shift+tab` | move between fields |
| `ctrl+p` | command palette: presets, export, jump to a step, theme |
| `F1` | this help |
| Review: `p` `x` `y` `t` | save preset, export, copy the tab, plan for Azure / this machine |
| `ctrl+q` | quit |

## Glossary
- **Node**: one VM of the cluster (`instance_count` nodes).
- **Rank**: the number of one training process, 0 … WORLD_SIZE−1. Rank 0 logs and saves.
- **Local rank**: a process's number within its node; it picks the GPU (`cuda:LOCAL_RANK`).
- **Node rank**: the node's number, 0 … nodes−1 (`NODE_RANK`).
- **World size**: all training processes: nodes × processes per node (`WORLD_SIZE`).
- **Per-process launch**: Azure ML starts one process per GPU and sets RANK/LOCAL_RANK.
- **Per-node launch**: Azure ML starts one process per node (torchrun, accelerate), which
  starts the workers and sets their ranks.
- **MASTER_ADDR / MASTER_PORT**: where rank 0 listens; every rank connects there first.
- **InfiniBand**: the fast network between nodes of ND-series VMs (200–400 Gb/s per GPU);
  NCCL needs SR-IOV to use it on Azure.
- **NCCL**: NVIDIA's library for all-reduce and the other collectives between GPUs.
- **TF_CONFIG**: the JSON Azure ML writes for TensorFlow: the cluster and this task's role.
- **MPI / mpirun**: how Horovod (and DeepSpeed over MPI) start ranks; Open MPI sets
  `OMPI_COMM_WORLD_RANK` and friends.

Press `escape` to close.
"""


class HelpScreen(ModalScreen[None]):
    """Keys and glossary."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 90%; border: thick $primary; background: $surface;
    }
    """
    BINDINGS: ClassVar = [Binding("escape,f1,q", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)
