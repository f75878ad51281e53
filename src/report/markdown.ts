import { markdownTable } from 'markdown-table';
import { countOutcomes } from '../gate/verdict.js';
import { DIMENSIONS } from '../metrics/registry.js';
import {
  CHECK_TABLE_ALIGN,
  CHECK_TABLE_HEADER,
  checkCells,
  formatNumber,
  METRIC_TABLE_ALIGN,
  METRIC_TABLE_HEADER,
  metricRows,
} from './format.js';
import type { GateReport } from './json.js';
import { codeSpan, escapeHtml, escapeMarkdown, mermaidLabel } from './escape.js';

/** GitHub's limit on a comment is 65,536 characters; stay under it. */
export const MAX_COMMENT_CHARACTERS = 65000;

const STATUS_ICON: Record<string, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  skipped: '⏭️ skipped',
  error: '💥 error',
  off: '➖ off',
};
const VERDICT_ICON: Record<string, string> = { pass: '✅', warn: '⚠️', fail: '❌' };

type CheckRow = GateReport['checks'][number];

function checkTable(checks: CheckRow[]): string {
  const rows = checks.map((check) => checkCells(check, escapeMarkdown, (status) => STATUS_ICON[status]));
  return markdownTable([CHECK_TABLE_HEADER, ...rows], { align: CHECK_TABLE_ALIGN });
}

export interface MarkdownOptions {
  /** Groups smaller than this are marked in the per-scenario details (the policy's min_group_size). */
  minGroupSize?: number;
  /** A failing verdict waived by this pull-request label. */
  waivedBy?: string;
  /** Plain-text notes shown under the verdict (escaped here): how the gate was run, when that matters. */
  notes?: string[];
  /** The candidate's numbers are a report's claim, not records gated here: the heading says "unverified". */
  unverified?: boolean;
}

function verdictLine(report: GateReport, waivedBy: string | undefined, unverified: boolean): string {
  const { blocking, warnings } = countOutcomes(report.checks, report.coverage?.status);
  const counts = [
    blocking && `${blocking} blocking check${blocking > 1 ? 's' : ''} failed`,
    warnings && `${warnings} warning${warnings > 1 ? 's' : ''}`,
  ]
    .filter(Boolean)
    .join(', ');
  const waiver = waivedBy !== undefined && report.verdict === 'fail' ? ` (waived by label ${escapeMarkdown(waivedBy)})` : '';
  const baseline = report.baseline ? '' : ' · no baseline: regression budgets were skipped';
  return `## ${VERDICT_ICON[report.verdict]} evalgate: ${report.verdict}${waiver}${counts ? ` (${counts})` : ''}${unverified ? ' · unverified report' : ''} · policy ${escapeMarkdown(report.policy.name)}${baseline}`;
}

/** A mermaid bar/line chart of candidate vs baseline for the checked metrics on a 0-1 scale. */
function chart(report: GateReport): string | undefined {
  const points = report.checks.filter(
    (check) =>
      check.candidate &&
      check.comparison &&
      check.candidate.value >= 0 &&
      check.candidate.value <= 1 &&
      check.comparison.baseline >= 0 &&
      check.comparison.baseline <= 1,
  );
  if (points.length < 2) return undefined;
  const label = (check: CheckRow) => mermaidLabel(`${check.metric}${check.scope === 'overall' ? '' : ` (${check.scope})`}`);
  return [
    '```mermaid',
    'xychart-beta',
    '  title "Candidate (bars) vs baseline (line)"',
    `  x-axis [${points.map(label).join(', ')}]`,
    '  y-axis "value" 0 --> 1',
    `  bar [${points.map((check) => formatNumber(check.candidate!.value)).join(', ')}]`,
    `  line [${points.map((check) => formatNumber(check.comparison!.baseline)).join(', ')}]`,
    '```',
  ].join('\n');
}

function provenance(report: GateReport): string {
  const run = (summary: GateReport['candidate']) =>
    `${codeSpan(summary.file)} (${summary.kind === 'records' ? `${summary.records} records, ${summary.instances} instances` : 'summary metrics: point estimates'})`;
  const paired = report.checks.find((check) => check.comparison?.shared !== undefined)?.comparison?.shared;
  return [
    `Policy **${escapeMarkdown(report.policy.name)}** (${codeSpan(report.policy.file)}${report.policy.source ? ` ${escapeMarkdown(report.policy.source)}` : ''}, sha256 ${codeSpan(report.policy.sha256.slice(0, 12))})`,
    `· candidate ${run(report.candidate)}`,
    report.baseline
      ? `· baseline ${run(report.baseline)}${report.baseline.commit ? ` from commit ${codeSpan(report.baseline.commit.slice(0, 7))}` : ''}${paired !== undefined ? `, ${paired} instances shared` : ''}`
      : '· no baseline',
  ].join(' ');
}

/** The pull-request comment and job summary. Over the size limit, the per-scenario details go first. */
export function gateMarkdown(
  report: GateReport,
  { minGroupSize = 10, waivedBy, notes = [], unverified = false }: MarkdownOptions = {},
): string {
  const parts: string[] = [verdictLine(report, waivedBy, unverified), ''];
  for (const note of notes) parts.push(`> ${escapeMarkdown(note)}`, '');
  const regressions = report.checks.filter((check) => ['fail', 'warn', 'error'].includes(check.status));
  const coverage = report.coverage && report.coverage.status !== 'pass' ? report.coverage : undefined;
  if (regressions.length > 0 || coverage) {
    parts.push('### What blocks or warns, by dimension', '');
    if (coverage) parts.push(`- **coverage** · ${STATUS_ICON[coverage.status]}: ${escapeMarkdown(coverage.reason)}`);
    for (const dimension of DIMENSIONS) {
      const inDimension = regressions.filter((check) => check.dimension === dimension);
      for (const check of inDimension) {
        parts.push(
          `- **${dimension}** · ${STATUS_ICON[check.status]} ${codeSpan(check.metric)} (${escapeMarkdown(check.scope)}): ${escapeMarkdown(check.reasons.join('; '))}`,
        );
      }
    }
    parts.push('');
  }
  if (report.tradeoffs.length > 0) {
    parts.push('### Trade-offs', '');
    for (const tradeoff of report.tradeoffs) {
      parts.push(
        `- ${tradeoff.applied ? 'applied' : 'not applied'}: **${escapeMarkdown(tradeoff.name)}** — ${escapeMarkdown(tradeoff.reasons.join('; '))}`,
      );
    }
    parts.push('');
  }
  parts.push('### Checks by dimension', '');
  for (const dimension of DIMENSIONS) {
    const checks = report.checks.filter((check) => check.dimension === dimension);
    if (checks.length > 0) parts.push(`#### ${dimension}`, '', checkTable(checks), '');
  }
  const picture = chart(report);
  if (picture) parts.push(picture, '');
  parts.push(provenance(report), '');

  const main = parts.join('\n');
  const details = Object.entries(report.scenarios).map(
    ([scenario, metrics]) =>
      `<details><summary>Scenario ${escapeHtml(scenario)}: every metric of the candidate</summary>\n\n${markdownTable([METRIC_TABLE_HEADER, ...metricRows(metrics, minGroupSize, escapeMarkdown)], { align: METRIC_TABLE_ALIGN })}\n\n</details>\n`,
  );
  let text = main;
  for (const detail of details) {
    if (text.length + detail.length + 1 > MAX_COMMENT_CHARACTERS) {
      text += '\n_Per-scenario details left out to stay within the comment size limit._\n';
      break;
    }
    text += `\n${detail}`;
  }
  if (text.length > MAX_COMMENT_CHARACTERS) {
    text = `${text.slice(0, MAX_COMMENT_CHARACTERS - 60)}\n\n_Report cut at the comment size limit._\n`;
  }
  return text;
}
