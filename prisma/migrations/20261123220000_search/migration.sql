-- Full-text search over the whole history: every original message (compressed ones
-- included) and every summary. Generated columns keep the vectors in step with the
-- text without triggers; 'english' stems ("foxes" finds "fox"). The regconfig is
-- spelled out so the expression is immutable, as a generated column requires.
ALTER TABLE "Message" ADD COLUMN "searchVector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "content")) STORED;

ALTER TABLE "Compaction" ADD COLUMN "searchVector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "summary")) STORED;

CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

CREATE INDEX "Compaction_searchVector_idx" ON "Compaction" USING GIN ("searchVector");
