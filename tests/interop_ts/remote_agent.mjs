// The official TypeScript SDK's remote server (`/experimental/server`, AcpServer) serving its
// echo agent (echo_app.mjs) on 127.0.0.1, for tests/test_remote_interop.py. Usage:
//   node remote_agent.mjs [--sdk-h2-adapter]
// prints "http://127.0.0.1:PORT/acp" on stdout once it listens; SIGTERM closes it.
//
// One port speaks both profiles, as the RFD's one endpoint: a connection that opens with the
// HTTP/2 preface (prior knowledge, what Streamable HTTP requires) goes to a node http2 server,
// any other to a node HTTP/1.1 server whose WebSocket upgrades the SDK's own adapter
// (createNodeWebSocketUpgradeHandler, with the `ws` package) hands to AcpServer.
//
// The SDK ships no HTTP/2 glue: its createNodeHttpHandler copies node's request headers into a
// fetch `Headers`, and under HTTP/2 those include the pseudo-headers (`:method`, `:path`, ...),
// which `Headers` refuses (HTTP/2 500 `Headers.set: ":method" is an invalid header name.`). With --sdk-h2-adapter the http2 server uses that handler anyway
// (the reproduction of that limit); by default it uses the few lines of glue below, which
// build the fetch Request from the regular headers only and stream the Response back.
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { Readable } from "node:stream";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";
import { WebSocketServer } from "ws";
import { echoAgent } from "./echo_app.mjs";

const useSdkAdapter = process.argv.includes("--sdk-h2-adapter");
const acpServer = new AcpServer({ agent: echoAgent });
const sdkHandler = createNodeHttpHandler(acpServer);

function notFound(res) {
  res.statusCode = 404;
  res.end();
}

// HTTP/1.1: the SDK's adapters (plain requests, and the WebSocket upgrade).
const http1 = http.createServer((req, res) => (req.url === "/acp" ? sdkHandler(req, res) : notFound(res)));
const webSockets = new WebSocketServer({ noServer: true });
const upgrade = createNodeWebSocketUpgradeHandler(acpServer, webSockets);
http1.on("upgrade", (req, socket, head) => (req.url === "/acp" ? upgrade(req, socket, head) : socket.destroy()));

// HTTP/2 (cleartext, prior knowledge).
async function h2Handler(req, res) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.startsWith(":")) continue; // pseudo-headers: not fetch headers
    for (const item of [value].flat()) headers.append(name, item);
  }
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const response = await acpServer.handleRequest(
    new Request(`http://${req.headers[":authority"]}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? Readable.toWeb(req) : undefined,
      duplex: "half",
      signal: abort.signal,
    }),
  );
  // HTTP/2 has no connection-specific headers (the SSE response's `Connection: keep-alive`).
  const fields = Object.fromEntries([...response.headers].filter(([name]) => name !== "connection"));
  res.writeHead(response.status, fields);
  res.flushHeaders();
  if (response.body === null) return res.end();
  try {
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch {
    res.destroy();
  }
}
// maxConcurrentStreams: node names no limit in its SETTINGS by default (RFC 9113: then there
// is none), and httpx2 (httpcore2 2.16.2, the generated client's HTTP/2) opens one stream at a
// time until a server names its limit, so the client's long-lived SSE stream would hold every
// later request back (docs/remote.md, Interop).
const http2Server = http2.createServer({ settings: { maxConcurrentStreams: 100 } }, (req, res) => {
  if (req.url !== "/acp") return notFound(res);
  if (useSdkAdapter) return sdkHandler(req, res);
  h2Handler(req, res).catch((error) => {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(error?.message ?? error));
  });
});

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
const sockets = new Set();
const listener = net.createServer((socket) => {
  sockets.add(socket);
  socket.once("close", () => sockets.delete(socket));
  socket.once("readable", () => {
    const head = socket.read(PREFACE.length) ?? socket.read();
    if (head === null) return socket.destroy();
    socket.unshift(head);
    (head.equals(PREFACE) ? http2Server : http1).emit("connection", socket);
  });
});

listener.listen(0, "127.0.0.1", () => {
  process.stdout.write(`http://127.0.0.1:${listener.address().port}/acp\n`);
});

process.once("SIGTERM", async () => {
  await acpServer.close();
  listener.close();
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
