"""No cyclic garbage collection between the app's start and its first frame.

Starting the wizard makes some 70,000 long-lived objects (Textual's DOM and styles, pydantic's
schemas, the frameworks), and Python's collector walks them again and again while they are
made: about 70 ms of CPU before the first frame, a full collection of 20-60 ms among them,
where a bare Textual app spends 2 ms. So collection pauses from the app's start (`Load`) to
its first frame (`Ready`); then what exists is frozen (`gc.freeze`: later collections skip it,
so one never stalls a key press by walking the start-up objects again) and collection resumes.
Unmounting unfreezes them, so an app that ends (as in tests, many to a process) leaves the
collector as it found it. The few unreachable cycles made before the first frame (~5,000
objects) are kept until then.

An app's own `on_ready` runs before this class's (Textual calls the subclass's handler first):
what it makes just after the first frame (the wizard's model and frameworks) is made without
collection too, and frozen with the rest.
"""

from __future__ import annotations

import gc

from textual.app import App


class GcPausedUntilReady(App[None]):
    """An App base: no garbage collection before the first frame."""

    _gc_was_enabled = True

    def on_load(self) -> None:
        self._gc_was_enabled = gc.isenabled()
        gc.disable()

    def on_ready(self) -> None:
        gc.freeze()
        if self._gc_was_enabled:
            gc.enable()

    def on_unmount(self) -> None:
        gc.unfreeze()
        if self._gc_was_enabled:
            gc.enable()
