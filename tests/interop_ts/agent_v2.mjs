// An agent on the official TypeScript SDK's v2 entry point
// (@agentclientprotocol/sdk/experimental/v2), speaking ACP v2 on stdin/stdout, for acpgen's
// acp_v2 interop tests: initialize (v2: info, capabilities), session/new, session/prompt
// streaming the text back word by word (agent_message_chunk with a messageId), then the
// idle state update; "/wait" waits for session/cancel.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk/experimental/v2";

const cancels = new Map();
let sessions = 0;

function say(client, sessionId, text) {
  return client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", messageId: "m-1", content: { type: "text", text } },
  });
}

const app = acp
  .agent({ name: "ts-v2-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
    info: { name: "ts-v2-agent", version: "2.4.0" },
    capabilities: { session: {} },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `ts-v2-${sessions++}` }))
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    cancels.get(params.sessionId)?.();
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const { sessionId } = params;
    const cancel = new Promise((resolve) => cancels.set(sessionId, resolve));
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (text.trim() === "/wait") {
      await say(client, sessionId, "waiting for session/cancel");
      await cancel;
      await client.notify(acp.methods.client.session.update, {
        sessionId,
        update: { sessionUpdate: "state_update", state: "idle", stopReason: "cancelled" },
      });
      return {};
    }
    for (const chunk of text.match(/\S+\s*|\s+/g) ?? []) await say(client, sessionId, chunk);
    return {};
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
