// The settings form's own reading of the override rows: model names are plain names,
// even ones every JavaScript object inherits (issue 25, item 13).
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../../lib/compression/settings";
import { fromFormValues, newOverrideRow, toFormValues, validateSettings } from "../../../components/settings/form-state";

describe("fromFormValues", () => {
  it("takes models named constructor, toString and __proto__ as overrides, once each", () => {
    const values = toFormValues(DEFAULT_SETTINGS);
    values.contextWindowOverrides = ["constructor", "toString", "__proto__"].map((model) => newOverrideRow(model, "4096"));
    const { input, rowErrors } = fromFormValues(values);
    expect(rowErrors).toEqual([]);
    expect(Object.keys(input.contextWindowOverrides as object)).toEqual(["constructor", "toString", "__proto__"]);
  });

  it("still says when a model is listed twice", () => {
    const values = toFormValues(DEFAULT_SETTINGS);
    values.contextWindowOverrides = [newOverrideRow("m", "4096"), newOverrideRow("m", "8192")];
    expect(validateSettings(values).errors.contextWindowOverrides).toContain("“m” is listed twice.");
  });
});
