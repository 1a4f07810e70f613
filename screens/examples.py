"""Start from an example: the shipped presets, one line each on what they show.

Those whose script ships with dtrain-tui run on this machine as they are (2 simulated nodes × 2
processes); the others show an Azure ML job to adapt. Choosing one fills every answer and stays
on the first step, so the steps (each with its Why) still walk through what the example does.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.planning.presets import REHEARSAL, Preset, load_presets, runs_here, samples_dir
from widgets.key_footer import KeyFooter
from widgets.list_keys import KeyedOptionList

HERE = "{nodes} simulated nodes × {gpus_per_node} processes"
"""What an example runs as on this machine (`REHEARSAL`'s counts)."""


def _first_sentence(note: str) -> str:
    sentence = note.split(". ")[0].rstrip(".")
    return sentence + "."


class ExamplesScreen(ModalScreen[tuple[Preset, bool] | None]):
    """A list of examples; dismisses with (preset, runs here) or None."""

    DEFAULT_CSS = """
    ExamplesScreen { align: center middle; }
    ExamplesScreen > Vertical {
        width: 90%; max-width: 110; height: auto; max-height: 90%; padding: 1 2;
        border: thick $primary; background: $surface;
    }
    ExamplesScreen .question { text-style: bold; color: $primary; }
    ExamplesScreen .hint { color: $text-muted; margin-bottom: 1; }
    ExamplesScreen OptionList { height: auto; max-height: 24; }
    """
    BINDINGS: ClassVar = [Binding("escape", "dismiss_none", "Back")]
    AUTO_FOCUS = "#examples"

    def compose(self) -> ComposeResult:
        presets, _ = load_presets()
        # Those that run here first, the shipped samples first of all: a live log in seconds;
        # plain PyTorch before the other frameworks (it needs torch alone, the quick start's).
        samples = str(samples_dir())
        self.presets = sorted(
            presets,
            key=lambda p: (
                not runs_here(p.spec),
                p.spec.code != samples,
                p.spec.framework != "pytorch",
                p.source,
                p.name,
            ),
        )
        legend = (
            "Each title is the Azure ML job the example stands for. ▶ runs on this machine too, "
            "as its 'here:' line says, with its sample script (on the CPU if there is no GPU)."
        )
        if not all(runs_here(p.spec) for p in self.presets):
            legend += " Without ▶: an Azure ML job to adapt; it does not run here as it is."
        with Vertical():
            yield Label("Start from an example", classes="question")
            yield Static(legend + " Every step still shows its Why.", classes="hint")
            yield KeyedOptionList(*(self._option(p) for p in self.presets), id="examples")
        yield KeyFooter()

    @staticmethod
    def _option(preset: Preset) -> Option:
        here = runs_here(preset.spec)
        line = Text()
        line.append("▶ " if here else "  ", style="bold green")
        line.append(preset.title, style="bold")
        if preset.source == "user":
            line.append("  (yours)", style="dim")
        if here:
            line.append(f"\n    here: {HERE.format(**REHEARSAL)}", style="green")
        line.append("\n    " + _first_sentence(preset.note), style="dim")
        return Option(line, id=preset.name)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        preset = self.presets[event.option_index]
        self.dismiss((preset, runs_here(preset.spec)))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
