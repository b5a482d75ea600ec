// The least a Node process can do in the gateway's place, for gateway/bench/distributed.ts: HTTP/1.1 in, the user
// service's Hello over one HTTP/2 session out (Connect or gRPC, binary), its answer back as JSON. No routing, no
// header policy, no request id, no protobuf library: what it costs is what any hop written in Node pays on this
// machine, so its ratio to a direct call is the ceiling of the gateway's. Prints the port it listens on.
//
//   node --experimental-transform-types gateway/bench/bare-hop.ts http://127.0.0.1:<user service port> [connect|grpc]
import http from "node:http";
import http2 from "node:http2";

const [target, protocol = "connect"] = process.argv.slice(2);
if (!target || (protocol !== "connect" && protocol !== "grpc")) {
  throw new Error("usage: bare-hop.ts <user service URL> [connect|grpc]");
}
const grpc = protocol === "grpc";
const headers = {
  ":method": "POST",
  ":path": "/tt.user.v1.AuthService/Hello",
  ...(grpc ? { "content-type": "application/grpc+proto", te: "trailers" } : { "content-type": "application/proto" }),
};
// An empty HelloRequest: no bytes, or gRPC's envelope of none (not compressed, length 0).
const request = grpc ? Buffer.alloc(5) : Buffer.alloc(0);
const session = http2.connect(target);

const server = http.createServer((req, res) => {
  req.resume();
  const call = session.request(headers);
  const chunks: Buffer[] = [];
  call.on("data", (chunk: Buffer) => chunks.push(chunk));
  call.on("end", () => {
    // HelloResponse holds two short strings (service = 1, version = 2): a tag byte, a length byte, the bytes each.
    const body = Buffer.concat(chunks).subarray(grpc ? 5 : 0);
    const fields: Record<string, string> = {};
    for (let at = 0; at + 1 < body.length; at += 2 + body[at + 1]!) {
      fields[body[at] === 0x0a ? "service" : "version"] = body.toString("utf8", at + 2, at + 2 + body[at + 1]!);
    }
    const json = JSON.stringify(fields);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
    res.end(json);
  });
  call.end(request);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log((server.address() as { port: number }).port));
