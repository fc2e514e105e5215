// The echo agent of the official TypeScript SDK: an agent app, served on stdio by agent.mjs and
// remotely by remote_agent.mjs.
// The same prompt commands as the generated example echo agent, plus one to read a file:
//   any text      -> streamed back word by word as agent_message_chunk, then end_turn
//   /permission   -> asks the client; echoes "permission: <outcome or option id>"
//   /wait         -> says so, then waits for session/cancel (stop reason cancelled)
//   /read PATH    -> fs/read_text_file through the client, echoes the content
import * as acp from "@agentclientprotocol/sdk";

const cancels = new Map(); // session id -> resolve function of the running turn's cancel promise
let sessions = 0;

function say(client, sessionId, text) {
  return client.notify(acp.methods.client.session.update, {
    sessionId,
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });
}

export const echoAgent = acp
  .agent({ name: "ts-echo-agent" })
  .onRequest(acp.methods.agent.initialize, ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
    agentCapabilities: {},
    authMethods: [],
    agentInfo: { name: "ts-echo-agent", version: "2.4.0" },
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `ts-${sessions++}` }))
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    cancels.get(params.sessionId)?.();
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const { sessionId } = params;
    let cancelled = false;
    const cancel = new Promise((resolve) => {
      cancels.set(sessionId, () => {
        cancelled = true;
        resolve();
      });
    });
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
    const command = text.trim();
    if (command === "/wait") {
      await say(client, sessionId, "waiting for session/cancel");
      await cancel;
      return { stopReason: "cancelled" };
    }
    if (command === "/permission") {
      const response = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId: "ts-call", title: "Echo" },
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      const outcome = response.outcome;
      await say(client, sessionId, `permission: ${outcome.outcome === "selected" ? outcome.optionId : outcome.outcome}`);
      return { stopReason: cancelled ? "cancelled" : "end_turn" };
    }
    if (command.startsWith("/read ")) {
      const file = await client.request(acp.methods.client.fs.readTextFile, {
        sessionId,
        path: command.slice("/read ".length),
      });
      await say(client, sessionId, file.content);
      return { stopReason: "end_turn" };
    }
    for (const chunk of text.match(/\S+\s*|\s+/g) ?? []) {
      if (cancelled) return { stopReason: "cancelled" };
      await say(client, sessionId, chunk);
    }
    return { stopReason: cancelled ? "cancelled" : "end_turn" };
  });
