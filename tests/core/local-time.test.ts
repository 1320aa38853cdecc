import { describe, expect, it } from "vitest";
import { latestMoment, localMidnight, toUtc } from "../../core/local-time.ts";

describe("localMidnight", () => {
  it("gives a winter date in California its standard-time offset", () => {
    expect(localMidnight("2026-11-18", "America/Los_Angeles")).toBe("2026-11-18T00:00:00-08:00");
  });

  it("gives a summer date its daylight-saving offset, also on the night the clocks change", () => {
    expect(localMidnight("2026-07-04", "America/Los_Angeles")).toBe("2026-07-04T00:00:00-07:00");
    // Clocks go back at 02:00 on 2026-11-01 and forward at 02:00 on 2026-03-08: midnight is before.
    expect(localMidnight("2026-11-01", "America/Los_Angeles")).toBe("2026-11-01T00:00:00-07:00");
    expect(localMidnight("2026-03-08", "America/Los_Angeles")).toBe("2026-03-08T00:00:00-08:00");
  });

  it("writes offsets ahead of UTC and in half hours", () => {
    expect(localMidnight("2026-01-15", "Asia/Kolkata")).toBe("2026-01-15T00:00:00+05:30");
    expect(localMidnight("2026-01-15", "Pacific/Auckland")).toBe("2026-01-15T00:00:00+13:00");
  });

  it("is UTC midnight without a zone, and for a zone at UTC", () => {
    expect(localMidnight("2026-01-15")).toBe("2026-01-15T00:00:00Z");
    expect(localMidnight("2026-01-15", "Etc/UTC")).toBe("2026-01-15T00:00:00Z");
  });

  it("names a moment that is that date at 00:00 where the business is", () => {
    const time = localMidnight("2026-11-18", "America/Los_Angeles");
    const shown = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Los_Angeles", dateStyle: "short", timeStyle: "short" }).format(
      new Date(time),
    );
    expect(shown).toBe("2026-11-18 00:00");
  });
});

describe("latestMoment and toUtc", () => {
  it("compare timestamps by the moment they name, whatever their offsets", () => {
    // 00:00 at -08:00 is 08:00Z: later than 07:00Z, earlier than 09:00Z.
    expect(latestMoment(["2026-11-18T00:00:00-08:00", "2026-11-18T07:00:00Z"])).toBe("2026-11-18T00:00:00-08:00");
    expect(latestMoment(["2026-11-18T00:00:00-08:00", "2026-11-18T09:00:00Z", undefined])).toBe("2026-11-18T09:00:00Z");
    expect(toUtc("2026-11-18T00:00:00-08:00")).toBe("2026-11-18T08:00:00Z");
  });
});
