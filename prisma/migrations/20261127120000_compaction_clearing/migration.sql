-- Old tool results cleared from the model's view are recorded like a compaction.
ALTER TYPE "CompactionKind" ADD VALUE 'clearing';
ALTER TYPE "CompactionSource" ADD VALUE 'clearing';
