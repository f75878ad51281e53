import { markdownTable } from 'markdown-table';
import { shownScope } from '../metrics/names.js';
import { DIMENSIONS } from '../metrics/registry.js';
import {
  CHECK_TABLE_ALIGN,
  CHECK_TABLE_HEADER,
  checkCells,
  inconclusiveText,
  noBaselineText,
  NOTED_STATUSES,
  notRunText,
  outcomeNote,
} from './format.js';
import type { GateReport } from './json.js';
import { escapeTerminal as shown } from './escape.js';
import { instanceChangesText } from './changes.js';
import { evidenceText } from './evidence.js';
import { suitesNote, worthShowing } from './comparability.js';

const COLOURS: Record<string, string> = { pass: '32', warn: '33', fail: '31', error: '31', skipped: '90', off: '90', inconclusive: '33' };

/** The gate's report for a terminal; ANSI colours only when asked (on a TTY). */
export function gateText(report: GateReport, colour: boolean): string {
  const paint = (status: string, text: string) => (colour ? `\u001b[${COLOURS[status] ?? '0'}m${text}\u001b[0m` : text);
  const notRun = notRunText(report);
  const lines = [
    [
      `evalgate: ${paint(report.verdict, report.verdict.toUpperCase())}${notRun ? ` — ${notRun}` : ''}${outcomeNote(report)}`,
      `policy ${shown(report.policy.name)}`,
      noBaselineText(report),
    ]
      .filter(Boolean)
      .join(' · '),
  ];
  const unsure = inconclusiveText(report, shown);
  lines.push(...(unsure ? [`inconclusive: ${unsure}`] : []), '');
  if (report.coverage && report.coverage.status !== 'pass') {
    lines.push(`  ${paint(report.coverage.status, report.coverage.status.padEnd(5))} coverage: ${shown(report.coverage.reason)}`);
  }
  for (const check of report.checks.filter((check) => NOTED_STATUSES.includes(check.status))) {
    lines.push(
      `  ${paint(check.status, check.status.padEnd(5))} ${check.dimension}: ${shown(check.metric)} (${shown(shownScope(check))}): ${shown(check.reasons.join('; '))}`,
    );
  }
  for (const tradeoff of report.tradeoffs) {
    lines.push(
      `  trade-off ${tradeoff.applied ? 'applied' : 'not applied'}: ${shown(tradeoff.name)}: ${shown(tradeoff.reasons.join('; '))}`,
    );
  }
  const rows = DIMENSIONS.flatMap((dimension) =>
    report.checks
      .filter((check) => check.dimension === dimension)
      .map((check) => [dimension, ...checkCells(check, shown, (status) => paint(status, status))]),
  );
  lines.push(
    '',
    markdownTable([['dimension', ...CHECK_TABLE_HEADER], ...rows], {
      align: ['l', ...CHECK_TABLE_ALIGN],
      stringLength: (text) => text.replace(/\u001b\[\d+m/g, '').length,
    }),
    '',
    ...(report.changes ? [instanceChangesText(report.changes)] : []),
    ...(report.evidence ? [evidenceText(report.evidence)] : []),
    ...(worthShowing(report.comparability) ? [`comparability: ${shown(report.comparability.reason)}`] : []),
    `policy ${shown(report.policy.file)} (sha256 ${report.policy.sha256.slice(0, 12)}) · candidate ${shown(report.candidate.file)}${report.candidate.records !== null ? ` (${report.candidate.records} records${suitesNote(report.candidate)})` : ' (summary metrics)'}${report.baseline ? ` · baseline ${shown(report.baseline.file)}${report.baseline.records !== null ? ` (${report.baseline.records} records${suitesNote(report.baseline)})` : ' (summary metrics)'}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
