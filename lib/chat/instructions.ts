// Bounds of what a conversation (or a user's default) tells the chat model: its
// instructions, sent as the system prompt, and its reply temperature.
import { z } from "zod";

/** Long enough for any real system prompt; far more than a small window could hold anyway. */
export const MAX_INSTRUCTIONS_CHARS = 50_000;

export const instructionsSchema = z
  .string({ message: "The instructions must be text." })
  .max(MAX_INSTRUCTIONS_CHARS, { message: `Instructions are at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")} characters.` });

const TEMPERATURE_RANGE = "The temperature must be a number from 0 to 2.";

export const temperatureSchema = z.number({ message: TEMPERATURE_RANGE }).min(0, { message: TEMPERATURE_RANGE }).max(2, { message: TEMPERATURE_RANGE });
