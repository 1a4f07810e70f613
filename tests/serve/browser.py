"""A headless Chromium (Debian's `chromium`, installed by tests/setup.sh) driven by Playwright,
reading what each tab's terminal shows from the page itself.

textual-serve's page draws the app with xterm.js on a canvas, so the text is not in the DOM. The
page keeps its `Terminal` in a private object's `terminal` field; a script that runs before the
page's own catches that assignment and keeps the terminal where the test can read its buffer:
the characters the page holds, row by row, not pixels.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser")

CATCH_TERMINAL = """
(() => {
  window.__terminals = [];
  Object.defineProperty(Object.prototype, 'terminal', {
    configurable: true,
    get() { return undefined; },
    set(value) {
      Object.defineProperty(this, 'terminal',
        {value, writable: true, configurable: true, enumerable: true});
      if (value && value.buffer && value.onData) window.__terminals.push(value);
    },
  });
})();
"""

READ_SCREEN = """() => {
  const t = window.__terminals && window.__terminals[0];
  if (!t) return '';
  const buffer = t.buffer.active, rows = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : '');
  }
  return rows.join('\\n');
}"""


def chromium_path() -> str:
    """The system Chromium, or a failed test saying how to get it."""
    for name in CHROMIUM_NAMES:
        if path := shutil.which(name):
            return path
    pytest.fail(
        "Chromium is not installed: run `bash tests/setup.sh` (it runs "
        "`apt-get install chromium`), or install your distribution's chromium package"
    )


def screen(page) -> str:
    """The text the tab's terminal shows now."""
    return page.evaluate(READ_SCREEN)


def wait_for(page, wanted: Callable[[str], bool], what: str, ceiling: float = 90) -> str:
    """The tab's screen once `wanted` holds for it; a ceiling, not a timing assertion."""
    deadline = time.monotonic() + ceiling
    text = ""
    while time.monotonic() < deadline:
        text = screen(page)
        if wanted(text):
            return text
        page.wait_for_timeout(200)
    raise AssertionError(f"{what} did not show within {ceiling:.0f} s; the tab showed:\n{text}")
