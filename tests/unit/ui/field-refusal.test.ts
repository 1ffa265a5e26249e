// A refused form says what is wrong in the form's words: the server's message names the
// field by its key for API callers ("name: Give the token a name.").
import { describe, expect, it } from "vitest";
import { fieldRefusal } from "../../../components/format";

describe("fieldRefusal", () => {
  it("says a known field by its label, a form's only field without one, and keeps the server's message otherwise", () => {
    const unnamed = { message: "name: Give the token a name.", fields: { name: ["Give the token a name."] } };
    expect(fieldRefusal(unnamed, { name: "" })).toBe("Give the token a name.");
    const price = { message: "inputPerMillion: Too big: expected number to be <=10000", fields: { inputPerMillion: ["Too big: expected number to be <=10000"] } };
    expect(fieldRefusal(price, { inputPerMillion: "Input" })).toBe("Input: Too big: expected number to be <=10000");
    expect(fieldRefusal(price, { name: "" })).toBe(price.message);
    expect(fieldRefusal({ message: "Only the admin can do this." }, { name: "" })).toBe("Only the admin can do this.");
  });
});
