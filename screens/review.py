"""Step 5: exactly what will run — commands, env per rank, the framework's own config (a JSON
variable per task, a config file), topology, YAML, Python."""

from __future__ import annotations

import json
from typing import ClassVar

from rich.console import Group
from rich.syntax import Syntax
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static, TabbedContent, TabPane

from screens.base import WizardStep
from tui.core.prices import plan_price, refresh, refresh_due
from tui.frameworks import registry
from tui.frameworks.base import Framework
from tui.planning.export import to_yaml
from tui.planning.plan import LaunchPlan, Origin
from tui.planning.sdk import to_python
from widgets.env_table import EnvTable, origin_colors
from widgets.key_footer import KeyFooter
from widgets.topology import Topology
from widgets.why import code_style, explained

# tab id -> (title, the step its Edit button opens, caption)
TABS = {
    "tab-command": ("Command", 3, "What each node runs, and why."),
    "tab-env": ("Env per rank", 3, "Every rank's variables; the colour says who sets each."),
    "tab-json": ("{var}", 2, "The {var} Azure ML writes on each node."),
    "tab-config": ("{tab}", 3, "The {file} the command reads, in your numbers."),
    "tab-topology": ("Topology", 2, "Nodes, their GPUs and ranks; node 0 is the master."),
    "tab-yaml": ("Job YAML", 3, "`az ml job create --file job.yml` submits exactly this."),
    "tab-sdk": ("Python SDK", 3, "azure-ai-ml code that builds the same job."),
}
STEP_TITLES = ("Framework", "Launch", "Resources", "Code & env")
NARROW_BELOW = 96
"""The width under which the review's footer is made to fit (the app's `-wide` breakpoint)."""
_TAB = Binding.Group("Tab", compact=True)


def _framework_words(framework: Framework) -> dict[str, str]:
    """The names the framework's own tabs take: its JSON variable, its config file. A framework
    without one keeps another's name on the hidden tab."""
    makers = [f for f in registry.frameworks() if f.config_title]
    shows = [f for f in registry.frameworks() if f.shown_json_var]
    config = framework if framework.config_title else makers[0]
    shown = framework if framework.shown_json_var else shows[0]
    return {
        "var": shown.shown_json_var or "",
        "tab": config.config_tab,
        "file": config.config_name,
    }


def _syntax(text: str, lexer: str, dark: bool = True) -> Syntax:
    theme = "ansi_dark" if dark else "ansi_light"
    return Syntax(text, lexer, theme=theme, background_color="default", word_wrap=True)


class ReviewStep(WizardStep):
    """Every section of the plan in tabs; Edit jumps back to the step that owns it."""

    STEP = 4
    NEXT_LABEL = "Submit"
    SCROLL_FORM = False
    BINDINGS: ClassVar = [
        *WizardStep.BINDINGS,
        Binding("p", "save_preset", "Preset", tooltip="Save preset: these answers, by a name"),
        Binding("x", "export", "Export"),
        Binding("y", "copy", "Copy"),
        Binding("t", "toggle_target", "Target", tooltip="Target: the plan for Azure ML or here"),
        Binding("left_square_bracket", "step_tab(-1)", "Previous tab", group=_TAB),
        Binding("right_square_bracket", "step_tab(1)", "Next tab", group=_TAB),
    ]

    def form(self) -> ComposeResult:
        yield Static("", id="summary")
        with TabbedContent(id="tabs"):
            words = _framework_words(registry.get(self.app.spec.framework))
            for tab_id, (title, step, caption) in TABS.items():
                with TabPane(title.format(**words), id=tab_id):
                    with Horizontal(classes="edit-bar"):
                        yield Static(
                            explained(caption.format(**words)),
                            id=f"{tab_id}-caption",
                            classes="tab-caption",
                        )
                        yield Button(
                            f"Edit {STEP_TITLES[step]}",
                            id=f"edit-{tab_id}",
                            classes="edit",
                            compact=True,
                        )
                    if tab_id == "tab-env":
                        yield Static("", id="legend")
                        yield EnvTable(id="env-table")
                        yield Static("", id="rank-detail")
                    elif tab_id == "tab-topology":
                        yield VerticalScroll(Topology(id="topology"))
                    else:
                        yield VerticalScroll(Static("", id=f"{tab_id}-body"))

    def sync(self) -> None:
        super().sync()
        self.render_plan(self.app.current_plan())
        if not self.__dict__.get("_asked_prices") and refresh_due():
            self._asked_prices = True  # once a review: a day-old cache, or none, asks the API
            self._refresh_prices()

    def render_plan(self, p: LaunchPlan) -> None:
        """Fill the summary, the tabs' words and the tab on display from `p`; each other tab
        when it is opened (at 1,024 ranks the hidden ones took half of a re-render; timed by
        the review benchmark)."""
        self._plan = p
        self.query_one("#summary", Static).update(self._summary(p))
        tabs = self.query_one(TabbedContent)
        framework = registry.get(p.spec.framework)
        words = _framework_words(framework)
        worded: dict[str, dict] = self.__dict__.setdefault("_worded", {})  # shown per tab
        for tab_id, (title, _, caption) in TABS.items():
            # Only when the framework changed them: a new label or caption costs a layout.
            if "{" in title and worded.get(tab_id) != words:
                worded[tab_id] = words
                tabs.get_tab(tab_id).label = title.format(**words)
                self.query_one(f"#{tab_id}-caption", Static).update(
                    explained(caption.format(**words))
                )
        tabs.get_tab("tab-json").display = bool(framework.shown_json_var)
        tabs.get_tab("tab-config").display = bool(framework.config_title)
        self._stale = set(TABS)
        self._fill(tabs.active or "tab-command")

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._fill(event.pane.id or "")

    def _fill(self, tab_id: str) -> None:
        """Tab `tab_id`'s body from the plan shown, unless it already holds it."""
        stale: set[str] = self.__dict__.get("_stale", set())
        if tab_id not in stale:
            return
        stale.discard(tab_id)
        p, dark = self._plan, self.app.current_theme.dark
        framework = registry.get(p.spec.framework)
        if tab_id == "tab-command":
            self.query_one("#tab-command-body", Static).update(self._command(p))
        elif tab_id == "tab-env":
            colors = origin_colors(self.app.current_theme)
            legend = Text("who sets it: ")
            present = {v.origin for r in (p.ranks[0], p.ranks[-1]) for v in r.env}
            for origin in Origin.known():
                if origin in present:
                    legend.append(f"■ {origin.value}  ", style=colors[origin])
            self.query_one("#legend", Static).update(legend)
            self.query_one(EnvTable).set_plan(p)
        elif tab_id == "tab-json" and framework.shown_json_var:
            var = framework.shown_json_var
            configs = "\n".join(
                f"# {r.role} {r.task_index} (node {r.node})\n"
                + json.dumps(json.loads(r.env_dict()[var]), indent=2)
                for r in p.ranks
            )
            self.query_one("#tab-json-body", Static).update(_syntax(configs, "json"))
        elif tab_id == "tab-config" and framework.config_title:
            self.query_one("#tab-config-body", Static).update(self._config(p, framework, dark))
        elif tab_id == "tab-topology":
            self.query_one(Topology).show(p, framework.topology_caption(p))
        elif tab_id in ("tab-yaml", "tab-sdk"):
            kind = tab_id.removeprefix("tab-")
            lexer = "yaml" if kind == "yaml" else "python"
            self.query_one(f"#{tab_id}-body", Static).update(_syntax(self.shown[kind], lexer, dark))

    @property
    def shown(self) -> dict[str, str]:
        """The YAML and Python text of the plan shown (what copy and the tests read)."""
        p = self._plan
        if self.__dict__.get("_shown_for") is not p:
            self._shown_for, self._shown = p, {"yaml": to_yaml(p), "sdk": to_python(p)}
        return self._shown

    def _summary(self, p: LaunchPlan) -> Text:
        """The plan in one line, and on Azure ML its price per hour with the price's date."""
        from tui.planning.plan import describe

        text = Text(describe(p), style="bold")
        priced = plan_price(p)
        if priced is not None:
            text.append("\nPrice: ", style="bold")
            text.append(priced.line())
        return text

    @work(thread=True, exclusive=True, exit_on_error=False, group="prices")
    def _refresh_prices(self) -> None:
        """Ask Azure's retail prices API (3 s at most); redraw the price, or say why not."""
        done = refresh()
        self.app.call_from_thread(self._prices_refreshed, done.ok, done.message)

    def _prices_refreshed(self, ok: bool, message: str) -> None:
        if ok and self.is_mounted:
            self.query_one("#summary", Static).update(self._summary(self.app.current_plan()))
        self.notify(message, severity="information" if ok else "warning", timeout=8)

    def _config(self, p: LaunchPlan, framework: Framework, dark: bool) -> Group:
        """The generated config with its arithmetic, or the user's file with what is wrong."""
        config = p.config_file
        if config is not None:
            return Group(
                *(self._said("• ", line) for line in config.explanations),
                Text(
                    f"\n{config.name} (written into {p.spec.code or '.'} on export and local runs)",
                    style="bold underline",
                ),
                _syntax(config.render(), "json", dark),
            )
        path = framework.user_config(p.spec)
        if path is None:
            return Group(Text("The job's own command is used as given; it names its config."))
        parts: list = [Text(f"Your config: {path} (read, never rewritten)", style="bold")]
        problems = framework.user_config_problems(p.spec, p.world_size)
        parts += [self._said("⚠ ", problem, "yellow") for problem in problems]
        if not problems:
            parts.append(Text("✓ its batch sizes agree with WORLD_SIZE " + str(p.world_size)))
            parts.append(_syntax(framework.user_config_text(p.spec) or "", "json", dark))
        return Group(*parts)

    def _command(self, p: LaunchPlan) -> Group:
        parts = [Text("The job command", style="bold underline"), _syntax(p.command, "bash")]
        if {n.command for n in p.nodes} != {p.command}:
            parts.append(Text("\nOn each node", style="bold underline"))
            for n in p.nodes[:16]:
                parts.append(Text(f"node {n.node}: {n.command}"))
            if len(p.nodes) > 16:
                parts.append(Text(f"… and {len(p.nodes) - 16} more nodes", style="dim"))
        parts.append(Text("\nWhy", style="bold underline"))
        parts += [self._said("• ", line) for line in p.explanations]
        parts += self._before_it_runs(p)
        if p.warnings:
            parts.append(Text("\nWarnings", style="bold underline"))
            parts += [self._said("⚠ ", w, "yellow") for w in p.warnings]
        return Group(*parts)

    def _said(self, lead: str, line: str, style: str = "") -> Text:
        """One explanation, warning or finding, rendered as the Why panel renders its text."""
        text = Text(lead, style=style)
        text.append_text(explained(line, code_style(self.app.current_theme)))
        return text

    def _before_it_runs(self, p: LaunchPlan) -> list[Text]:
        """Pre-flight for this machine (when the review shows it) and the script check."""
        from screens.code import script_check_text

        parts: list[Text] = []
        local = self.app.review_target == "local"
        if local:
            from tui.planning.preflight import check_local

            findings = check_local(p)
            parts.append(Text("\nBefore it runs here", style="bold underline"))
            for f in findings:
                mark, style = ("✗", "bold red") if f.blocking else ("⚠", "yellow")
                parts.append(self._said(f"{mark} ", f.problem, style))
                parts.append(self._said("   fix: " if f.blocking else "   advice: ", f.fix))
            if not any(f.blocking for f in findings):
                parts.append(Text("✓ nothing stops it from starting on this machine"))
        checked = script_check_text(p.spec, gpus=not local)
        if checked.plain:
            parts += [Text(f"\nYour script ({p.spec.script})", style="bold underline"), checked]
        return parts

    def why(self, spec) -> str:
        target = "this machine" if self.app.review_target == "local" else "an Azure ML cluster"
        return (
            f"This is the plan for **{target}** (`t` switches). Every value here is what the "
            "processes will really get: the exports and the backends use this same plan.\n\n"
            "**Edit** on a tab goes back to the step that owns it; your other answers stay.\n\n"
            "`p` saves a preset, `x` exports the YAML or Python, `y` copies the current tab, "
            "and **Submit** runs it here or on Azure ML."
        )

    # ---- actions -----------------------------------------------------------------------

    def on_env_table_highlighted(self, event: EnvTable.Highlighted) -> None:
        r = event.rank
        who = (
            f"{r.role} {r.task_index} · node {r.node}: "  # tasks: the framework's words, no rank
            if self.app.current_plan().tasks
            else f"rank {r.rank} · node {r.node} · local rank {r.local_rank}: "
        )
        detail = Text(who, style="bold")
        colors = origin_colors(self.app.current_theme)
        for v in r.env:
            detail.append(f"{v.name}", style=colors[v.origin])
            detail.append(f" by {v.origin.value}" + (f" ({v.note})" if v.note else "") + "; ")
        self.query_one("#rank-detail", Static).update(detail)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid.startswith("edit-"):
            event.stop()
            self.app.goto_step(TABS[bid.removeprefix("edit-")][1])
            return
        super().on_button_pressed(event)

    def on_resize(self, event: events.Resize) -> None:
        """Below 96 columns the footer goes compact and leaves out the palette's key (ctrl+p
        still opens it; F1 lists it), so every key of the review shows at 80 columns."""
        footer = self.query_one(KeyFooter)
        narrow = event.size.width < NARROW_BELOW
        footer.compact = narrow
        footer.show_command_palette = not narrow

    def action_step_tab(self, step: int) -> None:
        """`[` / `]`: the previous or next tab (the hidden ones, which this framework lacks,
        skipped)."""
        tabs = self.query_one(TabbedContent)
        shown = [t for t in TABS if tabs.get_tab(t).display]
        at = shown.index(tabs.active) if tabs.active in shown else 0
        tabs.active = shown[(at + step) % len(shown)]

    def action_toggle_target(self) -> None:
        self.app.review_target = "local" if self.app.review_target == "azureml" else "azureml"
        self.sync()

    def action_save_preset(self) -> None:
        self.app.action_save_preset()

    def action_export(self) -> None:
        self.app.action_export()

    def action_copy(self) -> None:
        p = self.app.current_plan()
        active = self.query_one(TabbedContent).active
        text = {
            "tab-yaml": lambda: self.shown["yaml"],
            "tab-sdk": lambda: self.shown["sdk"],
            "tab-json": lambda: "\n".join(
                r.env_dict().get(registry.get(p.spec.framework).shown_json_var or "", "")
                for r in p.ranks
            ),
            "tab-config": lambda: p.config_file.render() if p.config_file else "",
        }.get(active, lambda: p.command)()
        self.app.copy_to_clipboard(text)
        title = TABS.get(active, ("command",))[0]
        words = _framework_words(registry.get(p.spec.framework))
        # Textual writes OSC 52, which the terminal may ignore; nothing says whether it did.
        self.notify(
            f"{title.format(**words)} sent to the terminal's clipboard (OSC 52); "
            "if paste brings nothing, this terminal ignores it: select and copy instead"
        )

    def action_next(self) -> None:
        self.app.action_submit()
