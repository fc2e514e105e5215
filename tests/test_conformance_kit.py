"""The conformance kit's fixed Python, unit by unit, in place (acpgen/shipped/conformance/)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
from conftest import generated_dir

from acpgen.shipped.conformance import checks_wire as w
from acpgen.shipped.conformance import report
from acpgen.shipped.conformance.client_scenarios import ClientCommandError, client_argv
from acpgen.shipped.conformance.outcome import CheckFailed, CheckSkipped
from acpgen.shipped.conformance.process import Peer, PeerClosed, PeerError, PeerTimeout
from acpgen.shipped.conformance.validate import Validator
from acpgen.shipped.conformance.wire import Frame, Transcript, decode_line, encode

GENERATED = generated_dir()  # generated now into a temporary directory


def _frame(direction: str, message: object, t: float = 0.0) -> Frame:
    return decode_line(direction, encode(message), t)  # type: ignore[arg-type]


def _transcript(*frames: Frame) -> Transcript:
    return Transcript("t", list(frames))


# ---- wire --------------------------------------------------------------------------------------


def test_lines_decode_as_far_as_they_go() -> None:
    assert decode_line("in", b'{"a": 1}\r\n', 0).message == {"a": 1}
    assert decode_line("in", b"\xff\xfe\n", 0).problem == "not UTF-8 (byte 0)"
    assert decode_line("in", b'{"a": \n', 0).problem.startswith("not JSON")  # type: ignore[union-attr]
    frame = decode_line("in", b"[1, 2]\n", 0)
    assert frame.problem is None and not frame.is_object
    assert encode({"t": "a\nb", "é": 1}) == '{"t":"a\\nb","é":1}\n'.encode()


def test_responses_match_requests_by_id_value_and_type() -> None:
    request = _frame("out", {"jsonrpc": "2.0", "id": 1, "method": "m"}, 1.0)
    wrong_type = _frame("in", {"jsonrpc": "2.0", "id": "1", "result": {}}, 2.0)
    boolean = _frame("in", {"jsonrpc": "2.0", "id": True, "result": {}}, 3.0)
    right = _frame("in", {"jsonrpc": "2.0", "id": 1, "result": {}}, 4.0)
    t = _transcript(request, wrong_type, boolean, right)
    assert t.response_to(request) is right
    assert t.request_for(right) is request and t.request_for(wrong_type) is None


# ---- checks over transcripts ------------------------------------------------------------------


def test_wire_checks_name_the_offending_frame() -> None:
    bad = _transcript(_frame("in", {"jsonrpc": "1.0", "id": 1, "result": {}}))
    with pytest.raises(CheckFailed, match='jsonrpc is \'1.0\', not "2.0"'):
        w.version_member([bad])
    with pytest.raises(CheckFailed, match="id is a bool"):
        w.id_types([_transcript(_frame("in", {"jsonrpc": "2.0", "id": True, "method": "x"}))])
    with pytest.raises(CheckFailed, match="fractional"):
        w.ids_no_fraction([_transcript(_frame("in", {"jsonrpc": "2.0", "id": 1.5, "method": "x"}))])
    both = _frame("in", {"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}})
    with pytest.raises(CheckFailed, match="both result and error"):
        w.result_xor_error([_transcript(both)])
    long_error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "x" * 300}}
    with pytest.raises(CheckFailed, match="not one concise sentence"):
        w.error_message_concise([_transcript(_frame("in", long_error))])
    # Short, one line, yet two sentences: a length-only test would pass it (class h).
    two = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32603, "message": "Failed. Try again later."}}
    with pytest.raises(CheckFailed, match=r"not one concise sentence \(2 sentences\)"):
        w.error_message_concise([_transcript(_frame("in", two))])
    for one in ("Invalid request: JSON-RPC batches are not supported", "Bad value, e.g. 1.5 is not allowed",
                "Method not found."):
        assert w.concise_problem(one) is None, one
    with pytest.raises(CheckFailed, match="path 'rel/x' is not absolute"):
        w.absolute_paths([_transcript(_frame("in", {"jsonrpc": "2.0", "method": "fs/read_text_file",
                                                     "id": 1, "params": {"path": "rel/x"}}))])
    with pytest.raises(CheckFailed, match="not a W3C traceparent"):
        w.trace_keys([_transcript(_frame("in", {"jsonrpc": "2.0", "method": "x",
                                                 "params": {"_meta": {"traceparent": "nope"}}}))])
    # A response whose id matches no request: charged where a request before it is owed its
    # answer (the id changed: 9 for "9"), not as a reply to a message that carried no id.
    asked = _frame("out", {"jsonrpc": "2.0", "id": "9", "method": "x"})
    orphan = _frame("in", {"jsonrpc": "2.0", "id": 9, "result": {}})
    with pytest.raises(CheckFailed, match="matches no request"):
        w.response_ids_known([_transcript(asked, orphan)])
    notice = _frame("out", {"jsonrpc": "2.0", "method": "x"})
    w.response_ids_known([_transcript(notice, orphan)])
    # A message split by a raw newline breaks NEWLINE-DELIMITED and, as a line that is no
    # message, STDOUT-ONLY-ACP too (class g: quoted once, at its first line); a log line only
    # STDOUT-ONLY-ACP.
    split = _transcript(decode_line("in", b'{"jsonrpc":"2.0",\n', 0), decode_line("in", b'"method":"x"}\n', 1))
    with pytest.raises(CheckFailed, match="one message over several lines"):
        w.newline_delimited([split])
    with pytest.raises(CheckFailed, match=r'^a line that is not a valid ACP message \(not JSON .*\{"jsonrpc":"2.0",$'):
        w.only_messages([split])
    log = _transcript(decode_line("in", b"starting up...\n", 0))
    w.newline_delimited([log])
    with pytest.raises(CheckFailed, match="not a valid ACP message"):
        w.only_messages([log])


def test_wire_checks_skip_when_the_run_showed_nothing_relevant() -> None:
    quiet = _transcript(_frame("out", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}))
    with pytest.raises(CheckSkipped, match="wrote no message"):
        w.utf8([quiet])
    notification = _transcript(_frame("in", {"jsonrpc": "2.0", "method": "x", "params": {}}))
    with pytest.raises(CheckSkipped, match="sent no response"):
        w.result_on_success([notification])
    with pytest.raises(CheckSkipped, match="no path"):
        w.absolute_paths([notification])


def test_every_absolute_path_spelling_is_accepted() -> None:
    for path in ("/home/x", "C:\\work", "c:/work", "\\\\server\\share\\x"):
        assert w.is_absolute(path), path
    for path in ("rel", "./x", "C:rel", ""):
        assert not w.is_absolute(path), path


@pytest.fixture()
def validator(monkeypatch: pytest.MonkeyPatch) -> Validator:
    monkeypatch.syspath_prepend(str(GENERATED))
    return Validator("acp_v1")


def test_validation_reports_the_first_error_and_undeclared_members(validator: Validator) -> None:
    verdict = validator.result("session/prompt", {"stopReason": "done"})
    assert verdict.problem is not None and verdict.problem.startswith("session/prompt result: stopReason:")
    verdict = validator.result("initialize", {"protocolVersion": 1, "agentCapabilities": {"x": 1}, "y": 2,
                                              "_meta": {"anything": {"goes": 1}}})
    assert verdict.ok and verdict.extra == ("/y", "/agentCapabilities/x")
    assert validator.params("_vendor/thing", [1, 2]).ok  # extension params are arbitrary JSON


# ---- processes ---------------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_missing_command_is_one_clear_error() -> None:
    async def run() -> None:
        peer = Peer(Transcript("t"))
        with pytest.raises(PeerError, match="command not found: '/nonexistent/agent'"):
            await peer.start(["/nonexistent/agent"])
        await peer.close()

    asyncio.run(run())


@pytest.mark.slow
def test_close_kills_and_reaps_the_whole_group_even_a_detached_grandchild(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    script = (
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
        "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"  # ignores the polite way
        "time.sleep(600)\n"
    )

    async def run() -> list[int]:
        peer = Peer(Transcript("t"))
        await peer.start([sys.executable, "-c", script])
        deadline = time.monotonic() + 120  # a bound against a hang: a loaded machine starts slowly
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        started = time.monotonic()
        await peer.close()
        # Bounded by the grace periods, not by the 600 s sleepers (the margin is for load).
        assert time.monotonic() - started < 60
        return [int(p) for p in pids.read_text().split()]

    for pid in asyncio.run(run()):
        deadline = time.monotonic() + 60
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid), pid


@pytest.mark.slow
def test_reads_time_out_and_an_exit_is_reported_with_stderr() -> None:
    async def run() -> None:
        peer = Peer(Transcript("t"))
        await peer.start([sys.executable, "-c", "import time; time.sleep(600)"])
        started = time.monotonic()
        with pytest.raises(PeerTimeout, match="wrote nothing for 0.3 s"):
            await peer.next_frame(0.3)
        assert time.monotonic() - started < 60  # the read's bound, not the 600 s sleeper's
        await peer.close()
        dying = Peer(Transcript("t"))
        await dying.start([sys.executable, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(4)"])
        with pytest.raises(PeerClosed, match="closed its stdout.*stderr: boom"):
            await dying.next_frame(5)
        await dying.close()
        assert dying.transcript.exit_code == 4

    asyncio.run(run())


# ---- client command, report ---------------------------------------------------------------------


def test_the_agent_placeholder_is_spliced_or_quoted() -> None:
    agent = ["/usr/bin/python3", "/kit dir/agent.py", "s.json"]
    assert client_argv(("client", "--", "{agent}"), agent) == ["client", "--", *agent]
    assert client_argv(("client", "--agent={agent}"), agent) == [
        "client", "--agent=/usr/bin/python3 '/kit dir/agent.py' s.json"]
    with pytest.raises(ClientCommandError, match="no {agent} placeholder"):
        client_argv(("client",), agent)


def test_a_probe_s_replies_end_at_the_fence_s_answer_less_late_answers_to_other_requests() -> None:
    from acpgen.shipped.conformance.checks_client import _replies
    from acpgen.shipped.conformance.client_scenarios import ClientRun

    def fence(req_id: str, t: float) -> Frame:
        params = {"sessionId": "s", "toolCall": {"toolCallId": "kit-fence"}, "options": []}
        return _frame("out", {"jsonrpc": "2.0", "id": req_id, "method": "session/request_permission",
                              "params": params}, t)

    earlier = _frame("out", [{"jsonrpc": "2.0", "id": "kit-batch-1", "method": "_x", "params": {}}], 1)
    probe = _frame("out", [{"jsonrpc": "2.0", "method": "_note", "params": {}}], 2)
    late = _frame("in", [{"jsonrpc": "2.0", "id": "kit-batch-1", "result": {}}], 4)  # the earlier batch's
    reply = _frame("in", {"jsonrpc": "2.0", "id": None, "result": None}, 5)  # to the notifications
    after = _frame("in", {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "x"}}, 7)
    frames = [earlier, probe, fence("kit-3", 3), late, reply, _frame("in", {"jsonrpc": "2.0", "id": "kit-3",
              "result": {}}, 6), after]
    run = ClientRun("batch", _transcript(*frames))
    assert _replies(run, probe) == ([reply.responses()[0]], True)
    # No fence answered: the window stays open, and "no reply" is not proven.
    unanswered = ClientRun("batch", _transcript(earlier, probe, fence("kit-3", 3)))
    assert _replies(unanswered, probe) == ([], False)


def test_a_client_run_sees_the_kit_agent_gone_even_killed_and_not_reaped() -> None:
    import os
    import subprocess

    from acpgen.shipped.conformance.client_scenarios import _alive

    assert _alive(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
    assert not _alive(child.pid)
    child.wait()
    assert not _alive(child.pid)


def test_the_report_covers_every_requirement_and_escapes_markdown() -> None:
    requirements = {
        "ACP-V1-A": report.Requirement("ACP-V1-A", "MUST", "agent", "agent", "r"),
        "ACP-V1-B": report.Requirement("ACP-V1-B", "MUST", "client", "client", "r"),
        "ACP-V1-C": report.Requirement("ACP-V1-C", "MAY", "both", "none", "UI only"),
        "ACP-V1-D": report.Requirement("ACP-V1-D", "SHOULD", "both", "both", "r"),
    }
    results = {"ACP-V1-A": report.Result("fail", "answered a|b\nover two lines")}
    built = report.build("agent", "my-agent --x", requirements, results)
    statuses = {e["id"]: (e["status"], e["message"]) for e in built["requirements"]}
    assert statuses == {
        "ACP-V1-A": ("fail", "answered a|b\nover two lines"),
        "ACP-V1-B": ("not observable", "observable only when the implementation under test is a client"),
        "ACP-V1-C": ("not observable", "UI only"),
        "ACP-V1-D": ("not run", ""),
    }
    assert built["counts"] == {"pass": 0, "fail": 1, "skipped": 0, "not observable": 2, "not run": 1, "total": 4}
    markdown = report.to_markdown(built)
    assert "| ACP-V1-A | MUST | fail | answered a\\|b over two lines |" in markdown
    assert "ACP-V1-C" not in markdown
    assert json.loads(report.to_json(built)) == built
    assert any("FAIL" in line and "ACP-V1-A" in line for line in report.text_lines(built))


def test_the_scripted_agent_needs_only_the_standard_library() -> None:
    source = (Path(__file__).resolve().parents[1] / "acpgen" / "shipped" / "conformance" / "scripted_agent.py").read_text()
    imports = {line.split()[1].split(".")[0] for line in source.splitlines()
               if line.startswith(("import ", "from ")) and "__future__" not in line}
    assert imports <= set(sys.stdlib_module_names), imports - set(sys.stdlib_module_names)


def test_the_scripted_agent_answers_a_batch_with_one_array(tmp_path: Path) -> None:
    """JSON-RPC 2.0 batches sent to the kit's agent: one array of the requests' responses, nothing
    for notifications, -32600 (id null) per element that is not an object, and a single -32600
    for an empty batch. A lone request after each batch shows what the batch produced before it."""
    import subprocess

    agent = Path(__file__).resolve().parents[1] / "acpgen" / "shipped" / "conformance" / "scripted_agent.py"
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"mode": "basic", "log": str(tmp_path / "log.jsonl"), "workdir": str(tmp_path)}))

    def req(req_id: object, method: str, params: object = None) -> dict[str, object]:
        return {"jsonrpc": "2.0", "id": req_id, "method": method, "params": params or {}}

    cancel = {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}}
    new = {"cwd": str(tmp_path), "mcpServers": []}
    lines = [
        [req(1, "initialize", {"protocolVersion": 1}), req("b", "session/new", new)],  # requests only
        req("after-1", "_kit/unknown"),
        [cancel, {"jsonrpc": "2.0", "method": "_kit/notice"}],  # notifications only
        req("after-2", "_kit/unknown"),
        [cancel, req(3, "_kit/unknown"), 5],  # mixed, with an element that is not an object
        req("after-3", "_kit/unknown"),
        [],  # empty
        req("after-4", "_kit/unknown"),
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    out = subprocess.run([sys.executable, str(agent), str(script)], input=stdin, capture_output=True, timeout=30, check=True).stdout
    replies = [json.loads(line) for line in out.splitlines()]

    def unknown(req_id: object) -> dict[str, object]:
        return {"jsonrpc": "2.0", "id": req_id, "error": {"code": -32601, "message": "Method not found"}}

    invalid = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    assert len(replies) == 7, replies
    batch = replies[0]
    assert isinstance(batch, list) and sorted(str(r["id"]) for r in batch) == ["1", "b"]
    by_id = {r["id"]: r for r in batch}
    assert by_id[1]["result"]["protocolVersion"] == 1 and by_id["b"]["result"]["sessionId"]
    assert replies[1] == unknown("after-1")
    assert replies[2] == unknown("after-2")  # nothing for the batch of notifications
    assert isinstance(replies[3], list) and sorted(replies[3], key=lambda r: str(r["id"])) == [unknown(3), invalid]
    assert replies[4] == unknown("after-3")
    assert replies[5] == invalid  # an object, not an array, for the empty batch
    assert replies[6] == unknown("after-4")


def test_a_runner_removes_the_scratch_directory_it_made_and_never_the_callers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import tempfile

    from acpgen.shipped.conformance.agent_scenarios import AgentRunner, AgentTarget
    from acpgen.shipped.conformance.client_scenarios import ClientRunner, ClientTarget

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    missing = str(tmp_path / "no-such-command")  # each runner's first run fails at once
    agent, client = AgentTarget(argv=(missing,), timeout=5.0), ClientTarget(argv=(missing, "{agent}"))
    for make, prefix in ((lambda **kw: AgentRunner(agent, **kw), "acp-kit-agent-"),
                         (lambda **kw: ClientRunner(client, **kw), "acp-kit-client-")):
        with make() as runner:
            assert runner.start() is not None
            made = Path(runner.workdir)
            assert made.parent == scratch and made.name.startswith(prefix) and any(made.iterdir())
        assert not list(scratch.iterdir())
        runner.close()  # a second release is harmless
        mine = tmp_path / f"mine-{prefix}"
        mine.mkdir()
        with make(workdir=str(mine)) as runner:
            assert runner.start() is not None
        assert mine.is_dir() and any(mine.iterdir())  # the caller's, with the runs' files
        forgotten = make()  # an owner that never closes: gone with the runner
        assert Path(forgotten.workdir).is_dir()
        del forgotten
        gc.collect()
        assert not list(scratch.iterdir())


def test_the_kit_client_answers_an_elicitation_by_the_modes_it_advertised() -> None:
    from acpgen.shipped.conformance.scripted_client import ClientBehaviour

    def create(mode: str) -> Frame:
        return _frame("in", {"jsonrpc": "2.0", "id": f"e-{mode}", "method": "elicitation/create",
                             "params": {"sessionId": "s", "mode": mode, "message": "?"}})

    silent = ClientBehaviour()
    assert silent.answer(create("form"))["error"]["code"] == -32602  # type: ignore[index]
    both = ClientBehaviour(elicitation=("form", "url"))
    assert both.answer(create("form")) == {"jsonrpc": "2.0", "id": "e-form", "result": {"action": "decline"}}
    assert both.answer(create("_custom"))["error"]["code"] == -32602  # type: ignore[index]
    # A URL elicitation's accept is deferred: sent once the agent's next frame was read.
    assert both.answer(create("url")) is None
    assert both.deferred == [{"jsonrpc": "2.0", "id": "e-url", "result": {"action": "accept"}}]


def test_a_failure_lists_every_observation_that_breaks_it_capped_with_the_count() -> None:
    # Class (f): the first offence does not hide the others.
    frames = [_frame("in", {"jsonrpc": "1.0", "id": n, "result": {}}) for n in range(8)]
    with pytest.raises(CheckFailed) as caught:
        w.version_member([_transcript(*frames)])
    message = str(caught.value)
    assert message.startswith("8 observations break it: (1) jsonrpc is '1.0'")
    assert "(5) " in message and "(6) " not in message and message.endswith("; and 3 more")
