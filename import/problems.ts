/**
 * What stops an import: every problem of every file, each naming the file, the row or record, the
 * column or field, the value and what was expected (the same form as the build's, core/problems.ts).
 */
import type { Problem } from "../core/problems.ts";

export { formatProblem, type Problem } from "../core/problems.ts";

export class ImportError extends Error {
  constructor(readonly problems: Problem[]) {
    super(`${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    this.name = "ImportError";
  }
}
