// The settings form's override rows: model names are plain names, even ones every
// JavaScript object inherits (issue 25, item 13), and no more rows than the bound (item 2).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, MAX_CONTEXT_WINDOW_OVERRIDES } from "../../../lib/compression/settings";
import { ContextWindowOverrides } from "../../../components/settings/ContextWindowOverrides";
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

describe("ContextWindowOverrides", () => {
  const render = (count: number) =>
    renderToStaticMarkup(
      createElement(ContextWindowOverrides, {
        name: "contextWindowOverrides",
        rows: Array.from({ length: count }, (_, index) => newOverrideRow(`m${index}`, "8192")),
        invalid: false,
        modelListId: undefined,
        onChange: () => {},
      }),
    );
  const addButton = (html: string) => /<button[^>]*data-testid="override-add"[^>]*>/.exec(html)?.[0] ?? "";

  it(`offers no further row at ${MAX_CONTEXT_WINDOW_OVERRIDES} overrides`, () => {
    expect(addButton(render(MAX_CONTEXT_WINDOW_OVERRIDES - 1))).not.toMatch(/\sdisabled=""/);
    expect(addButton(render(MAX_CONTEXT_WINDOW_OVERRIDES))).toMatch(/\sdisabled=""/);
  });
});
