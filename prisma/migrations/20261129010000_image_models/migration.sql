-- The admin's list of models that take images and of those that do not (names or name
-- prefixes), beside the built-in guess from the model's name (lib/llm/vision.ts).
ALTER TABLE "Instance" ADD COLUMN "imageModels" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "Instance" ADD COLUMN "textOnlyModels" TEXT[] DEFAULT ARRAY[]::TEXT[];
