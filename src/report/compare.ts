import { markdownTable } from 'markdown-table';
import { escapeTerminal as shown } from './escape.js';
import { changesSummary } from './changes.js';
import type { GateReport } from './json.js';
import { byStatus, findingWords } from './findings.js';
import { wrapLine } from './columns.js';
import { DECISION, decisionLabel, STATUS_WORDS } from './words.js';

/** One candidate gated under one policy. */
export interface DecisionCell {
  policy: string;
  candidate: string;
  report: GateReport;
}

/** What stops (or worries) a candidate under a policy, a line each in plain words with units (names escaped). */
function blockers(report: GateReport): string[] {
  const coverage =
    report.coverage && report.coverage.status !== 'pass'
      ? [`coverage ${STATUS_WORDS[report.coverage.status].verb}: ${shown(report.coverage.reason)}`]
      : [];
  return [
    ...coverage,
    ...byStatus(report.checks.filter((check) => check.status === 'fail' || check.status === 'error' || check.status === 'warn')).map(
      (check) => findingWords(check, report, shown),
    ),
  ];
}

/** The report of a candidate under a policy. */
export function cellReport(cells: DecisionCell[], policy: string, candidate: string): GateReport {
  return cells.find((entry) => entry.policy === policy && entry.candidate === candidate)!.report;
}

/** The candidates a policy would ship (those it does not fail), as `name` shows each one. */
export function shippedWords(cells: DecisionCell[], policy: string, candidates: string[], name: (text: string) => string): string {
  const shipped = candidates.filter((candidate) => DECISION[cellReport(cells, policy, candidate).verdict] === 'ship').map(name);
  return shipped.length > 0 ? `would ship ${shipped.join(' or ')}` : 'would ship none of them';
}

/** The decision matrix: which candidate each policy would ship, and why not the others. */
export function decisionMatrixText(policies: string[], candidates: string[], cells: DecisionCell[]): string {
  const cell = (policy: string, candidate: string) => cellReport(cells, policy, candidate);
  const table = markdownTable([
    ['policy \\ candidate', ...candidates.map(shown)],
    ...policies.map((policy) => [shown(policy), ...candidates.map((candidate) => decisionLabel(cell(policy, candidate).verdict))]),
  ]);
  const lines = [table, ''];
  for (const policy of policies) {
    lines.push(`${shown(policy)}: ${shippedWords(cells, policy, candidates, shown)}`);
    for (const candidate of candidates) {
      for (const reason of blockers(cell(policy, candidate))) lines.push(...wrapLine(`  ${shown(candidate)}: ${reason}`));
    }
  }
  lines.push(...changesLines(candidates.map((candidate) => [candidate, cell(policies[0], candidate).changes])));
  return `${lines.join('\n')}\n`;
}

/** What changed instance by instance, per candidate (the same under every policy). */
function changesLines(candidates: Array<[string, GateReport['changes']]>): string[] {
  const known = candidates.filter(([, changes]) => changes);
  if (known.length === 0) return [];
  return [
    '',
    'instance by instance, against the baseline:',
    ...known.map(([candidate, changes]) => `  ${candidate}: ${changesSummary(changes!)}`),
  ];
}
