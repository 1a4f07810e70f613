"""LineAssembler: bytes in any chunking → the lines a reader of the finished log would see."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tui.logs.assembler import LineAssembler


def assemble(*chunks: bytes) -> list[str]:
    assembler = LineAssembler()
    lines = [line for chunk in chunks for line in assembler.feed(chunk)]
    return lines + assembler.flush()


def reference(data: bytes) -> list[str]:
    """An independent, character-at-a-time statement of the rules, for the property test."""
    lines: list[str] = []
    line, carriage_return = "", False
    for char in data.decode("utf-8", errors="replace"):
        if char == "\n":
            lines.append(line)
            line, carriage_return = "", False
        elif char == "\r":
            carriage_return = True
        else:
            if carriage_return:
                line, carriage_return = "", False
            line += char
    return [*lines, line] if line else lines


def test_complete_lines_come_out_and_a_partial_line_waits_for_its_newline() -> None:
    assembler = LineAssembler()
    assert assembler.feed(b"epoch 1\nepoch 2\nepo") == ["epoch 1", "epoch 2"]
    assert assembler.partial == "epo"
    assert assembler.feed(b"ch 3") == []
    assert assembler.feed(b"\n") == ["epoch 3"]
    assert assembler.partial == ""


def test_flush_emits_a_final_line_without_newline_and_nothing_when_there_is_none() -> None:
    assert assemble(b"done\nexit code 0") == ["done", "exit code 0"]
    assert assemble(b"done\n") == ["done"]
    assert assemble(b"") == []


def test_empty_lines_are_lines() -> None:
    assert assemble(b"a\n\n\nb\n") == ["a", "", "", "b"]


def test_crlf_is_one_line_break_even_when_split_between_reads() -> None:
    assert assemble(b"a\r\nb\r\n") == ["a", "b"]
    assert assemble(b"a\r", b"\nb\r", b"\n") == ["a", "b"]


def test_progress_bar_redraws_collapse_to_the_final_state() -> None:
    assembler = LineAssembler()
    assert assembler.feed(b"train:  10%|#  |\rtrain:  50%|## |") == []
    assert assembler.partial == "train:  50%|## |"
    assert assembler.feed(b"\rtrain: 100%|###|\n") == ["train: 100%|###|"]
    assert assemble(b"loss 1\r", b"loss 0.5\r\n") == ["loss 0.5"]


def test_a_carriage_return_keeps_showing_the_line_until_new_text_arrives() -> None:
    assembler = LineAssembler()
    assembler.feed(b"step 7\r")
    assert assembler.partial == "step 7"
    assembler.feed(b"st")
    assert assembler.partial == "st"
    assert assemble(b"step 7\r") == ["step 7"]


def test_utf8_split_across_reads_is_joined() -> None:
    text = "naïve 中文 🚀 ok\n".encode()
    assert assemble(*(text[i : i + 1] for i in range(len(text)))) == ["naïve 中文 🚀 ok"]
    rocket = "🚀".encode()
    assert assemble(b"x" + rocket[:1], rocket[1:3], rocket[3:] + b"\n") == ["x🚀"]


def test_invalid_bytes_are_replaced_never_fatal() -> None:
    assert assemble(b"bad \xff\xfe byte\n") == ["bad \ufffd\ufffd byte"]
    assert assemble(b"cut short \xe4\xb8") == ["cut short \ufffd"]


def test_only_newline_breaks_lines_not_other_unicode_separators() -> None:
    # str.splitlines() (what jobs.stream() uses) would split these; a log reader should not.
    assert assemble("a\x0bb\x0cc\u2028d\x1ce\n".encode()) == ["a\x0bb\x0cc\u2028d\x1ce"]


log_bytes = st.lists(
    st.sampled_from(
        [
            b"\n",
            b"\r",
            b"\r\n",
            b"a",
            b"line ",
            "é".encode(),
            "中".encode(),
            "🚀".encode(),
            b"\xff",
            b"\xe4\xb8",
            b"\x00",
            b"100%|###|",
        ]
    )
    | st.binary(max_size=6),
    max_size=60,
).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(data=log_bytes, cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_any_chunking_gives_the_same_lines_as_the_whole(data: bytes, cuts: list[int]) -> None:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    chunks = [data[a:b] for a, b in itertools.pairwise(points)]
    assert assemble(*chunks) == assemble(data) == reference(data)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="ab é中🚀\r\n", max_size=40))
def test_partial_shows_the_unfinished_line_as_a_terminal_would(text: str) -> None:
    assembler = LineAssembler()
    assembler.feed(text.encode())
    unfinished = text.rpartition("\n")[2].encode()
    assert assembler.partial == (reference(unfinished) or [""])[0]


def test_a_redrawn_bar_with_a_write_glued_after_it_is_two_lines_and_a_draft_none() -> None:
    """tqdm (stderr) and print (stdout) in one file: the write glued after the bar's state is a
    line of its own; a bar that has not begun (`0/5`) is a draft its final state replaces."""
    a = LineAssembler()
    lines = a.feed(
        b"\r  0%|          | 0/5 [00:00<?, ?it/s]epoch 0 loss 0.5\n"
        b"\r 20%|##        | 1/5 [00:01<00:04, 1.0it/s][INFO] reducer rebuilt\n"
        b"plain 50%|x| 1/2 [00:01<00:01, 1.0it/s] glued, but never redrawn\n"
    )
    assert lines == [
        "epoch 0 loss 0.5",
        " 20%|##        | 1/5 [00:01<00:04, 1.0it/s]",
        "[INFO] reducer rebuilt",
        "plain 50%|x| 1/2 [00:01<00:01, 1.0it/s] glued, but never redrawn",
    ]
