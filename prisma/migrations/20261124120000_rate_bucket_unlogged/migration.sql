-- Rate-limit counters are counted on every message send (and sign-in), and losing them
-- in a database crash only restarts the current minute's count: an unlogged table
-- writes no WAL, so the statement commits without waiting for a disk flush.
ALTER TABLE "RateBucket" SET UNLOGGED;
