"""The third walk (issue 40, item 22): the served page names itself in the browser's tab."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from tests.serve.server import serving


def test_the_served_page_has_a_title(tmp_path: Path):
    with serving(tmp_path) as served:

        async def page() -> str:
            async with aiohttp.ClientSession() as session, session.get(served.url) as got:
                return await got.text()

        text = asyncio.run(page())
    head = text[: text.index("</head>")]
    assert re.search(r"<title>dtrain-tui</title>", head), head[:400]
