"""`dtrain-tui serve` in a real browser: the wizard from the framework step to the review, and a
second tab with a wizard of its own.

The server runs as a user would start it (`python -m tui serve --port N`, from an empty folder);
Chromium opens the page and types; the screen's text is read from the page (see browser.py).
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.serve.browser import CATCH_TERMINAL, chromium_path, wait_for
from tests.serve.server import Served, serving, wizards

FIRST_STEP = "What does your training script use"
KEYS_TO_REVIEW = ["e", "Enter", "Control+n", "Control+n", "Control+n", "Control+n"]
"""The README's quick-start keys up to the review: the example, then Next through each step."""

REBOUND = "attacker.example"
"""A name Chromium resolves to 127.0.0.1 here, as a rebinding attacker's DNS would."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """`dtrain-tui serve` started from an empty folder."""
    folder = tmp_path / "empty"
    folder.mkdir()
    with serving(folder) as server:
        yield server


@pytest.fixture
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed: run `bash tests/setup.sh`")
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=chromium_path(),
            args=[
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-crash-reporter",
                # A name an attacker controls, pointed at this machine: DNS rebinding.
                f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1",
            ],
        )
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        context.add_init_script(CATCH_TERMINAL)
        try:
            yield context
        finally:
            chromium.close()


def test_the_printed_url_is_on_this_machine_only(served: Served):
    assert served.url.startswith("http://127.0.0.1:")


def test_a_tab_goes_from_the_framework_step_to_the_review(served, browser, tmp_path: Path):
    tab = browser.new_page()
    tab.goto(served.url)
    wait_for(tab, lambda s: FIRST_STEP in s, "the framework step")
    tab.click("#terminal")
    for key in KEYS_TO_REVIEW:
        tab.keyboard.press(key)
    review = wait_for(tab, lambda s: "The job command" in s, "the review's command")
    shot = tmp_path / "review.png"
    tab.screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert "5 Review" in review
    assert "python train_ddp.py --epochs 3" in review
    assert "WORLD_SIZE 4" in review

    second = browser.new_page()  # the same URL, a wizard of its own, at its first step
    second.goto(served.url)
    first = wait_for(second, lambda s: FIRST_STEP in s, "the second tab's framework step")
    assert "The job command" not in first
    tab.bring_to_front()
    assert "The job command" in wait_for(tab, lambda s: "The job command" in s, "tab 1's review")


@pytest.mark.slow
def test_a_job_keeps_running_when_its_tab_closes(served, browser):
    tab = browser.new_page()
    tab.goto(served.url)
    wait_for(tab, lambda s: FIRST_STEP in s, "the framework step")
    tab.click("#terminal")
    for key in [*KEYS_TO_REVIEW, "Control+n"]:
        tab.keyboard.press(key)
    wait_for(tab, lambda s: "Where should it run?" in s, "the submit dialog")
    tab.keyboard.press("Enter")  # this machine, the dialog's first choice
    job_screen = wait_for(tab, lambda s: re.search(r"local job \S+", s), "the job screen")
    name = re.search(r"local job (\S+)", job_screen).group(1)
    tab.close()  # textual-serve ends that tab's app at once: no quit question

    line = ""
    deadline = time.monotonic() + 300  # a ceiling for a 2 x 2 rehearsal on a busy machine
    while time.monotonic() < deadline:
        listed = subprocess.run(
            [sys.executable, "-m", "tui", "jobs"], capture_output=True, text=True, timeout=60
        ).stdout
        line = next((row for row in listed.splitlines() if row.startswith(name)), "")
        if re.search(r"Completed|Failed|Canceled", line):
            break
        time.sleep(1)
    assert "Completed" in line, f"the job after its tab closed: {line or listed}"


OTHER_PAGE = """<!DOCTYPE html><html><body><script>
  window.seen = [];
  const ws = new WebSocket("ws://127.0.0.1:PORT/ws?width=80&height=24");
  for (const kind of ["open", "message", "close"])
    ws.addEventListener(kind, () => window.seen.push(kind));
</script></body></html>"""
"""A page on another site (here another port of this machine) that tries for a wizard."""


@contextmanager
def other_site(serve_port: int) -> Iterator[str]:
    """OTHER_PAGE served from another loopback port; yields its URL."""
    page = OTHER_PAGE.replace("PORT", str(serve_port)).encode()

    class Page(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args) -> None:
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}/"
    finally:
        site.shutdown()
        site.server_close()


def test_a_page_from_another_site_gets_no_wizard_and_the_served_page_does(served, browser):
    with other_site(served.port) as elsewhere:
        tab = browser.new_page()
        tab.goto(elsewhere)
        tab.wait_for_function("window.seen.length > 0", timeout=60_000)
        tab.wait_for_timeout(500)  # time for an "open" and a "message" to follow, if they would
        assert tab.evaluate("window.seen") == ["close"]  # never opened, nothing drawn
        site = elsewhere.rstrip("/")
    assert f"refused a websocket from {site}" in served.output()
    assert wizards(served.process) == []

    own = browser.new_page()
    own.goto(served.url)
    wait_for(own, lambda s: FIRST_STEP in s, "the served page's own wizard")


def test_a_page_under_a_rebound_name_is_refused(served, browser):
    tab = browser.new_page()
    answer = tab.goto(f"http://{REBOUND}:{served.port}/")
    assert answer is not None and answer.status == 403
    said = tab.inner_text("body")
    assert f"not to '{REBOUND}:{served.port}'" in said
    assert "--allow-host NAME" in said
    assert wizards(served.process) == []


def test_a_tab_beyond_max_tabs_says_why(tmp_path: Path, browser):
    folder = tmp_path / "empty"
    folder.mkdir()
    with serving(folder, "--max-tabs", "1") as served:
        first = browser.new_page()
        first.goto(served.url)
        wait_for(first, lambda s: FIRST_STEP in s, "the first tab's wizard")
        second = browser.new_page()
        second.goto(served.url)
        second.wait_for_selector(".closed-dialog .message", state="visible", timeout=60_000)
        assert second.inner_text(".closed-dialog .message") == (
            "1 wizard is open, the most serve allows (--max-tabs): close one, then Restart"
        )
        assert len(wizards(served.process)) == 1


def test_a_port_in_use_is_one_line_and_no_url():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "tui", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert "http://" not in done.stdout
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "choose another with --port" in done.stderr


def test_a_non_local_host_needs_public_and_says_what_it_exposes():
    done = subprocess.run(
        [sys.executable, "-m", "tui", "serve", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "--public" in done.stderr
    assert "no sign-in" in done.stderr
    assert "Azure ML with your credentials" in done.stderr


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.1.2.3", False),
        ("myhost.example", False),
    ],
)
def test_which_hosts_are_this_machine_only(host, local):
    from tui.cli.serve import is_loopback

    assert is_loopback(host) is local
