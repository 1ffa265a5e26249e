-- A summary's title (the gist in a few words; null on rows from before titles, which
-- derive one from their text) and, once the summary has left the model's view, the text
-- that stands for it in the request (null while it is in view).
ALTER TABLE "Compaction" ADD COLUMN "title" TEXT,
ADD COLUMN "outOfView" TEXT;
