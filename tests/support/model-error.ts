import { expect } from "vitest";
import { ModelError } from "@/lib/llm/client";

/** The ModelError a call ends with; fails the test when it succeeds or throws anything else. */
export async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error("expected a ModelError, but the call succeeded");
}
