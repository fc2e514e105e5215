// A client on the official TypeScript SDK: spawns an agent, runs one scenario, prints one
// JSON object (the observations) on stdout. Usage: node client.mjs SCENARIO -- AGENT-COMMAND...
//   basic      initialize, session/new, a prompt (chunks), /permission (answered allow),
//              /wait then session/cancel
//   abort      N session/new requests, each aborted right after it was sent: every one
//              must settle (result or -32800) within the deadline
//   surrogate  a prompt whose text ends in a lone surrogate (a truncated emoji)
import * as acp from "@agentclientprotocol/sdk";
import { runClient } from "./run_client.mjs";

const [scenario, separator, ...command] = process.argv.slice(2);
if (!scenario || separator !== "--" || command.length === 0) {
  process.stderr.write("usage: node client.mjs SCENARIO -- AGENT-COMMAND...\n");
  process.exit(2);
}

const chunks = new Map(); // session id -> text chunks
const report = { scenario };

const app = acp
  .client({ name: "ts-interop-client" })
  .onNotification(acp.methods.client.session.update, ({ params }) => {
    const { update } = params;
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
      if (!chunks.has(params.sessionId)) chunks.set(params.sessionId, []);
      chunks.get(params.sessionId).push(update.content.text);
    }
  })
  .onRequest(acp.methods.client.session.requestPermission, ({ params }) => ({
    outcome: { outcome: "selected", optionId: params.options[0].optionId },
  }));

function settleWithin(promise, ms) {
  return Promise.race([
    promise.then(
      (result) => ({ ok: true, result }),
      (error) => ({ ok: false, code: error?.code ?? null, message: String(error?.message ?? error) }),
    ),
    new Promise((resolve) => setTimeout(() => resolve({ ok: false, code: "timeout" }), ms)),
  ]);
}

async function prompt(ctx, sessionId, text) {
  chunks.set(sessionId, []);
  const response = await ctx.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return { stopReason: response.stopReason, text: chunks.get(sessionId).join(""), chunks: chunks.get(sessionId).length };
}

const scenarios = {
  async basic(ctx) {
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    report.echo = await prompt(ctx, sessionId, "interop from the official TypeScript client");
    report.permission = await prompt(ctx, sessionId, "/permission");
    chunks.set(sessionId, []);
    const turn = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "/wait" }] });
    while (chunks.get(sessionId).length === 0) await new Promise((r) => setTimeout(r, 10));
    await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    report.wait = (await settleWithin(turn, 10000)).result?.stopReason ?? "unsettled";
  },
  async abort(ctx) {
    const count = Number(process.env.ABORT_COUNT ?? "50");
    const calls = [];
    for (let i = 0; i < count; i++) {
      const controller = new AbortController();
      calls.push(ctx.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] }, { cancellationSignal: controller.signal }));
      controller.abort();
    }
    const outcomes = await Promise.all(calls.map((call) => settleWithin(call, 10000)));
    report.results = outcomes.filter((o) => o.ok).length;
    report.cancelled = outcomes.filter((o) => o.code === -32800).length;
    report.other = outcomes.filter((o) => !o.ok && o.code !== -32800).map((o) => o.code);
  },
  async surrogate(ctx) {
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: "/tmp", mcpServers: [] });
    const outcome = await settleWithin(prompt(ctx, sessionId, "truncated \ud83d"), 10000);
    report.outcome = outcome;
  },
};

await runClient(acp, app, command, report, async (ctx) => {
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {},
    clientInfo: { name: "ts-interop-client", version: "2.4.0" },
  });
  report.protocolVersion = init.protocolVersion;
  report.agentName = init.agentInfo?.name ?? null;
  await scenarios[scenario](ctx);
});
