import { describe, expect, it } from "vitest";
import { FifoMap } from "../../sidecar/fifo-map.ts";

describe("FifoMap", () => {
  it("keeps at most its bound, dropping the oldest entry first", () => {
    const map = new FifoMap<number, string>(3);
    for (let i = 0; i < 5; i++) map.set(i, `v${i}`);
    expect([...map.keys()]).toEqual([2, 3, 4]);
    map.set(3, "again");
    expect([...map.entries()]).toEqual([[2, "v2"], [3, "again"], [4, "v4"]]);
  });
});
