/**
 * Callbacks must be public: a hub that fetches whatever address it is given can be pointed at
 * the machine's own services or a cloud metadata endpoint. Every address a callback's host
 * resolves to is checked, and the connection then goes to the address that was checked, so a
 * second DNS answer cannot swap in another (DNS rebinding).
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export class CallbackRefused extends Error {
  override name = "CallbackRefused";
}

/** Only ordinary unicast addresses count as public; IPv4-mapped IPv6 is judged as its IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === "unicast";
}

export interface ResolvedCallback {
  address: string;
  family: 4 | 6;
}

export async function resolveCallback(url: URL, allowPrivate: boolean): Promise<ResolvedCallback> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new CallbackRefused(`the callback host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new CallbackRefused(`the callback host ${host} does not resolve`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new CallbackRefused(`the callback host ${host} resolves to ${bad.address}, which is not a public address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
