// The official TypeScript SDK's remote client as a peer of the generated server
// (tests/test_remote_interop.py). Usage:
//   node --experimental-websocket remote.mjs URL   its client (ws:// or http://) runs
//       initialize, session/new, a streamed prompt, /permission (answered allow), /wait then
//       session/cancel; prints one JSON line (the observations)
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";

const [url] = process.argv.slice(2);

async function client() {
  const chunks = [];
  const report = {};
  const app = acp
    .client({ name: "ts-remote-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const { update } = params;
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") chunks.push(update.content.text);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0].optionId },
    }));
  const stream = url.startsWith("ws") ? createWebSocketStream(url) : createHttpStream(url);
  const prompt = async (ctx, sessionId, text) => {
    chunks.length = 0;
    const response = await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    return { stopReason: response.stopReason, text: chunks.join(""), chunks: chunks.length };
  };
  try {
    await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
      report.protocolVersion = init.protocolVersion;
      report.agentName = init.agentInfo?.name ?? null;
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
      report.echo = await prompt(ctx, sessionId, Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "));
      report.permission = await prompt(ctx, sessionId, "/permission");
      chunks.length = 0;
      const turn = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/wait" }] });
      while (chunks.length === 0) await new Promise((r) => setTimeout(r, 10));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      report.wait = (await turn).stopReason;
    });
  } catch (error) {
    report.error = { code: error?.code ?? null, message: String(error?.message ?? error) };
  }
  process.stdout.write(JSON.stringify(report) + "\n");
  process.exit(0);
}

await client();
