import type { CheckStatus, Verdict } from '../gate/types.js';

/*
 * The gate's words, defined once for every report: a check's status (pass, warn, inconclusive, fail,
 * error; skipped and off for checks that did not run), its icon and the verb a line of plain words says
 * it with; and the one decision word a matrix needs (compare, demo): a candidate ships or is blocked.
 */

export const STATUS_WORDS: Record<CheckStatus, { icon: string; verb: string }> = {
  pass: { icon: '✅', verb: 'passes' },
  warn: { icon: '⚠️', verb: 'warns' },
  inconclusive: { icon: '❔', verb: 'is inconclusive' },
  fail: { icon: '❌', verb: 'blocks' },
  error: { icon: '💥', verb: 'could not be judged' },
  skipped: { icon: '⏭️', verb: 'was skipped' },
  off: { icon: '➖', verb: 'is off' },
};

/** A status as the comment's tables show it: "❌ fail". */
export function statusLabel(status: CheckStatus): string {
  return `${STATUS_WORDS[status].icon} ${status}`;
}

/** What a matrix says of a candidate under a policy: it ships on pass or warn, it is blocked on fail. */
export const DECISION: Record<Verdict, 'ship' | 'block'> = { pass: 'ship', warn: 'ship', fail: 'block' };

/** A decision with the verdict it comes from: "ship (warn)", "block (fail)". */
export function decisionLabel(verdict: Verdict): string {
  return `${DECISION[verdict]} (${verdict})`;
}
