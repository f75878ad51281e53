import { scopeLabel, scopeOf } from '../metrics/names.js';
import { amountText } from '../metrics/units.js';
import type { Budget, Policy, Tradeoff } from '../policy/schema.js';
import { budgetValue, isSignificant, metricMeta, metricScopeKey, tooFewShared, type RunComparer } from './compare.js';
import type { TradeoffResult } from './types.js';

/*
 * Trade-offs decide which regression budgets are in effect: one applies when every improvement it
 * names is large enough and statistically real, and then its budgets replace those of the checks it
 * relaxes.
 */

/** Budgets that applied trade-offs grant, by metricScopeKey. */
export type RelaxedBudgets = Map<string, Array<{ value: Budget; from: string }>>;

function evaluateTradeoff(tradeoff: Tradeoff, policy: Policy, comparer: RunComparer | undefined): TradeoffResult {
  if (!comparer) return { name: tradeoff.name, applied: false, reasons: ['no baseline to measure improvements against'] };
  const reasons: string[] = [];
  let applied = true;
  for (const term of tradeoff.when) {
    const label = `${term.metric} (${scopeLabel(scopeOf(term.scenario))})`;
    const judges = comparer.judgeMismatch(term.scenario);
    if (judges) {
      applied = false; // an improvement graded by another judge is no improvement
      reasons.push(`${label}: ${judges}`);
      continue;
    }
    const comparison = comparer.compare(term.metric, term.scenario, metricMeta(policy, term.metric, term.direction).direction);
    if (!comparison) {
      applied = false;
      reasons.push(`${label}: not in both runs`);
      continue;
    }
    const tooFew = tooFewShared(comparison, policy);
    if (tooFew) {
      // An improvement seen on a handful of instances must not buy a regression elsewhere.
      applied = false;
      reasons.push(`${label}: ${tooFew}`);
      continue;
    }
    const improvement = -comparison.worsening;
    const needed = budgetValue(term.min_improvement, comparison.baseline);
    const real = comparison.method === 'summary' || isSignificant(policy.settings.significance, comparison.pBetter);
    const ok = improvement >= needed && real;
    if (!ok) applied = false;
    const evidence = comparison.pBetter === undefined ? '' : `, p = ${comparison.pBetter.toPrecision(2)}`;
    const amount = (value: number) => amountText(term.metric, value);
    const moved = improvement >= 0 ? `improved by ${amount(improvement)}` : `got worse by ${amount(-improvement)}`;
    reasons.push(
      `${label} ${moved} (needs an improvement of ${amount(needed)}${evidence})${ok ? '' : improvement >= needed ? ': not statistically real' : ': not enough'}`,
    );
  }
  return { name: tradeoff.name, applied, reasons };
}

/** Every trade-off's outcome, and the budgets those that apply grant. */
export function evaluateTradeoffs(
  policy: Policy,
  comparer: RunComparer | undefined,
): { results: TradeoffResult[]; relaxed: RelaxedBudgets } {
  const relaxed: RelaxedBudgets = new Map();
  const results = policy.tradeoffs.map((tradeoff) => {
    const result = evaluateTradeoff(tradeoff, policy, comparer);
    if (result.applied) {
      for (const term of tradeoff.allow) {
        const key = metricScopeKey(term.metric, term.scenario);
        relaxed.set(key, [...(relaxed.get(key) ?? []), { value: term.max_regression, from: `trade-off "${tradeoff.name}"` }]);
      }
    }
    return result;
  });
  return { results, relaxed };
}
