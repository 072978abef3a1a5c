// Small pieces of `proctor serve`'s remote use: the addresses a browser on another machine can open (a wildcard
// bind is no address), and reading the token cookie.
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

const wildcards = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0', '']);

/**
 * Hosts to print for a server bound to `host`: the host itself, or — bound to every interface — each
 * non-internal IPv4 address of the machine (loopback when it has none).
 */
export function reachableHosts(
  host: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  if (!wildcards.has(host)) return [host];
  const found = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
  const unique = [...new Set(found)];
  return unique.length ? unique : [host.includes(':') ? '::1' : '127.0.0.1'];
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
