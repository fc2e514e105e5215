// An echo agent on the official TypeScript SDK, speaking ACP on stdin/stdout (echo_app.mjs
// holds its prompt commands).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { echoAgent } from "./echo_app.mjs";

const connection = echoAgent.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
