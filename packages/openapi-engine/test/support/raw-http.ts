/**
 * Raw HTTP/1.1 over a socket, for what fetch cannot send or hides: two Authorization headers,
 * smuggling attempts, oversized headers, bytes dribbled in slowly, pipelined requests.
 */
import { connect, type Socket } from "node:net";

/** One parsed answer read off a socket. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Opens a socket to `url`'s host and port, from `localAddress` when given (127.0.0.2, ...). */
export function openSocket(url: string, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ...(localAddress ? { localAddress } : {}),
    });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sends on `socket` until it closes it (or `timeoutMs` passes). */
export function readUntilClose(socket: Socket, timeoutMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${timeoutMs} ms:\n${text}`));
    }, timeoutMs);
    socket.on("data", (chunk) => {
      text += String(chunk);
    });
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.once("error", () => {});
  });
}

/** Sends `bytes` on a new connection and returns everything answered before the server closed. */
export async function rawExchange(url: string, bytes: string | Buffer): Promise<string> {
  const socket = await openSocket(url);
  const answer = readUntilClose(socket);
  socket.end(bytes);
  return answer;
}

/** Splits a stream of HTTP/1.1 answers (Content-Length framed) into parsed answers. */
export function parseAnswers(stream: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = stream;
  while (rest.startsWith("HTTP/1.1 ")) {
    const end = rest.indexOf("\r\n\r\n");
    if (end === -1) break;
    const [statusLine = "", ...lines] = rest.slice(0, end).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    const body = Buffer.from(rest.slice(end + 4))
      .subarray(0, length)
      .toString();
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body });
    rest = Buffer.from(rest.slice(end + 4))
      .subarray(length)
      .toString();
  }
  return answers;
}
