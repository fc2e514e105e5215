"""The shipped trace package (acpgen/shipped/trace/), in the package generated now: the trace
format, the offline judge on planted faults, the command line and the page's escaping."""

from __future__ import annotations

import base64
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir, load_real_project

GENERATED = generated_dir()

from acp_v1.conformance.validate import Validator
from acp_v1.recording import TraceWriter
from acp_v1.trace import cli, page
from acp_v1.trace.format import TraceError, read_trace
from acp_v1.trace.judge import judge

HEADER = {"format": 1, "kind": "acp-trace", "recorder": "test"}


def write_trace(path: Path, frames: list[tuple[str, Any]], end: bool = True) -> Path:
    """A trace file written here, by hand: (sender, message or raw bytes) per frame."""
    lines = [json.dumps(HEADER)]
    for n, (sender, body) in enumerate(frames, start=1):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode() + b"\n"
        record: dict[str, Any] = {"n": n, "from": sender, "t": n / 100}
        try:
            record["data"] = raw.decode("utf-8")
        except UnicodeDecodeError:
            record["b64"] = base64.b64encode(raw).decode()
        lines.append(json.dumps(record))
    if end:
        lines.append(json.dumps({"end": True, "t": 1.0, "exit": 0}))
    path.write_text("\n".join(lines) + "\n")
    return path


def req(id_: Any, method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "method": method, "params": params}


def note(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def res(id_: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def chunk(text: str, session: str = "s1") -> dict[str, Any]:
    update = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
    return note("session/update", {"sessionId": session, "update": update})


def clean(fs: bool = True) -> list[tuple[str, Any]]:
    caps = {"fs": {"readTextFile": True, "writeTextFile": False}, "terminal": False} if fs else {}
    return [
        ("client", req(0, "initialize", {"protocolVersion": 1, "clientCapabilities": caps})),
        ("agent", res(0, {"protocolVersion": 1, "agentCapabilities": {}, "authMethods": []})),
        ("client", req(1, "session/new", {"cwd": "/tmp", "mcpServers": []})),
        ("agent", res(1, {"sessionId": "s1"})),
        ("client", req(2, "session/prompt", {"sessionId": "s1", "prompt": [{"type": "text", "text": "hi"}]})),
        ("agent", req(0, "fs/read_text_file", {"sessionId": "s1", "path": "/tmp/x"})),
        ("client", res(0, {"content": "x"})),
        ("agent", chunk("hi")),
        ("agent", res(2, {"stopReason": "end_turn"})),
    ]


def failures(path: Path) -> dict[tuple[str, str], tuple[int, ...]]:
    verdicts = judge(read_trace(path), Validator("acp_v1"))
    return {(v.side, v.req_id): v.frames for v in verdicts if v.status == "fail"}


# ---- the trace format ----------------------------------------------------------------------------


def test_the_writer_keeps_every_byte_whatever_the_chunks(tmp_path: Path) -> None:
    client = b'{"a":1}\n{"b":\xff\xfe}\npartial line then more\n\n  \r\nlast without newline'
    agent = '{"é":"\\u2028"}\n\x00nul\n'.encode() + b"x" * 70000 + b"\n" + b"tail\xc3"
    rng = random.Random(35)
    writer = TraceWriter(tmp_path / "t.jsonl", {"recorder": "test"})
    for sender, data in (("client", client), ("agent", agent)):
        at = 0
        while at < len(data):
            step = rng.randint(1, 9) if rng.random() < 0.8 else rng.randint(10, 30000)
            writer.feed(sender, data[at : at + step])  # type: ignore[arg-type]
            at += step
    writer.close(3)
    trace = read_trace(tmp_path / "t.jsonl")
    assert trace.header["format"] == 1 and trace.end is not None and trace.end["exit"] == 3
    by_sender = {s: b"".join(f.raw for f in trace.frames if f.sender == s) for s in ("client", "agent")}
    assert by_sender == {"client": client, "agent": agent}
    client_lines = [f.raw for f in trace.frames if f.sender == "client"]
    assert client_lines[-1] == b"last without newline" and client_lines[1] == b'{"b":\xff\xfe}\n'
    assert [f.number for f in trace.frames] == list(range(1, len(trace.frames) + 1))
    text = (tmp_path / "t.jsonl").read_text(encoding="utf-8")  # the file itself is UTF-8
    assert '"b64"' in text and all(json.loads(line) for line in text.splitlines())


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("", "empty file"),
        ('{"format": 1}\n', "not an ACP trace header"),
        ('{"format": 2, "kind": "acp-trace"}\n', "trace format 2 is newer"),
        ('{"format": 1, "kind": "acp-trace"}\n{"from": "editor", "t": 0, "data": ""}\n', '"from" is'),
        ('{"format": 1, "kind": "acp-trace"}\nnot json\n', "not a JSON line"),
        ('{"format": 1, "kind": "acp-trace"}\n{"from": "agent", "t": 0, "b64": "!!"}\n', "not base64"),
    ],
)
def test_an_unreadable_trace_is_refused_naming_its_line(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(TraceError, match=re.escape(problem)) as caught:
        read_trace(path)
    assert caught.value.where.startswith(str(path))
    assert cli.main(["check", str(path)]) == 2


# ---- the judge on planted faults ------------------------------------------------------------------


def test_a_clean_trace_has_no_failure(tmp_path: Path) -> None:
    assert failures(write_trace(tmp_path / "t.jsonl", clean())) == {}


UPDATES = "ACP-V1-PROMPT-UPDATES-BEFORE-RESPONSE"


def test_a_response_before_its_turns_updates(tmp_path: Path) -> None:
    frames = clean()
    frames[7], frames[8] = frames[8], frames[7]  # the response (now frame 8), then the update (9)
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {("agent", UPDATES): (8, 9)}


def test_an_update_after_its_prompts_response(tmp_path: Path) -> None:
    frames = [*clean(), ("agent", chunk("late"))]  # frame 10, after the response (frame 9)
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {("agent", UPDATES): (9, 10)}


def test_updates_of_the_next_turn_and_state_updates_are_no_fault(tmp_path: Path) -> None:
    commands = note("session/update", {"sessionId": "s1", "update": {
        "sessionUpdate": "available_commands_update", "availableCommands": []}})
    frames = [*clean(), ("agent", commands),
              ("client", req(3, "session/prompt", {"sessionId": "s1", "prompt": []})),
              ("agent", chunk("next")), ("agent", res(3, {"stopReason": "end_turn"}))]
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {}


def test_an_id_answered_twice(tmp_path: Path) -> None:
    frames = clean()
    frames.insert(4, frames[3])  # session/new (frame 3) answered at frames 4 and 5
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {
        ("agent", "ACP-V1-JSONRPC-RESPONSE-SAME-ID"): (3, 4, 5)
    }


def test_an_unanswered_request(tmp_path: Path) -> None:
    frames = clean()
    del frames[6]  # the client never answers fs/read_text_file (frame 6)
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {
        ("client", "ACP-V1-JSONRPC-RESPONSE-REQUIRED"): (6,)
    }


def test_a_file_read_without_the_capability(tmp_path: Path) -> None:
    found = failures(write_trace(tmp_path / "t.jsonl", clean(fs=False)))
    assert set(found) == {("agent", "ACP-V1-FS-AGENT-CHECK-CAPABILITY"),
                          ("agent", "ACP-V1-FS-AGENT-NO-CALL-WITHOUT-CAPABILITY")}
    assert all(6 in frames and 1 in frames for frames in found.values())  # the call, the init


def test_a_line_that_is_not_json(tmp_path: Path) -> None:
    frames = clean()
    frames.insert(4, ("agent", b"debug: session created\n"))  # frame 5
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {
        ("agent", "ACP-V1-TRANSPORT-AGENT-STDOUT-ONLY-ACP"): (5,)
    }


def test_a_line_that_is_not_utf8(tmp_path: Path) -> None:
    frames = clean()
    frames.insert(2, ("client", b'{"jsonrpc":"2.0","method":"_x","params":{"a":"\xff"}}\n'))
    found = failures(write_trace(tmp_path / "t.jsonl", frames))
    # Not UTF-8, so no valid ACP message either: both requirements (issue 34, class g).
    assert found == {("client", "ACP-V1-TRANSPORT-UTF8"): (3,), ("client", "ACP-V1-TRANSPORT-CLIENT-STDIN-ONLY-ACP"): (3,)}


def test_a_cancelled_prompt_answered_without_the_cancelled_stop_reason(tmp_path: Path) -> None:
    frames = clean()
    frames.insert(8, ("client", note("session/cancel", {"sessionId": "s1"})))  # frame 9
    found = failures(write_trace(tmp_path / "t.jsonl", frames))  # answered end_turn at frame 10
    assert found == {("agent", "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON"): (5, 9, 10)}
    frames[9] = ("agent", res(2, {"stopReason": "cancelled"}))
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {}


def test_a_request_before_initialize(tmp_path: Path) -> None:
    frames = clean()
    frames.insert(0, frames.pop(2))  # session/new first
    found = failures(write_trace(tmp_path / "t.jsonl", frames))
    assert found[("client", "ACP-V1-INIT-CLIENT-INITIALIZE-FIRST")] == (1,)


def test_what_a_passive_trace_cannot_show_is_not_exercised(tmp_path: Path) -> None:
    verdicts = judge(read_trace(write_trace(tmp_path / "t.jsonl", clean())), None)
    status = {(v.side, v.req_id): (v.status, v.detail) for v in verdicts}
    assert status[("agent", "ACP-V1-PROMPT-AGENT-CANCELLED-STOP-REASON")] == (
        "not exercised", "no session/cancel in the trace")
    assert status[("agent", "ACP-V1-JSONRPC-RESPONSE-REQUIRED")] == ("pass", "")


# ---- the command line ---------------------------------------------------------------------------


def roster_text(req_id: str) -> str:
    return next(r.text for r in load_real_project().roster.requirements if r.id == req_id)


def test_check_quotes_the_requirement_and_points_at_frames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_trace(tmp_path / "t.jsonl", [*clean(), ("agent", chunk("late"))])
    assert cli.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    assert f"FAIL {UPDATES} (agent, MUST) frames 9, 10" in flat
    assert f'"{" ".join(roster_text(UPDATES).split())}"' in flat
    assert "0 failed" not in out and out.rstrip().endswith("(-v lists them)")
    assert cli.main(["check", "--json", str(write_trace(tmp_path / "c.jsonl", clean()))]) == 0
    verdicts = json.loads(capsys.readouterr().out)
    assert {v["status"] for v in verdicts} == {"pass", "not exercised"}
    assert all(v["wording"] for v in verdicts)


# ---- the page -------------------------------------------------------------------------------------

HOSTILE = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">&amp;\u2028'


def test_hostile_strings_stay_data(tmp_path: Path) -> None:
    frames = [*clean(), ("agent", chunk(HOSTILE)), ("agent", (HOSTILE + "\n").encode())]
    trace = read_trace(write_trace(tmp_path / "t.jsonl", frames))
    html = page.render_page(trace, HOSTILE)
    assert html.count("</script") == 2 and html.count("<script") == 2  # the page's own two
    assert "<img" not in html and "&amp;" not in html.split('type="application/json">')[1]
    data = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
    assert data["title"] == HOSTILE
    assert data["rows"][-1][8] == HOSTILE + "\n"
    page_itself = html.replace(html.split('type="application/json">')[1].split("</script>")[0], "")
    for banned in (" src=", " href=", "<link", "url(", "http://", "https://", "@import"):
        assert banned not in page_itself, banned  # the page loads nothing


def test_the_page_marks_what_the_judge_failed(tmp_path: Path) -> None:
    trace = read_trace(write_trace(tmp_path / "t.jsonl", [*clean(), ("agent", chunk("late"))]))
    data = page.page_data(trace, judge(trace, None))
    marked = {row[0]: row[7] for row in data["rows"] if row[7]}
    assert marked == {9: [UPDATES], 10: [UPDATES]}
    joined = {row[0]: row[6] for row in data["rows"]}
    assert joined[5] == 9 and joined[9] == 5 and joined[6] == 7  # prompt and fs request answered
    assert data["sessions"] == ["s1"]


def test_batches_are_judged_message_by_message(tmp_path: Path) -> None:
    batch = [req(7, "_ext/a", {}), req(8, "_ext/b", {}), note("_ext/c", {})]
    answers = [res(8, {}), res(7, {})]
    frames = [*clean(), ("client", (json.dumps(batch) + "\n").encode()),
              ("agent", (json.dumps(answers) + "\n").encode())]
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {}
    frames[-1] = ("agent", (json.dumps(answers[:1]) + "\n").encode())  # _ext/a never answered
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {
        ("agent", "ACP-V1-EXT-RESPOND-TO-CUSTOM-REQUEST"): (10,)
    }


@pytest.mark.slow  # imports another surface's package
def test_a_surface_without_a_roster_records_and_draws_but_does_not_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from acp_v2.trace import cli as v2_cli

    path = write_trace(tmp_path / "t.jsonl", clean())
    assert v2_cli.main(["check", str(path)]) == 3
    assert "no requirement roster" in capsys.readouterr().err
    assert v2_cli.main(["html", str(path), "-o", str(tmp_path / "t.html")]) == 0
    assert "initialize" in (tmp_path / "t.html").read_text()


def test_a_load_answered_before_its_replay_ends(tmp_path: Path) -> None:
    load = req(3, "session/load", {"sessionId": "s1", "cwd": "/tmp", "mcpServers": []})
    replayed = note("session/update", {"sessionId": "s1", "update": {
        "sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "hi"}}})
    frames = [*clean(), ("client", load), ("agent", replayed), ("agent", res(3, {})),
              ("agent", chunk("hi"))]  # frame 13: replayed after the load's response (12)
    frames[1] = ("agent", res(0, {"protocolVersion": 1, "agentCapabilities": {"loadSession": True}}))
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {
        ("agent", "ACP-V1-SETUP-LOAD-RESPOND-AFTER-REPLAY"): (12, 13)
    }
    del frames[-1]
    assert failures(write_trace(tmp_path / "t.jsonl", frames)) == {}


def test_the_pages_session_colours_keep_clear_of_the_failure_red() -> None:
    PAGE = page.PAGE
    (hues,) = re.findall(r"const HUES = \[([0-9, ]+)\];", PAGE)
    values = [int(h) for h in hues.split(",")]
    assert len(set(values)) == len(values) >= 6
    assert all(30 < h < 330 for h in values), values  # red (hue 0) marks failures only
    assert "1 sessions" not in PAGE and 'count(D.sessions.length, "session", "sessions")' in PAGE
