// A small ACP v1 agent in Node.js (no dependencies), for `acpgen conformance` from a wheel
// (tests/test_conformance_command.py): an implementation that is not Python.
//
// NDJSON on stdin/stdout. Prompts: "/wait" runs until cancelled (a chunk every 50 ms),
// "/permission" asks for permission first; anything else is answered with one chunk.
import { createInterface } from "node:readline";
import { isAbsolute } from "node:path";

const sessions = new Map(); // sessionId -> { turn: {id, timer, pending} | null }
const waiting = new Map(); // our request id -> callback(message)
let nextSession = 0;
let nextRequest = 0;

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
}
const result = (id, value) => ({ id, result: value });
const error = (id, code, message) => ({ id, error: { code, message } });

function request(method, params, callback) {
  const id = `agent-${++nextRequest}`;
  waiting.set(id, callback);
  send({ id, method, params });
}

function update(sessionId, text) {
  send({
    method: "session/update",
    params: { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
  });
}

function endTurn(session, sessionId, stopReason) {
  const turn = session.turn;
  if (!turn) return;
  clearInterval(turn.timer);
  session.turn = null;
  send(result(turn.id, { stopReason }));
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

function text(prompt) {
  return prompt.filter((b) => isObject(b) && b.type === "text").map((b) => b.text).join(" ");
}

// One message (an object); returns the response to send, or null.
function handle(msg) {
  if (!isObject(msg) || msg.jsonrpc !== "2.0") return error(null, -32600, "Invalid Request");
  const hasId = "id" in msg;
  if (!("method" in msg)) {
    // A response to one of our requests.
    const callback = waiting.get(msg.id);
    if (callback) {
      waiting.delete(msg.id);
      callback(msg);
    }
    return null;
  }
  if (typeof msg.method !== "string") return error(hasId ? msg.id : null, -32600, "Invalid Request");
  const id = msg.id;
  const params = msg.params === undefined ? {} : msg.params;
  if (!hasId) {
    notification(msg.method, params);
    return null;
  }
  if (!isObject(params)) return error(id, -32602, "Invalid params");
  switch (msg.method) {
    case "initialize": {
      if (!Number.isInteger(params.protocolVersion)) return error(id, -32602, "Invalid params: protocolVersion");
      return result(id, {
        protocolVersion: 1,
        agentCapabilities: {
          loadSession: false,
          promptCapabilities: { image: false, audio: false, embeddedContext: false },
          mcpCapabilities: { http: false, sse: false },
        },
        authMethods: [],
        agentInfo: { name: "node-fixture-agent", version: "0.1.0" },
      });
    }
    case "session/new": {
      if (typeof params.cwd !== "string" || !isAbsolute(params.cwd) || !Array.isArray(params.mcpServers)) {
        return error(id, -32602, "Invalid params: cwd must be an absolute path, mcpServers a list");
      }
      const sessionId = `node-session-${++nextSession}`;
      sessions.set(sessionId, { turn: null });
      return result(id, { sessionId });
    }
    case "session/prompt": {
      const session = sessions.get(params.sessionId);
      if (!session) return error(id, -32602, "Invalid params: unknown sessionId");
      if (!Array.isArray(params.prompt)) return error(id, -32602, "Invalid params: prompt must be a list");
      if (session.turn) return error(id, -32600, "a turn is already running in this session");
      const said = text(params.prompt);
      session.turn = { id, timer: null };
      if (said.startsWith("/wait")) {
        update(params.sessionId, "working until cancelled");
        session.turn.timer = setInterval(() => update(params.sessionId, "still working"), 50);
      } else if (said.startsWith("/permission")) {
        const toolCallId = `call-${id}`;
        send({
          method: "session/update",
          params: {
            sessionId: params.sessionId,
            update: { sessionUpdate: "tool_call", toolCallId, title: "Edit a file", kind: "edit", status: "pending" },
          },
        });
        request(
          "session/request_permission",
          {
            sessionId: params.sessionId,
            toolCall: { toolCallId },
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "reject", name: "Reject", kind: "reject_once" },
            ],
          },
          (answer) => {
            if (session.turn && session.turn.id === id) {
              const outcome = answer.result && answer.result.outcome && answer.result.outcome.outcome;
              update(params.sessionId, outcome === "selected" ? "permission answered" : "no permission");
              endTurn(session, params.sessionId, outcome === "cancelled" ? "cancelled" : "end_turn");
            }
          },
        );
      } else {
        update(params.sessionId, `You said: ${said}`);
        endTurn(session, params.sessionId, "end_turn");
      }
      return null;
    }
    default:
      return error(id, -32601, `Method not found: ${msg.method}`);
  }
}

function notification(method, params) {
  if (method === "session/cancel" && isObject(params)) {
    const session = sessions.get(params.sessionId);
    if (session && session.turn) endTurn(session, params.sessionId, "cancelled");
  }
  // Every other notification (unknown ones included) is ignored, as JSON-RPC says.
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    send(error(null, -32700, "Parse error"));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      send(error(null, -32600, "Invalid Request: empty batch"));
      return;
    }
    const answers = value.map(handle).filter((a) => a !== null);
    if (answers.length) process.stdout.write(JSON.stringify(answers.map((a) => ({ jsonrpc: "2.0", ...a }))) + "\n");
    return;
  }
  const answer = handle(value);
  if (answer) send(answer);
});
lines.on("close", () => process.exit(0));
