// A plain TCP client for tests of what a server does with a connection itself (timeouts, caps, half-sent
// requests): it records what the server sent and when it closed the connection.
import net from "node:net";

export interface RawConnection {
  socket: net.Socket;
  /** Resolves when the server has closed the connection: what it sent, and ms since `since`. */
  closed: Promise<{ data: string; ms: number; error?: string }>;
  /** When the connection was established (performance.now()). */
  since: number;
}

/** Connects to the host and port of `url`, from `localAddress` when given (any of 127/8 on Linux). */
export function rawConnection(url: string, localAddress?: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    let data = "";
    let error: string | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (data += chunk));
    socket.on("error", (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
    const client: RawConnection = {
      socket,
      since: performance.now(),
      closed: new Promise((done) =>
        socket.once("close", () => done({ data, ms: performance.now() - client.since, error })),
      ),
    };
    socket.once("connect", () => {
      client.since = performance.now();
      resolve(client);
    });
    socket.once("error", reject);
  });
}
