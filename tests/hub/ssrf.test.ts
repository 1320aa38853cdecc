import { createSocket } from "node:dgram";
import { describe, expect, it } from "vitest";
import { CallbackRefused, isPublicAddress, resolveCallback } from "../../sidecar/hub/ssrf.ts";
import { startHub } from "../../harness/hub.ts";

describe("SSRF guard for callbacks", () => {
  it.each([
    "https://127.0.0.1/cb",
    "https://localhost/cb",
    "https://10.1.2.3/cb",
    "https://172.16.0.1/cb",
    "https://192.168.1.1/cb",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/cb",
    "https://[::ffff:127.0.0.1]/cb",
    "https://[::ffff:10.0.0.1]/cb",
    "https://[fe80::1]/cb",
    "https://[fc00::1]/cb",
    "https://0.0.0.0/cb",
    "https://224.0.0.1/cb",
    "https://100.64.0.1/cb",
    "https://240.0.0.1/cb",
  ])("refuses %s", async (url) => {
    await expect(resolveCallback(new URL(url), false)).rejects.toThrow(CallbackRefused);
  });

  // Checked by calling the guard: nothing here is ever dialled.
  it.each([
    ["IPv4-compatible loopback (::/96, deprecated)", "::127.0.0.1"],
    ["the same, as ipaddr.js prints it", "::7f00:1"],
    ["IPv4-compatible link-local (cloud metadata)", "::a9fe:a9fe"],
    ["IPv4-compatible private", "::a00:1"],
    ["IPv4-compatible public (the whole block is deprecated)", "::808:808"],
    ["6to4 of loopback", "2002:7f00:1::1"],
    ["6to4 of a private address", "2002:c0a8:101::1"],
    ["Teredo whose client is loopback", "2001:0:808:808::80ff:fffe"],
    ["Teredo whose server is private", "2001:0:a00:1::f7f7:f7f7"],
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["NAT64 of link-local", "64:ff9b::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::808:808"],
    ["documentation", "2001:db8::1"],
    ["ORCHIDv2", "2001:20::1"],
    ["site-local (deprecated)", "fec0::1"],
    ["discard-only", "100::1"],
    ["outside 2000::/3", "4000::1"],
    ["IPv4 benchmarking", "198.18.0.1"],
    ["IPv4 documentation", "192.0.2.1"],
  ])("judges %s (%s) not public", (_, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ["6to4 of a public address", "2002:808:808::1"],
    ["Teredo with a public server and client", "2001:0:808:808::f7f7:f7f7"],
    ["NAT64 of a public address (an IPv6-only host's DNS64 answers so)", "64:ff9b::808:808"],
    ["IPv4-mapped public", "::ffff:8.8.8.8"],
  ])("judges %s (%s) public", (_, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(["https://[::127.0.0.1]/cb", "https://[::7f00:1]/cb", "https://[64:ff9b::7f00:1]/cb", "https://[2002:7f00:1::1]/cb"])(
    "refuses %s before connecting",
    async (url) => {
      await expect(resolveCallback(new URL(url), false)).rejects.toThrow(/not a public address/);
    },
  );

  it("gives up on a DNS server that never answers after its timeout, with a refusal", async () => {
    // A DNS server on loopback that reads every query and answers none.
    const silent = createSocket("udp4");
    let queries = 0;
    silent.on("message", () => queries++);
    await new Promise<void>((r) => silent.bind(0, "127.0.0.1", r));
    try {
      const started = Date.now();
      const dns = { timeoutMs: 300, servers: [`127.0.0.1:${silent.address().port}`] };
      await expect(resolveCallback(new URL("https://subscriber.invalid/cb"), false, dns)).rejects.toThrow(/does not resolve/);
      expect(queries).toBeGreaterThan(0);
      // c-ares gives up after its timeout (it may double it once); not libuv's thread pool.
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      silent.close();
    }
  });

  it("refuses a name that resolves to a private address", async () => {
    // localhost is a name (not an address literal) that resolves to loopback.
    await expect(resolveCallback(new URL("https://localhost:8443/cb"), false)).rejects.toThrow(/resolves to .* not a public address/);
  });

  it("accepts public addresses, and private ones only when allowed", async () => {
    expect(isPublicAddress("93.184.215.14")).toBe(true);
    expect(isPublicAddress("2606:4700::6810:84e5")).toBe(true);
    await expect(resolveCallback(new URL("https://93.184.215.14/cb"), false)).resolves.toEqual({ address: "93.184.215.14", family: 4 });
    await expect(resolveCallback(new URL("https://127.0.0.1/cb"), true)).resolves.toEqual({ address: "127.0.0.1", family: 4 });
  });

  it("answers a subscription to a private callback with 400 when private callbacks are not allowed", async () => {
    const h = await startHub({ allowPrivateCallbacks: false }, { allowPrivateCallbacks: false });
    try {
      for (const cb of ["https://127.0.0.1/cb", "https://[::ffff:127.0.0.1]/cb", "https://169.254.169.254/cb", "https://localhost/cb"]) {
        const res = await h.subscribe({ "hub.callback": cb });
        expect(res.status, cb).toBe(400);
        expect((await res.json()).issues[0]).toMatchObject({
          path: ["hub.callback"],
          message: expect.stringMatching(/not a public address/),
        });
      }
      expect(await h.store.countSubscriptions()).toBe(0);
    } finally {
      await h.close();
    }
  });
});
