// What every client script here does around its scenario: spawn the agent command, connect
// the SDK client app (of whichever entry point) over its stdio, run the scenario, end the
// agent's input, wait (bounded) for it to exit, and print the report as one JSON line.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";

export async function runClient(acp, app, command, report, scenario) {
  const child = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  try {
    await app.connectWith(stream, scenario);
  } catch (error) {
    report.error = { code: error?.code ?? null, message: String(error?.message ?? error) };
  }
  child.stdin.end();
  const exit = await Promise.race([
    new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    new Promise((resolve) => setTimeout(() => resolve("timeout"), 10000)),
  ]);
  if (exit === "timeout") child.kill("SIGKILL");
  report.agentExit = exit;
  process.stdout.write(JSON.stringify(report) + "\n");
  process.exit(0);
}
