"""Keys in the order they were typed, each one finished before the next.

Textual forwards a key to the widget focused *when the app reads the key*. A binding such as
Tab (move focus) runs only once the key has bubbled from that widget back up to the app, behind
the keys that arrived with it; and a field's edit reaches its screen as a message after the key.
So in a fast burst (a quick typist, tmux send-keys) the keys after Tab land in the field before
it, and Next can leave with the field's old value. `OrderedKeys` hands the app one key at a
time: the next is dispatched only once the last has been handled (stopped by a widget, or back
at the app with its binding run) and what it caused has reached the screen.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator

from textual import events
from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen

CEILING = 2.0
"""Seconds one key may take before the next goes anyway (a handler that waits on something slow
must not freeze the keyboard)."""


class OrderedKeys(App[None]):
    """An App base: keys from the terminal are dispatched strictly one after another."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._keys: deque[events.Key] = deque()
        self._in_flight: events.Key | None = None
        self._back: events.Key | None = None
        self._settler: asyncio.Task[None] | None = None

    async def on_event(self, event: events.Event) -> None:
        if not isinstance(event, events.Key):
            await super().on_event(event)
        elif not event.is_forwarded:  # from the terminal: behind the one in flight
            self._keys.append(event)
            await self._dispatch_keys()
        else:  # back up at the app from the focused widget: its binding runs now
            await super().on_event(event)
            if event is self._in_flight:
                self._back = event

    async def _dispatch_keys(self) -> None:
        while self._in_flight is None and self._keys:
            key = self._keys.popleft()
            screen = self.screen
            target: DOMNode = self.focused or screen
            await super().on_event(key)  # a priority binding runs here; else it is forwarded
            if not key.is_forwarded:
                if self.screen is screen:
                    continue  # done, here and now
                target = self.screen  # a binding opened or closed a screen: let it settle
            self._in_flight = key
            self._settler = asyncio.create_task(self._settle(key, target))

    async def _settle(self, key: events.Key, target: DOMNode) -> None:
        """Wait until `key` is handled and the messages it caused have reached the screen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CEILING
        # `_stop_propagation` is Textual's flag for "a handler stopped it"; it has no public twin.
        while (
            key.is_forwarded
            and not key._stop_propagation
            and self._back is not key
            and loop.time() < deadline
        ):
            await asyncio.sleep(0.002)
        for node in _up_to_screen(target):
            await _round_trip(node, deadline - loop.time())
        self.call_later(self._release, key)

    async def _release(self, key: events.Key) -> None:
        if self._in_flight is key:
            self._in_flight = self._back = None
            await self._dispatch_keys()


def _up_to_screen(node: DOMNode) -> Iterator[DOMNode]:
    """`node` twice (what it handles may post to itself), then each parent up to its screen."""
    yield node
    current: DOMNode | None = node
    while current is not None and not isinstance(current, App):
        yield current
        if isinstance(current, Screen):
            return
        current = current.parent


async def _round_trip(node: DOMNode, timeout: float) -> None:
    """Return once `node` has handled every message queued to it before this call."""
    if timeout <= 0 or not node.is_attached:
        return
    done = asyncio.get_running_loop().create_future()

    def mark() -> None:
        if not done.done():
            done.set_result(None)

    if not node.call_later(mark):
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done, timeout)
