import { describe, expect, it } from "vitest";
import { pickEncoding } from "./compression";

describe("pickEncoding", () => {
  it("prefers brotli, falls back to gzip, and honours q=0 refusals", () => {
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding("")).toBeNull();
    expect(pickEncoding("identity")).toBeNull();
    expect(pickEncoding("gzip, deflate, br")).toBe("br");
    expect(pickEncoding("gzip")).toBe("gzip");
    expect(pickEncoding("x-gzip")).toBe("gzip");
    expect(pickEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(pickEncoding("br;q=0.0, gzip;q=0")).toBeNull();
    expect(pickEncoding("*")).toBe("br");
    expect(pickEncoding("BR ; q=1")).toBe("br");
    expect(pickEncoding(["gzip", "deflate"])).toBe("gzip");
  });
});
