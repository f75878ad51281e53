import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { computeMetrics, DEFAULT_COMPUTE_OPTIONS } from './metrics/compute.js';
import { loadRecordTable } from './metrics/load.js';
import { metricsMarkdown } from './report/metrics-markdown.js';

/**
 * The action: computes the metrics of the candidate's records, writes them as the job summary and as a
 * JSON report. The one place that fails the step.
 */
export async function run(): Promise<void> {
  try {
    const candidate = core.getInput('candidate', { required: true });
    const table = await loadRecordTable(candidate);
    const report = computeMetrics(table, DEFAULT_COMPUTE_OPTIONS);
    const reportPath = join(process.env.RUNNER_TEMP ?? '.', 'evalgate-metrics.json');
    await writeFile(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    core.setOutput('report', reportPath);
    await core.summary.addRaw(metricsMarkdown(report, DEFAULT_COMPUTE_OPTIONS.minGroupSize)).write();
  } catch (error) {
    core.setFailed(error instanceof Error ? error.message : String(error));
  }
}
