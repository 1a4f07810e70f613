"""`InstallOffer`: the Submit step's offer to install what the pre-flight found missing, into the
Python that runs the ranks. It shows the exact pip command, runs it only when asked (a thread
worker, pip's output read line by line), shows a progress bar through pip's stages and the line
pip is on, and says how it ended; the screen then checks again and goes on."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.markup import escape
from textual.message import Message
from textual.widgets import Button, ProgressBar, Static

# pip's stages, in the order it reaches them: the bar moves one step at each.
STAGES = ("Collecting", "Downloading", "Installing collected packages", "Successfully installed")


class InstallOffer(Vertical):
    """One button per run: "Install and run here"; `commands` are the argvs to run in turn."""

    DEFAULT_CSS = """
    InstallOffer { height: auto; margin-top: 1; }
    InstallOffer #install-command { color: $text-muted; height: auto; }
    InstallOffer ProgressBar, InstallOffer #install-line { display: none; }
    InstallOffer.-running ProgressBar, InstallOffer.-running #install-line { display: block; }
    InstallOffer #install-line { height: 1; color: $text-muted; }
    InstallOffer #install-error { color: $error; height: auto; }
    """

    class Finished(Message):
        """Every command ran; `ok` is whether all of them succeeded."""

        def __init__(self, ok: bool) -> None:
            super().__init__()
            self.ok = ok

    def __init__(self, commands: Sequence[Sequence[str]], shown: Sequence[str], **kw) -> None:
        super().__init__(**kw)
        self.commands = [list(c) for c in commands]
        self.shown = list(shown)
        """Each command as the pre-flight's fix says it (what the user reads before agreeing)."""
        self.output: list[str] = []

    def compose(self) -> ComposeResult:
        yield Button("Install and run here", id="install", variant="warning", compact=True)
        yield Static(
            "runs: " + "\n      ".join(escape(c) for c in self.shown), id="install-command"
        )
        yield ProgressBar(total=len(STAGES) * len(self.commands), id="install-bar")
        yield Static("", id="install-line", markup=False)
        yield Static("", id="install-error")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id != "install":
            return
        event.stop()
        event.button.disabled = True
        self.add_class("-running")
        self.query_one("#install-error", Static).update("")
        self.run_all()

    @work(thread=True, exclusive=True, exit_on_error=False, group="install")
    def run_all(self) -> None:
        for index, argv in enumerate(self.commands):
            if not self._run(argv, index * len(STAGES)):
                self.app.call_from_thread(self._done, False)
                return
        self.app.call_from_thread(self._done, True)

    def _run(self, argv: list[str], start: int) -> bool:
        try:
            proc = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
            )
        except OSError as err:
            self.output.append(f"{argv[0]}: {err.strerror or err}")
            return False
        assert proc.stdout is not None
        stage = 0
        for raw in proc.stdout:
            line = raw.rstrip()
            self.output.append(line)
            for at, word in enumerate(STAGES, 1):
                if line.lstrip().startswith(word) and at > stage:
                    stage = at
            self.app.call_from_thread(self._progress, start + stage, line)
        return proc.wait() == 0

    def _progress(self, done: int, line: str) -> None:
        if self.is_mounted:
            self.query_one(ProgressBar).update(progress=done)
            self.query_one("#install-line", Static).update(line[-200:])

    def _done(self, ok: bool) -> None:
        if not self.is_mounted:
            return
        bar = self.query_one(ProgressBar)
        if ok:
            bar.update(progress=bar.total)
            self.query_one("#install-line", Static).update("installed")
        else:
            tail = "\n".join(self.output[-4:]) or "no output"
            self.query_one("#install-error", Static).update(
                f"the install failed; pip said:\n{escape(tail)}"
            )
            self.query_one(Button).disabled = False
        self.post_message(self.Finished(ok))
