"""The trace page in a real browser: headless Chromium from Debian's packages (installed by
the test when missing and running as root; otherwise skipped saying why)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import generated_dir
from support.headless_chromium import Browser
from support.system_packages import ensure_command
from test_trace import HOSTILE, chunk, clean, write_trace

generated_dir()
from acp_v1.conformance.validate import Validator
from acp_v1.trace.format import read_trace
from acp_v1.trace.judge import judge
from acp_v1.trace.page import render_page

pytestmark = pytest.mark.slow  # a browser


def test_the_page_opens_cleanly_and_marks_the_judges_frames(tmp_path: Path) -> None:
    chromium = ensure_command("chromium")
    frames = [*clean(), ("agent", chunk("late")), ("agent", chunk(HOSTILE, "s2")),
              ("agent", (HOSTILE + "\n").encode())]
    trace = read_trace(write_trace(tmp_path / "t.jsonl", frames))
    failing = {n for v in judge(trace, Validator("acp_v1")) if v.status == "fail" for n in v.frames}
    assert failing  # the trace has planted faults: an update after its turn, a line that is no JSON
    page_file = tmp_path / "trace.html"
    page_file.write_text(render_page(trace, HOSTILE), encoding="utf-8")
    with Browser(chromium, tmp_path / "profile") as browser:
        page = browser.page()
        page.open(page_file.as_uri())
        rows = page.evaluate(
            "[...document.querySelectorAll('#rows .row')].map(r => [Number(r.dataset.n), "
            "r.classList.contains('failing'), r.querySelector('.msg').textContent])"
        )
        assert [n for n, _f, _m in rows] == list(range(1, len(frames) + 1))  # every frame shown
        assert {n for n, marked, _m in rows if marked} == failing  # marked: the judge's frames
        assert rows[4][2].startswith("session/prompt") and "\u2194 9" in rows[4][2]  # joined
        assert page.evaluate("window.pwned === undefined && document.images.length === 0")
        assert page.evaluate("document.getElementById('title').textContent") == HOSTILE
        page.evaluate("document.querySelector('#rows .row[data-n=\"12\"]').click()")
        shown = page.evaluate("document.querySelector('#detail pre').textContent")
        assert shown == HOSTILE  # a line that is no JSON is shown as it was
        page.evaluate("document.querySelector('#rows .row[data-n=\"10\"]').click()")
        detail = page.evaluate("document.getElementById('detail').textContent")
        assert "ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE" in detail
        assert json.loads(page.evaluate("document.querySelector('#detail pre').textContent")) == chunk("late")
        assert page.errors() == []
        assert page.requests() == [page_file.as_uri()]  # nothing loaded but the page itself


def test_a_50000_frame_trace_renders_only_what_is_in_view(tmp_path: Path) -> None:
    chromium = ensure_command("chromium")
    frames = clean()
    for i in range(50_000 - len(frames)):
        frames.append(("agent", chunk(f"chunk {i}")))
    trace = read_trace(write_trace(tmp_path / "t.jsonl", frames))
    page_file = tmp_path / "trace.html"
    page_file.write_text(render_page(trace, "big"), encoding="utf-8")
    with Browser(chromium, tmp_path / "profile") as browser:
        page = browser.page()
        page.open(page_file.as_uri())
        assert page.evaluate("window.traceView.frames") == 50_000
        assert page.evaluate("document.querySelectorAll('#rows .row').length") < 200
        page.evaluate("const l = document.getElementById('list'); l.scrollTop = l.scrollHeight;"
                      "l.dispatchEvent(new Event('scroll'))")
        last = page.evaluate("[...document.querySelectorAll('#rows .row')].map(r => Number(r.dataset.n))")
        assert last[-1] == 50_000 and len(last) < 200
        assert page.errors() == []


def _hue(rgb: str) -> float:
    """The hue (degrees) of a computed ``rgb(r, g, b)`` colour."""
    import colorsys

    r, g, b = (int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return colorsys.rgb_to_hsv(r, g, b)[0] * 360


def test_a_clean_session_is_no_failure_colour_the_counts_read_right_and_the_marks_have_a_legend(
        tmp_path: Path) -> None:
    chromium = ensure_command("chromium")
    trace = read_trace(write_trace(tmp_path / "t.jsonl", clean()))
    assert [v for v in judge(trace, Validator("acp_v1")) if v.status == "fail"] == []
    page_file = tmp_path / "trace.html"
    page_file.write_text(render_page(trace, "clean"), encoding="utf-8")
    with Browser(chromium, tmp_path / "profile") as browser:
        page = browser.page()
        page.open(page_file.as_uri())
        summary = page.evaluate("document.getElementById('summary').textContent")
        assert summary == f"{len(clean())} frames · 1 session · no failed requirement", summary
        edges = page.evaluate(
            "[...document.querySelectorAll('#rows .row')].map(r => getComputedStyle(r).borderLeftColor)"
            ".filter(c => c !== 'rgba(0, 0, 0, 0)')")
        assert edges, "the session's frames carry its colour"
        mark = page.evaluate("getComputedStyle(document.querySelector('#legend .fail')).color")
        assert abs(_hue(mark) - 360 * round(_hue(mark) / 360)) < 15  # failures: red
        for edge in set(edges):  # a session's colour is no red: red means a failure only
            assert 30 < _hue(edge) < 330, edge
        legend = page.evaluate("document.getElementById('legend').textContent")
        for words in ("#N", "\u2194 N", "the frame of its request or answer", "dashed",
                      "an error answer", "a failed requirement", "the session: s1"):
            assert words in legend, (words, legend)
        assert page.errors() == []
