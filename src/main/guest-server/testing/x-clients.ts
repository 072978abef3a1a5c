// Counting an X server's client connections: its open sockets (less the listening one), read from /proc.
import { readdirSync, readlinkSync } from 'node:fs';

export function xClientCount(xServerPid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${xServerPid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${xServerPid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      /* closed meanwhile */
    }
  }
  return Math.max(0, n - 1);
}
