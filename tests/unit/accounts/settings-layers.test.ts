// Three layers of settings: admin defaults → user settings → conversation overrides.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../lib/compression/settings";
import { BUILT_IN, differences, overlay, overridesPatchSchema, patchOverrides, resolveLayers, storedLayer } from "../../../lib/settings-layers";

describe("resolving the three layers", () => {
  it("the last layer that sets a value wins, and each value says where it came from", () => {
    const resolved = resolveLayers({
      defaults: { threshold: 0.75, keepRecentCount: 8, strategy: "structured" },
      user: { keepRecentCount: 6, summaryMaxTokens: 500 },
      conversation: { strategy: "turn_digest" },
    });
    expect(resolved.settings).toMatchObject({ threshold: 0.75, keepRecentCount: 6, strategy: "turn_digest", summaryMaxTokens: 500 });
    expect(resolved.sources).toMatchObject({
      threshold: "default",
      keepRecentCount: "user",
      strategy: "conversation",
      summaryMaxTokens: "user",
      enabled: "default",
    });
    expect(resolved.ignored).toEqual([]);
  });

  it("nothing stored: the built-in defaults, all from 'default'", () => {
    const resolved = resolveLayers({});
    expect(resolved.settings).toEqual(DEFAULT_SETTINGS);
    expect(new Set(Object.values(resolved.sources))).toEqual(new Set(["default"]));
  });

  it("a conversation can only override its five settings; other keys stored there are ignored", () => {
    const resolved = resolveLayers({ conversation: { threshold: 0.7, enabled: false, hardLimitReserve: 1 } });
    expect(resolved.settings.threshold).toBe(0.7);
    expect(resolved.settings.enabled).toBe(true);
    expect(resolved.settings.hardLimitReserve).toBe(DEFAULT_SETTINGS.hardLimitReserve);
    expect(resolved.sources.enabled).toBe("default");
  });

  it("stored values that no longer validate are dropped field by field", () => {
    expect(storedLayer({ threshold: 7, keepRecentCount: 3, unknown: 1 })).toEqual({ keepRecentCount: 3 });
    expect(storedLayer("garbage")).toEqual({});
    expect(storedLayer([1, 2])).toEqual({});
  });

  it("a value that breaks a rule with a lower layer is left out and reported, the rest applies", () => {
    // The user lowered the threshold below the admin's pre-emptive threshold (0.65 by default).
    const resolved = resolveLayers({ user: { threshold: 0.5, keepRecentCount: 4 } });
    expect(resolved.settings.threshold).toBe(DEFAULT_SETTINGS.threshold);
    expect(resolved.settings.keepRecentCount).toBe(4);
    expect(resolved.ignored).toEqual([{ name: "threshold", source: "user" }]);
    expect(resolved.sources.threshold).toBe("default");
  });

  it("the culprit is found when the rule names the other setting of the pair", () => {
    const base = overlay(BUILT_IN, { preemptiveThreshold: 0.3 }, "default");
    const resolved = overlay(base, { threshold: 0.2, summaryMaxTokens: 400 }, "user");
    expect(resolved.ignored).toEqual([{ name: "threshold", source: "user" }]);
    expect(resolved.settings.summaryMaxTokens).toBe(400);
  });
});

describe("what a layer stores", () => {
  it("only the values that differ from the layer below", () => {
    const settings = { ...DEFAULT_SETTINGS, threshold: 0.7, contextWindowOverrides: { m: 4096 } };
    expect(differences(settings, DEFAULT_SETTINGS)).toEqual({ threshold: 0.7, contextWindowOverrides: { m: 4096 } });
    expect(differences(DEFAULT_SETTINGS, DEFAULT_SETTINGS)).toEqual({});
  });

  it("a patch names only what it changes: absent fields stay absent (no schema defaults)", () => {
    expect(overridesPatchSchema.parse({ threshold: 0.7 })).toEqual({ threshold: 0.7 });
    expect(overridesPatchSchema.parse({ strategy: null })).toEqual({ strategy: null });
    expect(overridesPatchSchema.safeParse({ enabled: false }).success).toBe(false);
  });

  it("a patch sets values and null removes them", () => {
    expect(patchOverrides({ threshold: 0.7, strategy: "structured" }, { threshold: null, keepRecentCount: 3 })).toEqual({
      strategy: "structured",
      keepRecentCount: 3,
    });
  });
});
