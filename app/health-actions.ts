"use server";
// For the error boundaries, which see no error text in production builds: whether the
// failure was the database, in words. Needs no session (the session lives in the
// database) and reveals nothing but that.
import { databaseProblem } from "@/lib/db/health";

export async function databaseProblemAction(): Promise<string | null> {
  return databaseProblem();
}
