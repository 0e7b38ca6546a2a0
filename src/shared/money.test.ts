import { describe, expect, it } from "vitest";
import { formatMoney, formatPrice, priceText, toMinor } from "./money";
import { formatMoney as fromPayments } from "./payments";

describe("money", () => {
  it("formats minor units in the currency, without decimals for whole amounts", () => {
    expect(formatMoney(1500, "eur", "en")).toBe("€15");
    expect(formatMoney(999, "usd", "en")).toBe("$9.99");
    expect(formatMoney(1000, "jpy", "en")).toBe("¥1,000");
    expect(formatPrice({ amount: 29000, currency: "eur", interval: "year" }, "en")).toBe("€290/year");
    expect(fromPayments).toBe(formatMoney);
  });

  it("priceText: a paid community's monthly price in its currency, or Free", () => {
    expect(priceText("paid", 15, "eur")).toBe(formatPrice({ amount: 1500, currency: "eur", interval: "month" }));
    expect(priceText("paid", 9.5, "usd")).toMatch(/9\.50\/month$/);
    expect(priceText("paid", 1000, "jpy")).toMatch(/1,000\/month$/);
    expect(priceText("free", 15, "eur")).toBe("Free");
    expect(priceText("paid", 0, "eur")).toBe("Free");
    expect(toMinor(9.99, "usd")).toBe(999);
  });
});
