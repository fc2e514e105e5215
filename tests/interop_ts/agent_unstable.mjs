// An agent on the official TypeScript SDK's v1 UNSTABLE entry point
// (@agentclientprotocol/sdk/unstable), speaking ACP on stdin/stdout, for acpgen's
// acp_v1_unstable interop tests. It advertises sessionCapabilities.fork and:
//   session/fork  -> a new session id "<parent>-fork"
//   any prompt    -> an unstable SessionUpdate (plan_removed, planId "plan-1"), then the
//                    text back as one agent_message_chunk, then end_turn
//   /wait         -> says so, then waits for session/cancel (stop reason cancelled)
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/unstable";

const cancels = new Map();
let sessions = 0;

const app = acp
  .agent({ name: "ts-unstable-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
    agentCapabilities: { sessionCapabilities: { fork: {} }, mcpCapabilities: { acp: true } },
    authMethods: [],
    agentInfo: { name: "ts-unstable-agent", version: "2.4.0" },
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `ts-${sessions++}` }))
  .onRequest(acp.methods.agent.session.fork, ({ params }) => ({ sessionId: `${params.sessionId}-fork` }))
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    cancels.get(params.sessionId)?.();
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const { sessionId } = params;
    const cancel = new Promise((resolve) => cancels.set(sessionId, resolve));
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "plan_removed", planId: "plan-1" },
    });
    await client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${sessionId}: ${text}` } },
    });
    if (text.trim() === "/wait") {
      await cancel;
      return { stopReason: "cancelled" };
    }
    return { stopReason: "end_turn" };
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
