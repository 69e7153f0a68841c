/**
 * Who holds a TCP port: for the message of a start whose port is taken, so the user learns which
 * process to stop instead of a bare EADDRINUSE. Linux only (`/proc`); elsewhere, or when the
 * holder belongs to another user, it says so rather than guess.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** A process listening on a port. */
export interface PortHolder {
  pid: number;
  /** Its command line, space-separated. */
  command: string;
}

const LISTEN = "0A";

/** The socket inodes listening on `port`, from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== LISTEN) continue;
      const hexPort = local.slice(local.lastIndexOf(":") + 1);
      if (Number.parseInt(hexPort, 16) === port && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

function holdsSocket(pid: string, sockets: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (sockets.has(target)) return true;
    } catch {
      // The descriptor closed meanwhile.
    }
  }
  return false;
}

/** The processes listening on `port` that this user can see (empty when none or unknown). */
export function portHolders(port: number): PortHolder[] {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return [];
  const sockets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const holders: PortHolder[] = [];
  for (const pid of pids) {
    if (Number(pid) === process.pid || !holdsSocket(pid, sockets)) continue;
    let command = "";
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    } catch {
      // It exited meanwhile.
    }
    holders.push({ pid: Number(pid), command });
  }
  return holders;
}

/** "port 8080 is taken (by pid 1234: node dist/main.js)", or as much as can be known. */
export function portTakenMessage(port: number, host: string): string {
  const holders = portHolders(port);
  const by =
    holders.length === 0
      ? "by a process this user cannot see"
      : `by ${holders.map((h) => `pid ${h.pid}: ${h.command || "?"}`).join("; ")}`;
  return `port ${port} on ${host} is taken (${by}); stop it or set PORT to another port`;
}
