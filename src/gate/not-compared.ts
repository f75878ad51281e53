import { scopeLabel, scopeOf } from '../metrics/names.js';
import type { Finding } from './bounds.js';
import type { NotCompared } from './compare.js';

/*
 * A regression budget that could not be compared with the baseline fails closed where the candidate is
 * at fault, and says "inconclusive" where the baseline cannot tell:
 *   no baseline: skipped (plain use), or inconclusive where a change is gated (the action on a pull request);
 *   the baseline answered none of the shared instances (every call failed): error, as when it shares
 *     none: a broken run, not a metric not yet recorded (one answered instance errors too: too few shared);
 *   the baseline lacks the metric there (a metric it did not record, a scenario it did not have):
 *     inconclusive, so a change that starts recording it can merge (its bounds are still judged);
 *   the candidate lacks it there (dropped on the shared instances, perhaps kept on new ones): error.
 */

/** What a regression budget ends as when no baseline was given: skipped, or inconclusive (a change gated without one). */
export type MissingBaseline = 'skip' | 'inconclusive';

export function noBaseline(mode: MissingBaseline): Finding {
  return mode === 'inconclusive'
    ? { failed: false, inconclusive: true, reasons: ['regression inconclusive: no baseline to compare the change with'] }
    : { failed: false, skipped: true, reasons: ['regression not checked: no baseline'] };
}

export function notCompared(metric: string, scenario: string | undefined, why: NotCompared): Finding {
  const scope = scenario === undefined ? '' : ` in ${scopeLabel(scopeOf(scenario))}`;
  const shared = why.shared === undefined ? '' : ` on the ${why.shared} instances the runs share${scope}`;
  const error = (reason: string): Finding => ({ failed: true, errored: true, reasons: [`regression not checked: ${reason}`] });
  if (why.shared && !why.baselineAnswered) {
    return error(`the baseline answered none of the ${why.shared} instances it shares with the candidate${scope} (every call failed)`);
  }
  if (why.lacks === 'candidate') return error(`the candidate has no ${metric}${shared}`);
  const reason =
    why.shared === 0
      ? `the baseline has no instance${scope}`
      : `the baseline has no ${metric}${shared || scope} (a metric it did not record)`;
  return { failed: false, inconclusive: true, reasons: [`regression inconclusive: ${reason}`] };
}
