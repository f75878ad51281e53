import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { build } from 'esbuild';
import type { GateReport } from '../src/report/json.js';
import { launchBrowser, MERMAID_SCRIPT, mermaidBlocks, openPage, renderMermaid } from './helpers/browser.js';
import { commentPage } from './helpers/github-markdown.js';
import { evalgate, gateReports } from './helpers/evalgate.js';
import { runProcess } from './helpers/run.js';
import { tempDir } from './helpers/records.js';

/*
 * What evalgate writes for a browser, in a real one (headless Chromium): the HTML report of the demo and
 * of hostile records, and every mermaid block of their comments, drawn by mermaid as GitHub draws them.
 */

/** Markup that would run a script (each sets window.__pwned or opens a dialog), and bidi controls. */
const HOSTILE = {
  scenario: '<script>window.__pwned = "scenario"</script>',
  image: '<img src=x onerror="window.__pwned = \'img\'">',
  svg: '</text></svg><svg onload="alert(\'svg\')">',
  bidi: 'refund\u202egnp.exe\u2066 \u2067isolate\u2069',
};
const POLICY_NAME = '</title><script>alert("policy")</script> \u202eyciloP';
// '' too: an empty label is a parse error in mermaid.
const GROUP_VALUES = ['<img src=x onerror="window.__pwned = \'group\'">', 'plain \u202ereversed', '"><script>alert(1)</script>', ''];
const ATTRIBUTE = 'dialect';

/** Instances of every hostile scenario, with confidences, groups and latencies; `shift` makes the candidate differ. */
function hostileRecords(shift: number): string {
  const lines = Object.values(HOSTILE).flatMap((scenario, s) =>
    Array.from({ length: 60 }, (_, i) => {
      const confidence = ((i * 37 + s * 11) % 100) / 100;
      const correct = (i * 7 + s + shift) % 10 < 10 * confidence ? 1 : 0;
      return JSON.stringify({
        scenario,
        id: `<b onmouseover=alert(${i})>${i}</b>\u202e`,
        correct,
        confidence,
        groups: { [ATTRIBUTE]: GROUP_VALUES[i % GROUP_VALUES.length] },
        latency_ms: 200 + ((i * 53 + shift * 17) % 400),
        input: `<script>alert("input ${i}")</script>`,
        prediction: `<img src=x onerror=alert(${i})>`,
      });
    }),
  );
  return `${lines.join('\n')}\n`;
}

const hostilePolicy = {
  version: 1,
  name: POLICY_NAME,
  settings: { resamples: 200, min_group_size: 5 },
  checks: [
    { metric: 'accuracy', min: 0.3, max_regression: 0.05 },
    { metric: 'ece', max: 0.5, max_regression: 0.05 },
    { metric: 'ece', scenario: HOSTILE.bidi, max: 0.5 },
    { metric: `worst_group_accuracy:${ATTRIBUTE}`, min: 0.1 },
    { metric: 'accuracy', scenario: HOSTILE.scenario, max_regression: 0.1 },
    { metric: 'latency_p95_ms', max_regression: '50%', severity: 'warn' },
    // A budget so small that the share of it is beyond 1e21, which String() writes with an exponent.
    { metric: 'accuracy', scenario: HOSTILE.image, max_regression: 1e-30, severity: 'warn' },
  ],
};

/** Some of vega's dependencies call require(): an ESM bundle needs one of its own (as scripts/bundle.mjs). */
const REQUIRE_SHIM = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** The page's globals these tests read (the tests type-check without the DOM's types). */
interface Box {
  textContent: string;
  getBoundingClientRect(): { left: number; right: number };
}
interface CodeBlock extends Box {
  parentElement: { outerHTML: string };
}
interface Element extends Box {
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): { length: number };
}
interface SvgText {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
interface InPage {
  document: {
    body: { innerText: string };
    scrollingElement: { scrollWidth: number };
    querySelector(selector: string): Element;
    querySelectorAll(selector: string): { length: number };
  };
}

interface Written {
  name: string;
  html: string;
  markdown: string;
  report: GateReport;
}

/** The CLI's gate of a candidate against a baseline, with its HTML, markdown and JSON reports. */
async function gate(name: string, policy: string, candidate: string, baseline: string): Promise<Written> {
  const { htmlFile, markdown, json } = await gateReports(policy, candidate, baseline, { html: true });
  return { name, html: htmlFile, markdown, report: JSON.parse(json) as GateReport };
}

let browser: Browser;
let demo: Written;
let hostile: Written;
/** The hostile records' files. */
let files: { candidate: string; baseline: string; policy: string };

beforeAll(async () => {
  const dir = tempDir();
  files = { candidate: join(dir, 'candidate.jsonl'), baseline: join(dir, 'baseline.jsonl'), policy: join(dir, 'policy.json') };
  writeFileSync(files.candidate, hostileRecords(3));
  writeFileSync(files.baseline, hostileRecords(0));
  writeFileSync(files.policy, JSON.stringify(hostilePolicy));
  [browser, demo, hostile] = await Promise.all([
    launchBrowser(),
    gate('demo', 'policies/customer-support.yml', 'examples/billing/candidate-a.jsonl', 'examples/billing/baseline.jsonl'),
    gate('hostile', files.policy, files.candidate, files.baseline),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe.each(['demo', 'hostile'])('the HTML report of the %s records in Chromium', (which) => {
  const written = () => (which === 'demo' ? demo : hostile);

  it('loads with no console error, no request, no script or dialog from data, and shows the verdict', async () => {
    const { html, report } = written();
    const { page, events } = await openPage(browser, pathToFileURL(html).href);
    expect(events).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [], requests: [] });
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.$$eval('script, iframe, object, embed, img, [onerror], [onload], [onmouseover]', (found) => found.length)).toBe(0);
    expect(await page.$eval('#verdict', (element) => element.textContent)).toContain(`Verdict: ${report.verdict.toUpperCase()}`);
    const screenshot = join(tempDir(), `${which}-report.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    await page.close();
  });

  it('draws every chart as a non-empty SVG: forest plots, reliability diagrams, group bars, latency', async () => {
    const { html } = written();
    const { page } = await openPage(browser, pathToFileURL(html).href);
    const figures = await page.$$eval('figure', (found) =>
      found.map((figure) => {
        const svg = figure.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        return {
          title: figure.querySelector('figcaption')?.textContent ?? '',
          marks: svg?.querySelectorAll('path, line, rect').length ?? 0,
          width: box?.width ?? 0,
        };
      }),
    );
    for (const prefix of ['Budgeted checks', 'Reliability diagram (overall)', 'Accuracy per dialect (overall)', 'Latency distribution']) {
      expect(figures.map((figure) => figure.title)).toContainEqual(expect.stringContaining(prefix));
    }
    for (const figure of figures) {
      expect(figure.marks).toBeGreaterThan(3);
      expect(figure.width).toBeGreaterThan(100);
    }
    await page.close();
  });

  it('labels its charts: reliability axes and bin counts (few faint), group bars across with intervals, latency as outlines with p50/p95', async () => {
    const { html, report } = written();
    const { page } = await openPage(browser, pathToFileURL(html).href);
    const figure = (prefix: string) =>
      page.$$eval(
        'figure',
        (found, start) =>
          found
            .filter((element) => (element.querySelector('figcaption')?.textContent ?? '').startsWith(start))
            .map((element) => ({
              texts: Array.from(element.querySelectorAll('svg text') as unknown as ArrayLike<SvgText>).map(
                (text) => text.textContent ?? '',
              ),
              faint: element.querySelectorAll('.role-mark [opacity="0.3"]').length,
              rotatedLabels: Array.from(element.querySelectorAll('.role-axis-label text') as unknown as ArrayLike<SvgText>).filter((text) =>
                (text.getAttribute('transform') ?? '').includes('rotate'),
              ).length,
              whiskers: element.querySelectorAll('.mark-rule.role-mark line').length,
              lines: element.querySelectorAll('.mark-line.role-mark path').length,
              bars: element.querySelectorAll('.mark-rect.role-mark path').length,
            })),
        prefix,
      );
    // Each reliability diagram: its axis titles, every bin's count, a point and a count faint per bin of few examples.
    const reliability = await figure('Reliability diagram');
    expect(reliability).toHaveLength(report.calibration!.length);
    for (const [index, { candidate, baseline }] of report.calibration!.entries()) {
      const bins = [...candidate, ...(baseline ?? [])];
      expect(reliability[index].texts).toEqual(expect.arrayContaining(['confidence (the mean in each bin)', 'accuracy']));
      expect(reliability[index].texts).toEqual(expect.arrayContaining(bins.map((bin) => String(bin.count))));
      expect(reliability[index].faint).toBe(2 * bins.filter((bin) => bin.count < 10).length);
    }
    expect(reliability.some((chart) => chart.faint > 0)).toBe(true);
    // The group bars: labels across, a whisker per bar whose metric has an interval (the candidate's).
    const [groups] = await figure(`Accuracy per ${'dialect'}`);
    const withInterval = Object.entries(report.overall!).filter(([metric, { ci }]) => metric.startsWith('group_accuracy:dialect=') && ci);
    expect(groups.rotatedLabels).toBe(0);
    expect(groups.whiskers).toBe(withInterval.length);
    expect(groups.bars).toBe(2 * withInterval.length);
    // Latency: two outlines, no filled bars, and each run's p50 and p95 marked.
    const [latency] = await figure('Latency distribution');
    expect({ lines: latency.lines, bars: latency.bars, rules: latency.whiskers }).toEqual({ lines: 2, bars: 0, rules: 4 });
    expect(latency.texts).toEqual(expect.arrayContaining(['p50', 'p95', 'latency (ms)', 'records per bin']));
    await page.close();
  });

  it('has no horizontal scroll at 1280 px', async () => {
    const { html } = written();
    const { page } = await openPage(browser, pathToFileURL(html).href, { viewport: { width: 1280, height: 900 } });
    const width = await page.evaluate(() => (globalThis as unknown as InPage).document.scrollingElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1280);
    await page.close();
  });

  it('reads the same with JavaScript off', async () => {
    const { html } = written();
    const on = await openPage(browser, pathToFileURL(html).href);
    const off = await openPage(browser, pathToFileURL(html).href, { javaScript: false });
    const text = (page: typeof on.page) =>
      page.evaluate(() => {
        const { document } = globalThis as unknown as InPage;
        return `${document.body.innerText} ${document.querySelectorAll('svg').length}`;
      });
    expect(await text(off.page)).toBe(await text(on.page));
    await Promise.all([on.page.close(), off.page.close()]);
  });

  it("every mermaid block of the comment renders with mermaid, as GitHub's viewer draws it", async () => {
    const blocks = mermaidBlocks(written().markdown);
    expect(blocks.length).toBeGreaterThanOrEqual(3); // the reliability diagrams, the groups
    const page = await browser.newPage();
    expect(await renderMermaid(page, blocks)).toEqual(blocks.map(() => ''));
    await page.close();
  });
});

describe("the HTML report's colours", () => {
  it('show: a failing row, an inconclusive row and a passing row have different backgrounds, and the verdict band its own', async () => {
    const { page } = await openPage(browser, pathToFileURL(demo.html).href);
    const background = (selector: string) =>
      page.$eval(
        selector,
        (element) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element)
            .backgroundColor,
      );
    const [fail, inconclusive, pass] = await Promise.all(
      ['fail', 'inconclusive', 'pass'].map((status) => background(`tr.status-${status} td:nth-child(2)`)),
    );
    expect(new Set([fail, inconclusive, pass]).size).toBe(3);
    expect(fail).toBe('rgb(255, 235, 233)');
    const verdict = await background('#verdict');
    expect(verdict).toBe(fail); // the demo's candidate A fails: the band is red too
    expect(await background('body')).not.toBe(verdict);
    await page.close();
  });
});

describe('the hostile names in the HTML report', () => {
  it('show as text, bidi controls as escapes, in the page and in the SVG labels', async () => {
    const { page } = await openPage(browser, pathToFileURL(hostile.html).href);
    const text = await page.evaluate(() => (globalThis as unknown as InPage).document.body.innerText);
    expect(text).toContain(HOSTILE.scenario);
    expect(text).toContain('refund\\u202egnp.exe\\u2066');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const labels = await page.$$eval('svg text', (found) => found.map((element) => element.textContent ?? ''));
    expect(labels.join('\n')).toContain('<img src=x');
    expect(labels.join('\n')).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(await page.title()).toContain('</title><script>');
    await page.close();
  });
});

describe('instance changes', () => {
  it('are listed with their texts, escaped: markup shown as text, bidi controls as escapes, no script run', async () => {
    const side = (correct: number, prediction: string) => ({ correct, samples: 1, line: 3, prediction });
    const broken = {
      id: HOSTILE.image,
      perturbation: null,
      input: HOSTILE.scenario,
      references: ['refund'],
      candidate: side(0, HOSTILE.bidi),
      baseline: side(1, 'refund'),
    };
    const changes = {
      rightAt: 0.5,
      limit: 5,
      textLength: 300,
      scenarios: [
        {
          scenario: HOSTILE.scenario,
          variants: [{ perturbation: null, compared: 1, rightToWrong: 1, wrongToRight: 0 }],
          broken: [broken],
          fixed: [],
        },
      ],
    };
    const dir = tempDir();
    const [script, json, file] = [join(dir, 'write-html.mjs'), join(dir, 'report.json'), join(dir, 'changes.html')];
    writeFileSync(json, JSON.stringify({ ...hostile.report, changes }));
    await build({
      entryPoints: ['__tests__/helpers/write-html.ts'],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'warning',
      banner: { js: REQUIRE_SHIM },
    });
    const written = await runProcess(process.execPath, [script, json, file]);
    expect(written.stderr).toBe('');
    const { page, events } = await openPage(browser, pathToFileURL(file).href);
    expect(events).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [], requests: [] });
    const entries = await page.$$eval('dd', (elements) => elements.map((element) => element.textContent ?? ''));
    expect(entries).toEqual([HOSTILE.scenario, 'refund', 'refund\\u202egnp.exe\\u2066 \\u2067isolate\\u2069', 'refund']);
    const headings = await page.$$eval('h3', (elements) => elements.map((element) => element.textContent ?? ''));
    expect(headings).toContain('right → wrong');
    const notes = await page.$$eval('p.note', (elements) => elements.map((element) => element.textContent ?? ''));
    expect(notes).toContain(`${HOSTILE.scenario} · right → wrong: 1`);
    // One compact row per changed example, its texts collapsed until opened.
    const row = await page.$$eval('table.flips tbody tr td', (found) => found.map((cell) => cell.textContent ?? ''));
    expect(row.slice(0, 4)).toEqual([HOSTILE.scenario, HOSTILE.image, 'originals', '1 → 0']);
    expect(await page.$eval('table.flips details', (element) => (element as unknown as { open: boolean }).open)).toBe(false);
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    await page.close();
  });
});

/** A candidate's name that would close the matrix's cell and run a script, with a bidi control. */
const HOSTILE_CANDIDATE = '</a></td><script>alert("candidate")</script>\u202e';

describe.each(['demo', 'compare'])('the decision matrix page of `evalgate %s --html` in Chromium', (command) => {
  let page: string;
  beforeAll(async () => {
    page = join(tempDir(), 'matrix.html');
    const args =
      command === 'demo'
        ? ['demo', '--html', page]
        : [
            'compare',
            '--policy',
            files.policy,
            '--candidate',
            `${HOSTILE_CANDIDATE}=${files.candidate}`,
            '--candidate',
            `plain=${files.baseline}`,
          ];
    const result = await evalgate(command === 'demo' ? args : [...args, '--baseline', files.baseline, '--html', page]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('loads with no console error, no request, no script or dialog from data, its names as text', async () => {
    const { page: opened, events } = await openPage(browser, pathToFileURL(page).href);
    expect(events).toEqual({ consoleErrors: [], pageErrors: [], dialogs: [], requests: [] });
    expect(await opened.$$eval('script, iframe, object, embed, img, [onerror], [onload], [onmouseover]', (found) => found.length)).toBe(0);
    const header = await opened.$$eval('table.matrix th', (found) => found.map((cell) => cell.textContent ?? ''));
    if (command === 'demo')
      expect(header).toEqual(['policy \\ candidate', 'candidate-a', 'candidate-b', 'customer-support', 'realtime-chat']);
    else {
      expect(header).toEqual([
        'policy \\ candidate',
        '</a></td><script>alert("candidate")</script>\\u202e',
        'plain',
        '</title><script>alert("policy")</script> \\u202eyciloP',
      ]);
      const text = await opened.evaluate(() => (globalThis as unknown as InPage).document.body.innerText);
      expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    }
    await opened.close();
  });

  it("has one link per gate, each to its gate's section (ids unique on the page), and no horizontal scroll at 1280 px", async () => {
    const { page: opened } = await openPage(browser, pathToFileURL(page).href, { viewport: { width: 1280, height: 900 } });
    const layout = await opened.evaluate(() => {
      const { document } = globalThis as unknown as {
        document: {
          scrollingElement: { scrollWidth: number };
          querySelectorAll(selector: string): ArrayLike<{ id: string; getAttribute(name: string): string | null; textContent: string }>;
          getElementById(id: string): { tagName: string; querySelector(selector: string): { textContent: string } | null } | null;
        };
      };
      const links = Array.from(document.querySelectorAll('table.matrix td a')).map((link) => link.getAttribute('href') ?? '');
      const ids = Array.from(document.querySelectorAll('[id]')).map((element) => element.id);
      return {
        scroll: document.scrollingElement.scrollWidth,
        cells: document.querySelectorAll('table.matrix td').length,
        ids,
        targets: links.map((href) => {
          const target = href.startsWith('#') ? document.getElementById(href.slice(1)) : null;
          return {
            href,
            tag: target?.tagName,
            heading: target?.querySelector('h2')?.textContent ?? '',
            verdict: target?.querySelector('.verdict')?.textContent ?? '',
          };
        }),
      };
    });
    expect(layout.scroll).toBeLessThanOrEqual(1280);
    expect(new Set(layout.ids).size).toBe(layout.ids.length);
    expect(layout.targets).toHaveLength(layout.cells);
    expect(layout.cells).toBe(command === 'demo' ? 4 : 2);
    expect(new Set(layout.targets.map((target) => target.href)).size).toBe(layout.cells);
    for (const target of layout.targets) {
      expect(target.tag).toBe('SECTION');
      expect(target.heading).toMatch(/ under .*: (pass|warn|fail)/);
      expect(target.verdict).toMatch(/^Verdict: (PASS|WARN|FAIL)/);
    }
    await opened.close();
  });

  it("colours each cell by its gate's verdict, as the verdict band of the gate's section", async () => {
    const { page: opened } = await openPage(browser, pathToFileURL(page).href);
    const colours = await opened.$$eval('table.matrix td a', (links) =>
      links.map((link) => {
        const { document, getComputedStyle } = globalThis as unknown as {
          document: { getElementById(id: string): { querySelector(selector: string): unknown } };
          getComputedStyle(element: unknown): { backgroundColor: string };
        };
        const band = document.getElementById((link.getAttribute('href') ?? '').slice(1)).querySelector('.verdict');
        return {
          text: link.textContent ?? '',
          cell: getComputedStyle(link.parentElement).backgroundColor,
          band: getComputedStyle(band).backgroundColor,
        };
      }),
    );
    for (const { cell, band } of colours) expect(cell).toBe(band);
    if (command === 'demo') {
      const fail = colours.find((entry) => entry.text === 'block (fail)')!;
      const warn = colours.find((entry) => entry.text === 'ship (warn)')!;
      expect(fail.cell).toBe('rgb(255, 235, 233)');
      expect(warn.cell).not.toBe(fail.cell);
    }
    await opened.close();
  });
});

describe("the demo's comments as GitHub lays them out, in Chromium at 1280 px", () => {
  it.each([
    ['customer-support', 'candidate-a'],
    ['customer-support', 'candidate-b'],
    ['realtime-chat', 'candidate-a'],
    ['realtime-chat', 'candidate-b'],
  ])(
    '%s on %s: the failing checks show their status without horizontal scrolling, in one table of at most 6 columns',
    async (policy, candidate) => {
      const written = await gateReports(`policies/${policy}.yml`, `examples/billing/${candidate}.jsonl`, 'examples/billing/baseline.jsonl');
      const { markdown } = written;
      const report = JSON.parse(written.json) as GateReport;
      const file = join(tempDir(), 'comment.html');
      writeFileSync(file, commentPage(markdown));
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      // The mermaid blocks drawn in place, as GitHub's viewer draws them.
      await page.addScriptTag({ path: MERMAID_SCRIPT });
      await page.evaluate(async () => {
        const { document, mermaid } = globalThis as unknown as InPage & {
          mermaid: { initialize(config: object): void; render(id: string, text: string): Promise<{ svg: string }> };
        };
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
        const blocks = Array.from(document.querySelectorAll('pre > code.language-mermaid') as unknown as ArrayLike<CodeBlock>);
        for (const [index, code] of blocks.entries())
          code.parentElement.outerHTML = (await mermaid.render(`c${index}`, code.textContent)).svg;
      });
      const layout = await page.evaluate(() => {
        const { document } = globalThis as unknown as InPage;
        const column = document.querySelector('.markdown-body').getBoundingClientRect();
        // The tables a reader sees: those outside the collapsed <details>.
        const tables = Array.from(document.querySelectorAll('.markdown-body > table') as unknown as ArrayLike<Element>);
        const failing = tables.flatMap((table) =>
          Array.from(table.querySelectorAll('td') as unknown as ArrayLike<Box>)
            .filter((cell) => cell.textContent.includes('❌ fail'))
            .map((cell) => ({ left: cell.getBoundingClientRect().left, right: cell.getBoundingClientRect().right })),
        );
        return {
          page: document.scrollingElement.scrollWidth,
          tables: tables.map((table) => ({
            scroll: table.scrollWidth,
            client: table.clientWidth,
            header: Array.from(table.querySelectorAll('thead th') as unknown as ArrayLike<Box>).map((cell) => cell.textContent),
          })),
          column: { left: column.left, right: column.right },
          failing,
          charts: document.querySelectorAll('.markdown-body > svg').length,
        };
      });
      expect(layout.page).toBeLessThanOrEqual(1280);
      // One table of the checks (the instance changes' counts may follow), none scrolling sideways.
      expect(layout.tables[0].header).toEqual(['status', 'check (scope)', 'candidate (95% CI)', 'change vs baseline (95% CI)', 'limit']);
      expect(layout.tables.filter((table) => table.header.includes('status'))).toHaveLength(1);
      for (const table of layout.tables) expect(table.scroll).toBeLessThanOrEqual(table.client);
      // Every failing check's status in view, and as many as the report has.
      expect(layout.failing.length).toBe(report.checks.filter((check) => check.status === 'fail').length);
      for (const cell of layout.failing) {
        expect(cell.left).toBeGreaterThanOrEqual(layout.column.left);
        expect(cell.right).toBeLessThanOrEqual(layout.column.right);
      }
      expect(layout.charts).toBe(mermaidBlocks(markdown).length);
      await page.close();
    },
  );
});

describe('mermaid itself', () => {
  it('refuses a chart GitHub would not draw (the test can fail)', async () => {
    const page = await browser.newPage();
    const [error] = await renderMermaid(page, ['xychart-beta\n  x-axis ["a" "b"]\n  bar [1, 2']);
    expect(error).not.toBe('');
    await page.close();
  });
});
