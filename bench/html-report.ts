// The HTML report's cost, in one process: the gate (evaluateGate), the JSON report with what the charts
// draw (buildGateReport), then the HTML page (gateHtml: vega loaded and every chart rendered), each timed,
// and the page's size. Prints JSON. Usage: node bench/out/html-report.mjs POLICY CANDIDATE BASELINE
import { evaluateGate } from '../src/gate/evaluate.js';
import { loadPolicy } from '../src/policy/load.js';
import { gateHtml } from '../src/report/html.js';
import { buildGateReport } from '../src/report/json.js';
import { loadRun } from '../src/runs/load.js';

const [policyFile, candidateFile, baselineFile] = process.argv.slice(2);
const policy = await loadPolicy(policyFile);
const [candidate, baseline] = await Promise.all([loadRun(candidateFile), loadRun(baselineFile)]);
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;
let started = process.hrtime.bigint();
const result = evaluateGate({ policy: policy.policy, candidate, baseline });
const gateSeconds = seconds(started);
started = process.hrtime.bigint();
const report = buildGateReport(result, policy, candidate, baseline);
const reportSeconds = seconds(started);
started = process.hrtime.bigint();
const html = await gateHtml(report);
const htmlSeconds = seconds(started);
process.stdout.write(JSON.stringify({ gateSeconds, reportSeconds, htmlSeconds, bytes: Buffer.byteLength(html) }));
