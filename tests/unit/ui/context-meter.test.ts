import { describe, expect, it } from "vitest";
import { requestCut } from "../../../components/chat/ContextMeter";

describe("requestCut", () => {
  it("is true only past the hard limit", () => {
    expect(requestCut({ totalTokens: 20_480, hardLimit: 3_400 })).toBe(true);
    expect(requestCut({ totalTokens: 3_400, hardLimit: 3_400 })).toBe(false);
    expect(requestCut({ totalTokens: 1_000, hardLimit: 3_400 })).toBe(false);
  });
});
