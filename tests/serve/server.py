"""`dtrain-tui serve` started as a user starts it, and what a test needs around it: the wizard
processes it runs, a deadline to poll against, a websocket that stops reading."""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    """A running `dtrain-tui serve`: its URL, port, process and what it printed so far."""

    url: str
    port: int
    process: subprocess.Popen
    said: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return "".join(self.said)


@contextmanager
def serving(folder: Path, *args: str) -> Iterator[Served]:
    """`python -m tui serve --port N ARGS` from `folder`, until the block ends."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", str(port), *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    said: list[str] = []
    url: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            said.append(line)
            if found := re.search(r"open (http://\S+)", line):
                url.append(found.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        ready.wait(60)
        assert url, f"dtrain-tui serve printed no URL to open; it said:\n{''.join(said)}"
        poll(lambda: _listening(port), f"serve listening on port {port}", 60)
        yield Served(url[0], port, process, said)
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(60)


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def wizards(server: subprocess.Popen | int) -> list[psutil.Process]:
    """The wizard processes `serve` runs now (one per tab), whatever stands between."""
    pid = server if isinstance(server, int) else server.pid
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    return [p for p in children if _is_wizard(p)]


def _is_wizard(p: psutil.Process) -> bool:
    try:
        argv = p.cmdline()
        return alive(p) and any(
            flag == "-c" and code.startswith("from ") and code.endswith("served_app()")
            for flag, code in itertools.pairwise(argv)
        )
    except psutil.Error:
        return False


def alive(p: psutil.Process) -> bool:
    """Running, and not a zombie waiting for a parent to collect it."""
    try:
        return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def poll(check: Callable[[], object], what: str, ceiling: float = 90) -> object:
    """`check()`'s first true value; a ceiling for a busy machine, not a timing assertion."""
    deadline = time.monotonic() + ceiling
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {ceiling:.0f} s")


class StalledClient:
    """A websocket client on a bare socket that can stop reading: what it is sent piles up in
    the kernel's buffers, then in the server's, then in the app's pipe."""

    def __init__(self, port: int, origin: str, query: str = "width=300&height=150") -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws?{query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        answer = self.sock.recv(12)
        assert answer.startswith(b"HTTP/1.1 101"), answer

    def read_first_screen(self) -> None:
        """Read until the wizard has drawn its first screen: it runs, and reads what it is sent
        from now on as it comes (sent before it ran, it would take many sizes as one)."""
        seen = b""
        while b"What does your training script use" not in seen:
            chunk = self.sock.recv(65536)
            assert chunk, "the server closed the tab before the wizard drew"
            seen = seen[-200:] + chunk

    def send(self, message: object) -> None:
        """One masked text frame, as a browser sends it."""
        data, mask = json.dumps(message).encode(), os.urandom(4)
        n = len(data)
        length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(b"\x81" + length + mask + body)

    def close(self) -> None:
        self.sock.close()


def blocked_writing(p: psutil.Process) -> bool:
    """Whether the kernel says `p` waits to write into a full pipe (Linux; False elsewhere)."""
    try:
        return "pipe_write" in Path(f"/proc/{p.pid}/wchan").read_text()
    except OSError:
        return False
