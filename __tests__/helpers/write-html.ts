// `node write-html.mjs REPORT.json OUT.html`: the HTML report of a JSON report, as `evalgate gate --html`
// writes it. Bundled by the tests with esbuild and run as a child process: jest's module loader cannot
// follow the dynamic import that loads vega.
import { readFileSync } from 'node:fs';
import { writeGateHtml } from '../../src/report/html.js';
import type { GateReport } from '../../src/report/json.js';

const [reportFile, out] = process.argv.slice(2);
await writeGateHtml(out, JSON.parse(readFileSync(reportFile, 'utf8')) as GateReport);
