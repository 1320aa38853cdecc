import { describe, expect, it } from "vitest";
import { CallbackRefused, isPublicAddress, resolveCallback } from "../../sidecar/hub/ssrf.ts";
import { startHub } from "../helpers/hub.ts";

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
        expect((await res.json()).issues[0]).toMatchObject({ path: ["hub.callback"], message: expect.stringMatching(/not a public address/) });
      }
      expect(await h.store.countSubscriptions()).toBe(0);
    } finally {
      await h.close();
    }
  });
});
