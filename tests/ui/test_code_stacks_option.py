"""The Code step asks after how many minutes a stuck rank prints its stacks; 0 turns the
dumper off, and the plan follows."""

from __future__ import annotations

from pathlib import Path

from screens.code import CodeStep
from tui.planning.plan import Target, plan

from .conftest import make_app
from .test_answers_kept import go_to
from .test_wizard import type_into


async def test_the_code_step_sets_the_stall_minutes_and_zero_turns_the_dumper_off(home: Path):
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await go_to(pilot, CodeStep)
        assert app.spec.stacks == 10
        await type_into(pilot, "#stacks", "3")
        assert app.spec.stacks == 3
        assert plan(app.spec, Target.local()).ranks[0].env_dict()["DTRAIN_STACKS"] == "3"
        await type_into(pilot, "#stacks", "0")
        assert "DTRAIN_STACKS" not in plan(app.spec, Target.local()).ranks[0].env_dict()
