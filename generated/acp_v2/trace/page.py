# Edit acpgen/shipped/trace/page.py, not this file: acpgen generate writes it.
"""The picture: one self-contained HTML page of a trace (``python -m <package>.trace html``).

A sequence view with the client and agent as lanes (a row per frame, its arrow from sender
to receiver), sessions told apart by colour, each response joined to its request, the time
on the side, each frame a failure points at marked with its requirement; selecting a frame
shows its JSON and its failures. The list is virtualised (only the rows in view exist), so a
trace of 50,000 frames opens at once.

A trace is untrusted input. Every string from it reaches the page only as data: one JSON
document in a ``<script type="application/json">`` element, with ``<``, ``>`` and ``&``
escaped so that nothing in it can close the element, which the script reads with
``JSON.parse`` and puts on the page with ``textContent`` (never as markup). The page loads
nothing from anywhere (its Content-Security-Policy forbids it).
"""

from __future__ import annotations

import json
from typing import Any

from .format import Trace
from .judge import Conversation, Verdict, judge, package_name
from .requirements import REQUIREMENTS

__all__ = ["page_data", "render_page"]

KINDS = {"request": "req", "notification": "note", "response": "resp", "error": "err"}


def _kind(frame: Any) -> str:
    if frame.problem is not None or not (frame.is_object or frame.is_batch):
        return "bad"
    if frame.is_batch:
        return "batch"
    if frame.is_request:
        return "req"
    if frame.is_notification:
        return "note"
    return "err" if "error" in frame.message else "resp"


def _label(frame: Any, kind: str) -> str:
    if kind == "bad":
        text = frame.raw.decode("utf-8", errors="backslashreplace").rstrip("\r\n")
        why = (frame.problem or "not a JSON-RPC message").split(" (")[0]
        return f"{why}: {text[:120]}"
    if kind == "batch":
        return f"batch of {len(frame.message)}"
    if kind in ("req", "note"):
        params = frame.get("params")
        update = params.get("update") if isinstance(params, dict) else None
        detail = update.get("sessionUpdate") if isinstance(update, dict) else None
        text = str(frame.method)
        if kind == "req":
            text += f"  #{json.dumps(frame.get('id'))}"
        return f"{text}  {detail}" if isinstance(detail, str) else text
    if kind == "err":
        error = frame.get("error")
        code = error.get("code") if isinstance(error, dict) else error
        return f"error {json.dumps(code)}  #{json.dumps(frame.get('id'))}"
    return f"result  #{json.dumps(frame.get('id'))}"


def page_data(trace: Trace, verdicts: list[Verdict]) -> dict[str, Any]:
    """Everything the page shows, as plain JSON (rows as arrays: the page may hold 50,000)."""
    c = Conversation.of(trace)
    joined: dict[int, int] = {}
    session_of: dict[int, Any] = {}
    for e in c.exchanges:
        if e.request.number is None:
            continue
        for r in e.responses[:1]:
            if r.number is not None:
                joined[e.request.number] = r.number
                joined.setdefault(r.number, e.request.number)
                session_of[r.number] = e.session
    sessions: dict[str, int] = {}
    failing: dict[int, list[str]] = {}
    for v in verdicts:
        if v.status == "fail":
            for n in v.frames:
                failing.setdefault(n, []).append(v.req_id)
    rows = []
    for frame in c.frames:
        number = frame.number or 0
        kind = _kind(frame)
        params = frame.get("params")
        session = params.get("sessionId") if isinstance(params, dict) else session_of.get(number)
        result = frame.get("result")
        if session is None and isinstance(result, dict):
            session = result.get("sessionId")
        index = sessions.setdefault(str(session), len(sessions)) if session is not None else -1
        rows.append(
            [
                number,
                0 if frame.direction == "out" else 1,
                frame.time,
                kind,
                _label(frame, kind),
                index,
                joined.get(number, 0),
                sorted(set(failing.get(number, []))),
                frame.raw.decode("utf-8", errors="backslashreplace"),
            ]
        )
    wording = {v.req_id: REQUIREMENTS.get(v.req_id, ("", "", ""))[2] for v in verdicts}
    return {
        "package": package_name(),
        "header": trace.header,
        "end": trace.end,
        "sessions": list(sessions),
        "rows": rows,
        "failures": [
            {**v.to_json(), "wording": wording[v.req_id]} for v in verdicts if v.status == "fail"
        ],
    }


def _script_json(value: Any) -> str:
    """JSON that cannot end the script element it sits in, whatever its strings hold."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_page(trace: Trace, title: str) -> str:
    from ..conformance.validate import Validator

    verdicts: list[Verdict] = []
    if REQUIREMENTS:
        try:
            validator: Validator | None = Validator(package_name())
        except ImportError:
            validator = None
        verdicts = judge(trace, validator)
    data = page_data(trace, verdicts)
    data["title"] = title
    return PAGE.replace("/*DATA*/", _script_json(data))


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ACP trace</title>
<style>
:root { --row: 24px; font: 13px/1.4 system-ui, sans-serif; color: #1d232a; }
body { margin: 0; display: grid; grid-template-rows: auto auto auto 1fr; height: 100vh; }
header { padding: 8px 12px; background: #24292f; color: #fff; display: flex; gap: 16px;
  align-items: baseline; }
header h1 { font-size: 15px; margin: 0; }
#summary { color: #c9d1d9; }
#failures { max-height: 22vh; overflow: auto; background: #fff5f5; border-bottom: 1px solid #e5b5b5; }
#failures:empty { display: none; }
.failure { padding: 4px 12px; border-top: 1px solid #f0d0d0; cursor: pointer; }
.failure b { color: #b3261e; }
.failure q { color: #555; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); min-height: 0; }
#list-head, .row { display: grid; grid-template-columns: 48px 128px 1fr 1fr 220px; }
#list-head { font-weight: 600; border-bottom: 1px solid #ccc; background: #f6f8fa; }
#list-head > span { padding: 4px 6px; }
#left { display: grid; grid-template-rows: auto 1fr; min-height: 0; }
#list { overflow-y: auto; position: relative; }
#spacer { width: 1px; }
#rows { position: absolute; top: 0; left: 0; right: 0; }
.row { height: var(--row); align-items: center; cursor: pointer; white-space: nowrap;
  border-left: 5px solid transparent; box-sizing: border-box; }
.row:hover { background: #f3f6fa; }
.row.selected { background: #dbe9ff; }
.row.failing { background: #ffe9e7; }
.row.failing.selected { background: #ffd0cb; }
.row > span { overflow: hidden; text-overflow: ellipsis; padding: 0 6px; }
.n { color: #888; text-align: right; }
.time { color: #555; font-variant-numeric: tabular-nums; }
.msg { grid-column: 3 / span 2; position: relative; border-bottom: 2px solid #6e7781; height: 14px;
  line-height: 12px; font-size: 12px; margin: 0 12px; padding: 0 4px !important; }
.msg::after { content: ""; position: absolute; bottom: -6px; border: 5px solid transparent; }
.to-agent .msg::after { right: -6px; border-left: 7px solid #6e7781; }
.to-client .msg { text-align: right; }
.to-client .msg::after { left: -6px; border-right: 7px solid #6e7781; }
.kind-resp .msg, .kind-err .msg { border-bottom-style: dashed; }
.kind-err .msg { color: #8a5300; }
.kind-bad .msg { color: #b3261e; font-style: italic; border-bottom-color: #b3261e; }
.kind-note .msg { color: #4a5560; }
.marks { color: #b3261e; font-weight: 600; font-size: 11px; }
aside { border-left: 1px solid #ccc; overflow: auto; padding: 8px 12px; min-height: 0; }
aside pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: 8px;
  font: 12px/1.4 ui-monospace, monospace; }
aside button { font: inherit; }
.lane-client { text-align: left; } .lane-agent { text-align: right; }
#legend { padding: 4px 12px; background: #f6f8fa; border-bottom: 1px solid #ccc; font-size: 12px;
  color: #4a5560; display: flex; flex-wrap: wrap; gap: 4px 14px; }
#legend b { color: #1d232a; font-weight: 600; }
#legend .fail { color: #b3261e; font-weight: 600; }
#legend .err { color: #8a5300; }
#legend .swatch { display: inline-block; width: 5px; height: 12px; vertical-align: middle;
  margin-right: 3px; }
</style>
</head>
<body>
<header><h1 id="title"></h1><span id="summary"></span></header>
<div id="legend">
 <span><b>solid arrow</b> request or notification, <b>dashed</b> its answer</span>
 <span><b>#N</b> the JSON-RPC id</span>
 <span><b>&harr; N</b> the frame of its request or answer (select the row to jump)</span>
 <span class="err">brown: an error answer</span>
 <span class="fail">red: a failed requirement (row, fails column) or a malformed line</span>
 <span id="legend-sessions"><b>left edge</b> the session: </span>
</div>
<div id="failures"></div>
<main>
 <div id="left">
  <div id="list-head"><span>#</span><span>time (s)</span>
   <span class="lane-client">client</span><span class="lane-agent">agent</span><span>fails</span></div>
  <div id="list" tabindex="0"><div id="spacer"></div><div id="rows"></div></div>
 </div>
 <aside id="detail"><p>Select a frame to see its JSON.</p></aside>
</main>
<script id="trace-data" type="application/json">/*DATA*/</script>
<script>
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const R = D.rows, N = R.length, ROW = 24, OVERSCAN = 15;
  const byNumber = new Map();
  R.forEach((r, i) => byNumber.set(r[0], i));
  const list = document.getElementById("list"), rows = document.getElementById("rows");
  const detail = document.getElementById("detail");
  document.getElementById("spacer").style.height = (N * ROW) + "px";
  document.getElementById("title").textContent = D.title;
  const failing = R.filter(r => r[7].length).length;
  function count(n, one, many) { return n + " " + (n === 1 ? one : many); }
  document.getElementById("summary").textContent =
    count(N, "frame", "frames") + " · " + count(D.sessions.length, "session", "sessions") + " · " +
    (D.failures.length ? count(D.failures.length, "failed requirement", "failed requirements") +
      " on " + count(failing, "frame", "frames") : "no failed requirement") +
    (D.end ? "" : " · recording cut off");
  let selected = -1;
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Session hues keep clear of red, which marks failures and nothing else; past eight
  // sessions the hues repeat, darker.
  const HUES = [210, 130, 275, 45, 185, 95, 240, 160];
  function colour(session) {
    if (session < 0) return "transparent";
    const shade = Math.floor(session / HUES.length) % 2 ? 32 : 45;
    return "hsl(" + HUES[session % HUES.length] + ",60%," + shade + "%)";
  }
  const legend = document.getElementById("legend-sessions");
  D.sessions.slice(0, 8).forEach((id, i) => {
    const sw = el("span", "swatch");
    sw.style.background = colour(i);
    legend.append(sw, document.createTextNode(id + (i + 1 < Math.min(8, D.sessions.length) ? ", " : "")));
  });
  if (D.sessions.length > 8) legend.append(document.createTextNode(" \u2026"));
  if (!D.sessions.length) legend.append(document.createTextNode("none"));
  function row(i) {
    const r = R[i];
    const e = el("div", "row kind-" + r[3] + (r[1] === 0 ? " to-agent" : " to-client"));
    if (r[7].length) e.classList.add("failing");
    if (i === selected) e.classList.add("selected");
    e.dataset.n = r[0];
    e.style.borderLeftColor = colour(r[5]);
    const prev = i > 0 ? R[i - 1][2] : 0;
    e.append(el("span", "n", String(r[0])),
      el("span", "time", r[2].toFixed(3) + " +" + ((r[2] - prev) * 1000).toFixed(0) + "ms"),
      el("span", "msg", r[4] + (r[6] ? "  \\u2194 " + r[6] : "")),
      el("span", "marks", r[7].map(id => id.replace("ACP-V1-", "")).join(", ")));
    e.title = (r[1] === 0 ? "client \\u2192 agent" : "agent \\u2192 client") +
      (r[5] >= 0 ? " · session " + D.sessions[r[5]] : "");
    e.addEventListener("click", () => select(i));
    return e;
  }
  let drawn = "";
  function draw() {
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - OVERSCAN);
    const last = Math.min(N, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + OVERSCAN);
    const key = first + ":" + last + ":" + selected;
    if (key === drawn) return;
    drawn = key;
    const made = [];
    for (let i = first; i < last; i++) made.push(row(i));
    rows.style.transform = "translateY(" + (first * ROW) + "px)";
    rows.replaceChildren(...made);
  }
  function reveal(i) {
    const top = i * ROW;
    if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight)
      list.scrollTop = Math.max(0, top - list.clientHeight / 3);
  }
  function pretty(text) {
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }
  function jump(n) {
    const i = byNumber.get(n);
    if (i !== undefined) { select(i); reveal(i); }
  }
  function select(i) {
    selected = i;
    const r = R[i];
    detail.replaceChildren();
    detail.append(el("h3", "", "frame " + r[0] + " · " + (r[1] === 0 ? "client \\u2192 agent" :
      "agent \\u2192 client") + " · " + r[2].toFixed(6) + " s"));
    if (r[5] >= 0) detail.append(el("p", "", "session " + D.sessions[r[5]]));
    if (r[6]) {
      const b = el("button", "", (r[3] === "req" ? "its response: frame " : "its request: frame ") + r[6]);
      b.addEventListener("click", () => jump(r[6]));
      detail.append(b);
    }
    for (const f of D.failures) {
      if (!f.frames.includes(r[0])) continue;
      const p = el("p", "");
      p.append(el("b", "", f.req_id + " (" + f.side + ", " + f.keyword + ")"), el("br"),
        el("q", "", f.wording), el("br"), el("span", "", f.detail));
      detail.append(p);
    }
    detail.append(el("pre", "", pretty(r[8].replace(/\\n$/, ""))));
    drawn = "";
    draw();
  }
  const box = document.getElementById("failures");
  for (const f of D.failures) {
    const e = el("div", "failure");
    e.dataset.frames = f.frames.join(" ");
    e.append(el("b", "", f.req_id), document.createTextNode(" (" + f.side + ") frames " +
      f.frames.join(", ") + ": "), el("q", "", f.wording), el("br"), el("span", "", f.detail));
    if (f.frames.length) e.addEventListener("click", () => jump(f.frames[f.frames.length - 1]));
    box.append(e);
  }
  list.addEventListener("scroll", draw, { passive: true });
  window.addEventListener("resize", () => { drawn = ""; draw(); });
  list.addEventListener("keydown", ev => {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    ev.preventDefault();
    const i = Math.min(N - 1, Math.max(0, selected + (ev.key === "ArrowDown" ? 1 : -1)));
    select(i); reveal(i);
  });
  draw();
  window.traceView = { frames: N, ready: performance.now() };
})();
</script>
</body>
</html>
"""
