"""What `dtrain-tui serve` keeps out, tested with raw HTTP and websocket clients against the
server as a user starts it: other pages (Origin), other names (Host, DNS rebinding), huge
terminals, more tabs than `--max-tabs`, and wizards left behind by a tab that went or a server
that was killed. The real browser's side is in test_serve_browser.py."""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import aiohttp
import pytest

from tests.serve.server import (
    StalledClient,
    alive,
    blocked_writing,
    poll,
    serving,
    wizards,
)
from tui.cli.serve_guard import MAX_HEIGHT, MAX_WIDTH, clamp_size, host_allowed, origin_allowed

ROW_START = re.compile(rb"\x1b\[(\d+);1H")
"""Where Textual starts drawing each row of the screen: the rows it drew, counted."""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "empty").mkdir()
    return tmp_path / "empty"


async def _open(url: str, headers: dict[str, str], seconds: float = 60) -> tuple[int, bytes]:
    """Open /ws; the HTTP status it got (101 = a wizard) and what the wizard drew (the rows of
    its first screen), or the refusal's text."""
    async with aiohttp.ClientSession() as session:
        try:
            ws = await session.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as refused:
            async with session.get(url, headers=headers) as again:
                return refused.status, (await again.read())
        drawn = b""
        async with ws:
            with_rows = lambda: len(set(ROW_START.findall(drawn))) > 10  # noqa: E731
            try:
                while not with_rows():
                    message = await asyncio.wait_for(ws.receive(), seconds)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        break
                    drawn += message.data
            except asyncio.TimeoutError:
                pass
        return 101, drawn


def _rows(drawn: bytes) -> int:
    return max((int(n) for n in ROW_START.findall(drawn)), default=0)


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "null", "http://127.0.0.1:1", "http://localhost", None],
    ids=["another-site", "null", "another-port", "another-name", "none"],
)
def test_a_websocket_from_another_page_is_refused_before_a_wizard_starts(folder, origin):
    with serving(folder) as served:
        headers = {"Origin": origin} if origin else {}
        status, text = asyncio.run(_open(f"{served.url}/ws", headers))
        assert status == 403
        assert b"a wizard opens only from its own page" in text
        assert wizards(served.process) == []
        assert f"refused a websocket from {origin or 'no origin'}" in served.output()


def test_the_served_page_s_own_origin_gets_a_wizard(folder):
    with serving(folder) as served:
        status, drawn = asyncio.run(_open(f"{served.url}/ws", {"Origin": served.origin}))
        assert status == 101
        assert b"What does your training script use" in drawn


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:{port}", "LOCALHOST.evil"])
def test_a_page_asked_for_by_another_name_is_refused_dns_rebinding(folder, host):
    with serving(folder) as served:
        host = host.format(port=served.port)

        async def ask() -> tuple[int, str, int]:
            async with aiohttp.ClientSession() as session:
                async with session.get(served.url, headers={"Host": host}) as page:
                    text = await page.text()
                websocket = {"Host": host, "Origin": f"http://{host}"}
                async with session.get(f"{served.url}/ws", headers=websocket) as ws:
                    return page.status, text, ws.status

        status, text, ws_status = asyncio.run(ask())
        assert (status, ws_status) == (403, 403)
        assert "answers to an IP address or to localhost" in text
        assert "--allow-host NAME" in text
        assert "ws://" not in text  # no page wired to the attacker's name
        assert wizards(served.process) == []


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "mybox"])
def test_this_machine_s_names_and_allowed_names_get_the_page(folder, host):
    with serving(folder, "--allow-host", "MyBox") as served:
        host = host.format(port=served.port)

        async def ask() -> tuple[int, str]:
            async with (
                aiohttp.ClientSession() as session,
                session.get(served.url, headers={"Host": host}) as page,
            ):
                return page.status, await page.text()

        status, text = asyncio.run(ask())
        assert status == 200
        assert f"ws://{host}/ws" in text


def test_a_huge_size_in_the_url_or_a_resize_is_clamped(folder):
    with serving(folder) as served:
        url = f"{served.url}/ws?width=600&height=250"  # before: a 600 x 250 screen, 250 rows
        status, drawn = asyncio.run(_open(url, {"Origin": served.origin}))
        assert status == 101
        assert _rows(drawn) == MAX_HEIGHT

        async def resize() -> bytes:
            async with aiohttp.ClientSession() as session:
                ws_url = f"{served.url}/ws?width=80&height=24"
                async with session.ws_connect(ws_url, headers={"Origin": served.origin}) as ws:
                    drawn = b""
                    while b"What does your training script use" not in drawn:
                        drawn += (await asyncio.wait_for(ws.receive(), 60)).data
                    assert _rows(drawn) == 24
                    await ws.send_json(["resize", {"width": 600, "height": 250}])
                    drawn = b""
                    while _rows(drawn) < MAX_HEIGHT:
                        drawn += (await asyncio.wait_for(ws.receive(), 60)).data
                    return drawn

        assert _rows(asyncio.run(resize())) == MAX_HEIGHT


@pytest.mark.parametrize(
    ("width", "height", "size"),
    [
        ("80", "24", (80, 24)),
        ("10000", "10000", (MAX_WIDTH, MAX_HEIGHT)),
        (20000, 20000, (MAX_WIDTH, MAX_HEIGHT)),
        ("-5", "0", (1, 1)),
        ("wide", "24", None),
        (None, 24, None),
        (80.5, 24, None),
        (True, 24, None),
    ],
)
def test_sizes_are_whole_cells_within_limits(width, height, size):
    assert clamp_size(width, height) == size


def test_more_tabs_than_max_tabs_are_told_why_and_start_nothing(folder):
    with serving(folder, "--max-tabs", "2") as served:

        async def three() -> tuple[list[int], aiohttp.WSMessage, int]:
            headers = {"Origin": served.origin}
            async with aiohttp.ClientSession() as session:
                first = await session.ws_connect(f"{served.url}/ws", headers=headers)
                second = await session.ws_connect(f"{served.url}/ws", headers=headers)
                for ws in (first, second):  # both drawing: both wizards run
                    assert (await asyncio.wait_for(ws.receive(), 60)).type.name == "BINARY"
                counted = [len(wizards(served.process))]
                async with session.ws_connect(f"{served.url}/ws", headers=headers) as third:
                    refusal = await asyncio.wait_for(third.receive(), 60)
                counted.append(len(wizards(served.process)))
                await first.close()  # a place frees once its wizard is gone
                await asyncio.to_thread(
                    poll, lambda: len(wizards(served.process)) == 1, "the first wizard ending"
                )
                # The place is given back once the server has finished stopping that wizard,
                # a moment after its process is gone: a tab refused meanwhile is tried again,
                # as the refusal asks (the ceiling is the test's hang detector, not a speed).
                deadline = asyncio.get_running_loop().time() + 60
                while True:
                    async with session.ws_connect(f"{served.url}/ws", headers=headers) as fourth:
                        fourth_kind = (await asyncio.wait_for(fourth.receive(), 60)).type
                    if fourth_kind != aiohttp.WSMsgType.CLOSE:
                        break
                    if asyncio.get_running_loop().time() > deadline:
                        break
                    await asyncio.sleep(0.2)
                await second.close()
                return counted, refusal, fourth_kind

        counted, refusal, fourth_kind = asyncio.run(three())
        assert counted == [2, 2]
        assert refusal.type == aiohttp.WSMsgType.CLOSE
        assert refusal.data == aiohttp.WSCloseCode.TRY_AGAIN_LATER
        assert refusal.extra == (
            "2 wizards are open, the most serve allows (--max-tabs): close one, then Restart"
        )
        assert fourth_kind == aiohttp.WSMsgType.BINARY
        assert "refused a tab: 2 wizards are open (--max-tabs 2)" in served.output()


@pytest.mark.parametrize("value", ["0", "-1"])
def test_max_tabs_below_one_is_one_line(value):
    done = subprocess.run(
        [sys.executable, "-m", "tui", "serve", "--max-tabs", value],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"dtrain-tui: error: --max-tabs {value}: serve at least 1 tab"
    ]


@pytest.mark.slow
def test_a_tab_that_stops_reading_then_goes_leaves_no_wizard(folder):
    with serving(folder) as served:
        client = StalledClient(served.port, served.origin)
        client.read_first_screen()
        wizard = poll(lambda: wizards(served.process), "the tab's wizard")[0]
        # Full redraws the client never reads, until the wizard is stuck writing them (where
        # Linux says so), then more: it has a backlog to write when the tab goes.
        sizes = itertools.cycle([{"width": 500, "height": 200}, {"width": 400, "height": 200}])

        def redraw() -> bool:
            client.send(["resize", next(sizes)])
            return blocked_writing(wizard)

        if Path(f"/proc/{wizard.pid}/wchan").exists():
            poll(redraw, "the wizard stuck writing to the stalled tab", ceiling=180)
        for _ in range(100):
            redraw()
            threading.Event().wait(0.02)
        client.close()
        poll(lambda: not alive(wizard), "the stalled tab's wizard ending after it went")
        assert wizards(served.process) == []


@pytest.mark.slow
def test_a_killed_server_leaves_no_wizard(folder):
    with serving(folder) as served:

        async def tab() -> None:
            headers = {"Origin": served.origin}
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(f"{served.url}/ws", headers=headers) as ws,
            ):
                assert (await asyncio.wait_for(ws.receive(), 60)).type.name == "BINARY"
                found = wizards(served.process)
                assert len(found) == 1
                served.process.send_signal(signal.SIGKILL)
                served.process.wait(60)
                await asyncio.to_thread(
                    poll, lambda: not alive(found[0]), "the wizard ending after SIGKILL"
                )

        asyncio.run(tab())


@pytest.mark.slow
def test_a_wizard_whose_stdin_closes_ends(tmp_path):
    """Its server's end of the pipe gone (whatever became of the server), the wizard ends."""
    from tui.cli.serve import SERVED_APP

    env = {**os.environ, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"}
    wizard = subprocess.Popen(
        [sys.executable, "-c", SERVED_APP],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    started = threading.Event()

    def drain() -> None:  # the server's part: read what the app draws
        assert wizard.stdout is not None
        while chunk := wizard.stdout.read1(65536):
            if b"__GANGLION__" in chunk:
                started.set()

    threading.Thread(target=drain, daemon=True).start()
    try:
        assert started.wait(90), "the wizard did not start"
        assert wizard.stdin is not None
        wizard.stdin.close()
        assert poll(lambda: wizard.poll() is not None, "the wizard ending after stdin closed")
    finally:
        if wizard.poll() is None:
            wizard.kill()
        wizard.wait(30)


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8000", True),
        ("localhost:8000", True),
        ("LocalHost.:8000", True),
        ("[::1]:8000", True),
        ("10.1.2.3", True),
        ("devbox:8000", True),
        ("attacker.example", False),
        ("localhost.attacker.example", False),
        ("127.0.0.1.nip.io", False),
        ("", False),
        (None, False),
    ],
)
def test_which_hosts_are_answered(host, allowed):
    assert host_allowed(host, frozenset({"localhost", "devbox"})) is allowed


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://LOCALHOST:8000", "localhost:8000", True),
        ("https://devbox", "devbox", True),
        ("http://127.0.0.1:9000", "127.0.0.1:8000", False),
        ("http://evil.example", "127.0.0.1:8000", False),
        ("null", "127.0.0.1:8000", False),
        ("file://", "127.0.0.1:8000", False),
        ("ws://127.0.0.1:8000", "127.0.0.1:8000", False),
        (None, "127.0.0.1:8000", False),
        ("http://127.0.0.1:8000", None, False),
    ],
)
def test_which_origins_are_the_served_page(origin, host, allowed):
    assert origin_allowed(origin, host) is allowed
