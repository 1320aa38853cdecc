/** The sidecar's settings: each default stated once (the schema), the README's table agreeing with it, every mapping from it. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SettingsError } from "../../core/settings.ts";
import { SERVER_LIMITS, serverLimitsOf } from "../../sidecar/http/server.ts";
import { DEFAULT_HUB_OPTIONS, hubOptionsOf } from "../../sidecar/hub/hub.ts";
import { hubRouteOptionsOf } from "../../sidecar/hub/route.ts";
import { DEFAULT_SETTINGS, SidecarSettings, sidecarSettings } from "../../sidecar/settings.ts";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The README's settings table: each variable with the default it shows. */
function documented(): Map<string, string> {
  const table = README.slice(README.indexOf("## Settings"), README.indexOf("## Routes"));
  const rows = new Map<string, string>();
  for (const line of table.split("\n").filter((l) => l.startsWith("| `"))) {
    const [names, defaults] = line.split(" | ");
    const vars = [...names!.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
    const values = defaults!.split(" / ").map((d) => d.replace(/`/g, "").trim());
    vars.forEach((v, i) => rows.set(v, values.length === vars.length ? values[i]! : values[0]!));
  }
  return rows;
}

describe("the sidecar's settings", () => {
  it("are all in the README's table, each with the schema's default", () => {
    const shown = documented();
    for (const name of Object.keys(SidecarSettings.shape)) {
      expect(shown.has(name), `${name} in the README`).toBe(true);
      const value = DEFAULT_SETTINGS[name as keyof SidecarSettings];
      if (typeof value === "number" || typeof value === "boolean") expect(shown.get(name), name).toBe(String(value));
      else if (value instanceof Set) expect(shown.get(name), name).toBe([...value].join(","));
      else if (typeof value === "string" && !name.endsWith("_REPORT")) expect(shown.get(name), name).toBe(value);
    }
  });

  it("give the modules their defaults", () => {
    expect(SERVER_LIMITS).toEqual(serverLimitsOf(sidecarSettings({})));
    expect(DEFAULT_HUB_OPTIONS).toEqual(hubOptionsOf(sidecarSettings({})));
  });

  it("set the hub's outbound limits", () => {
    const s = sidecarSettings({
      HUB_CONNECT_TIMEOUT_SECONDS: "2",
      HUB_DELIVERY_TIMEOUT_SECONDS: "9",
      HUB_STALL_SECONDS: "3",
      HUB_CONCURRENCY: "8",
      HUB_LARGE_CONCURRENCY: "2",
      HUB_MAX_SOCKETS: "16",
      HUB_ALLOW_PRIVATE_CALLBACKS: "true",
    });
    const hub = hubOptionsOf(s);
    expect(hub.outbound).toMatchObject({ connectTimeoutMs: 2_000, totalTimeoutMs: 9_000, stallMs: 3_000, maxSockets: 16 });
    expect(hub).toMatchObject({ concurrency: 8, largeConcurrency: 2, allowPrivateCallbacks: true });
    expect(hubRouteOptionsOf(s).allowPrivateCallbacks).toBe(true);
  });

  it("refuse a time-out of 0 or a count of none, naming the variable", () => {
    expect(() => sidecarSettings({ HUB_STALL_SECONDS: "0", HUB_CONCURRENCY: "0" })).toThrow(SettingsError);
    expect(() => sidecarSettings({ HUB_STALL_SECONDS: "0" })).toThrow(
      /HUB_STALL_SECONDS="0": expected a whole number of seconds, at least 1/,
    );
    expect(() => sidecarSettings({ HUB_CONCURRENCY: "0" })).toThrow(/HUB_CONCURRENCY="0": expected a whole number, at least 1/);
  });
});
