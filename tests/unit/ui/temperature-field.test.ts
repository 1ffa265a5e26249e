// The temperature fields: empty is "none" (the server's default), anything else a number from 0 to 2.
import { describe, expect, it } from "vitest";
import { parseTemperature, temperatureText } from "../../../components/chat/temperature-field";

describe("parseTemperature", () => {
  it("reads empty as none and numbers from 0 to 2", () => {
    expect(parseTemperature("  ")).toBeNull();
    expect(parseTemperature("0")).toBe(0);
    expect(parseTemperature("0,7")).toBe(0.7);
    expect(parseTemperature(".5")).toBe(0.5);
    expect(parseTemperature("2")).toBe(2);
  });

  it("refuses what is not a number from 0 to 2", () => {
    for (const text of ["2.01", "-0.1", "hot", "1e0", "0x1", "1.2.3", "Infinity"]) expect(parseTemperature(text), text).toBe("invalid");
  });

  it("shows none as an empty field", () => {
    expect(temperatureText(null)).toBe("");
    expect(temperatureText(0.4)).toBe("0.4");
  });
});
