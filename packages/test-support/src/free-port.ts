/**
 * A free loopback port, for a listener a test cannot give port 0 (a child process that must be
 * told its port, a tool that cannot report the one it picked): the one copy every suite uses.
 */
import { createServer } from "node:net";

/** Asks the OS for a free TCP port on 127.0.0.1 (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port was bound");
  return address.port;
}
