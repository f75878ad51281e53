/*
 * The errors of failed calls, counted: as a run makes its records (`evalgate run` names the most common
 * one when too many failed) and as the records are read (the gate names it where failed calls decide a
 * check: error_rate, coverage, a metric no record had). Bounded like everything read: errors are
 * counted by their first MAX_ERROR_KEY characters, and at most MAX_DISTINCT_ERRORS different ones (a
 * run's failures are a few kinds; more are rarer ones).
 */

const MAX_ERROR_KEY = 300;
const MAX_DISTINCT_ERRORS = 1000;

/** The error most failed records have, how many have it, and how many records failed in all. */
export interface CommonFailure {
  error: string;
  count: number;
  failed: number;
}

export class FailureTally {
  private readonly counts = new Map<string, number>();
  private failed = 0;

  add(error: string): void {
    this.failed++;
    const key = error.slice(0, MAX_ERROR_KEY);
    const count = this.counts.get(key);
    if (count !== undefined) this.counts.set(key, count + 1);
    else if (this.counts.size < MAX_DISTINCT_ERRORS) this.counts.set(key, 1);
  }

  /** The most common error (the first seen of equally common ones); undefined when no record failed. */
  mostCommon(): CommonFailure | undefined {
    let most: CommonFailure | undefined;
    for (const [error, count] of this.counts) if (!most || count > most.count) most = { error, count, failed: this.failed };
    return most;
  }
}
