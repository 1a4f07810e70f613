"""Command palette entries: presets, export, save, jump to a step (theme is built in)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from functools import partial

from textual.command import DiscoveryHit, Hit, Provider

from widgets.step_header import STEP_NAMES


class WizardCommands(Provider):
    """Everything the wizard can do from anywhere."""

    def _commands(self) -> list[tuple[str, Callable[[], None], str]]:
        from tui.planning.presets import load_presets

        app = self.app
        out: list[tuple[str, Callable[[], None], str]] = [
            (f"Go to step {i + 1}: {name}", partial(app.goto_step, i), "jump, keeping answers")
            for i, name in enumerate(STEP_NAMES)
        ]
        out += [
            ("Export job (YAML / Python / JSON)", app.action_export, "write the job to a file"),
            ("Save as preset", app.action_save_preset, "keep these answers for next time"),
            ("Jobs", app.action_jobs, "every job here and on Azure ML: open, doctor, cancel"),
            ("Help", app.action_help, "keys and glossary"),
        ]
        presets, _ = load_presets()
        out += [(f"Preset: {p.name}", partial(app.use_spec, p.spec), p.title) for p in presets]
        return out

    async def discover(self) -> AsyncIterator[DiscoveryHit]:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> AsyncIterator[Hit]:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
