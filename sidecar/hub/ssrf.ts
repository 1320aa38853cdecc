/**
 * Callbacks must be public: a hub that fetches whatever address it is given can be pointed at
 * the machine's own services or a cloud metadata endpoint. Every address a callback's host
 * resolves to is checked, and the connection then goes to the address that was checked, so a
 * second DNS answer cannot swap in another (DNS rebinding).
 */
import { Resolver } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export class CallbackRefused extends Error {
  override name = "CallbackRefused";
}

/**
 * Only plainly global unicast addresses count as public. IPv6 must lie in 2000::/3, the global
 * unicast block (so the deprecated IPv4-compatible ::/96 — `::7f00:1` is 127.0.0.1, which
 * ipaddr.js calls "unicast" — and every other special block are out); IPv4-mapped addresses are
 * judged as their IPv4, and the forms that carry an IPv4 inside (NAT64 64:ff9b::/96, RFC 6052;
 * 6to4 2002::/16, RFC 3056; Teredo 2001::/32, RFC 4380) only when every IPv4 they embed is public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv4") return ip.range() === "unicast";
  const v6 = ip as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return embedded.every((v4) => v4.range() === "unicast");
  return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST);
}

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];
const NAT64 = ipaddr.parseCIDR("64:ff9b::/96") as [ipaddr.IPv6, number];

/** The IPv4 addresses an IPv6 address stands for, when it is one of the forms that embed them. */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const w = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  if (ip.isIPv4MappedAddress()) return [ip.toIPv4Address()];
  if (ip.match(NAT64)) return [v4(w[6]!, w[7]!)];
  switch (ip.range()) {
    case "6to4":
      return [v4(w[1]!, w[2]!)];
    case "teredo":
      // The server's address in bits 32-63; the client's, inverted, in the last 32.
      return [v4(w[2]!, w[3]!), v4(~w[6]! & 0xffff, ~w[7]! & 0xffff)];
    default:
      return undefined;
  }
}

/**
 * Names are resolved with c-ares (dns.Resolver), not getaddrinfo: dns.lookup runs on libuv's
 * shared pool of 4 threads, where a slow DNS server would stall file reads, and has no timeout.
 * "localhost" and its subdomains are loopback without asking anyone (RFC 6761 §6.3).
 */
async function resolveName(host: string, dns: DnsOptions): Promise<{ address: string; family: number }[]> {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost"))
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  const resolver = new Resolver({ timeout: dns.timeoutMs, tries: 1 });
  if (dns.servers) resolver.setServers(dns.servers);
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
  return [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
  ];
}

export interface ResolvedCallback {
  address: string;
  family: 4 | 6;
}

export interface DnsOptions {
  /** How long one query may take. */
  timeoutMs: number;
  /** DNS servers to ask instead of the system's (tests). */
  servers?: string[];
}

export async function resolveCallback(url: URL, allowPrivate: boolean, dns: DnsOptions = { timeoutMs: 5_000 }): Promise<ResolvedCallback> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    addresses = await resolveName(host, dns);
  }
  if (addresses.length === 0) throw new CallbackRefused(`the callback host ${host} does not resolve`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new CallbackRefused(`the callback host ${host} resolves to ${bad.address}, which is not a public address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
