import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { commentMarker } from '../src/action/github/comment.js';
import { codeSpan, escapeHtml, escapeMarkdown, escapeTerminal, mermaidLabel } from '../src/report/escape.js';
import { parseGateReport, type GateReport } from '../src/report/json.js';
import { gateMarkdown } from '../src/report/markdown.js';
import { record, tempDir, writeLines } from './helpers/records.js';

// What a model, another tool or a fork's report wrote must stay inert wherever evalgate shows it.
// End to end (the CLI and the action's comment on hostile records): escaping-e2e.test.ts.

describe('escaping data for reports', () => {
  it('markdown: punctuation escaped, line ends and invisible marks shown as escapes, mentions, links and references broken', () => {
    expect(escapeMarkdown('a|b <img src=x> *x* `c`')).toBe('a\\|b \\<img src=x\\> \\*x\\* \\`c\\`');
    expect(escapeMarkdown('one\ntwo\r\u2028three')).toBe('one\\\\ntwo\\\\r\\\\u2028three');
    // Math ($...$ renders as LaTeX) and invisible marks that reorder text ("liaf" shown as "fail").
    expect(escapeMarkdown('$x^2$ \u202eliaf\u202c')).toBe('\\$x^2\\$ \\\\u202eliaf\\\\u202c');
    expect(escapeMarkdown('ping @octo-org/admins at https://evil.example, _www.evil.example or me@evil.example')).toBe(
      'ping @<wbr>octo-org/admins at https:<wbr>//evil.example, \\_www<wbr>.evil.example or me@<wbr>evil.example',
    );
    expect(escapeMarkdown('see #1, owner/repo#2 and GH-3')).toBe('see \\#<wbr>1, owner/repo\\#<wbr>2 and GH-<wbr>3');
  });

  it('shows every invisible or format character as an escape, in every format', () => {
    const hidden = 'a\u061cb\u00adc\u2061\u2064d\u3164\u115f\u1160\uffa0e\u{e0041}\u{e007f}f\u200bg\u2066h';
    const shown = 'a\\u061cb\\u00adc\\u2061\\u2064d\\u3164\\u115f\\u1160\\uffa0e\\u{e0041}\\u{e007f}f\\u200bg\\u2066h';
    expect(escapeTerminal(hidden)).toBe(shown);
    expect(codeSpan(hidden)).toBe(`\`${shown}\``);
    expect(escapeHtml(hidden)).toBe(shown);
    expect(escapeMarkdown(hidden)).toBe(shown.replace(/\\/g, '\\\\').replace(/[{}]/g, '\\$&'));
    expect(mermaidLabel(hidden)).toBe(`"${shown}"`);
    // Emoji keep the selector that makes them emoji.
    expect(escapeMarkdown('⚠\ufe0f')).toBe('⚠\ufe0f');
  });

  it('cuts a very long value so that one value cannot crowd the report out of a comment, never inside a surrogate pair', () => {
    const shown = escapeMarkdown('x'.repeat(70_000));
    expect(shown.length).toBe(400);
    expect(shown.endsWith('…')).toBe(true);
    const emoji = escapeHtml(`${'x'.repeat(398)}😀😀`);
    expect(emoji).toBe(`${'x'.repeat(398)}…`);
  });

  it('HTML blocks get entities, since backslashes do not escape there', () => {
    expect(escapeHtml(`<img src="https://e.x/t.png"> & 'q' </summary> #1`)).toBe(
      `&lt;img src=&quot;https:<wbr>//e.x/t.png&quot;&gt; &amp; &#39;q&#39; &lt;/summary&gt; #<wbr>1`,
    );
  });

  it('code spans cannot be closed early', () => {
    expect(codeSpan('a`b\nc')).toBe("`a'b\\nc`");
  });

  it('terminal text shows control characters as escapes, and no data starts a workflow command', () => {
    const text = escapeTerminal('id\n::set-output name=verdict::pass\r\u001b[31m');
    expect(text).toBe('id\\n::set-output name=verdict::pass\\r\\u001b[31m');
    expect(text).not.toMatch(/[\n\r\u001b]/);
    // The runner reads "::" at a line's start (after spaces) and the older "##[" anywhere in a line.
    expect(escapeTerminal('  ::error::forged')).toBe('  \\u003a:error::forged');
    expect(escapeTerminal('x ##[error]forged ###[warning]y')).toBe('x ##\\u005berror]forged ###\\u005bwarning]y');
  });

  it('mermaid labels: no quote, directive, comment or entity code', () => {
    expect(mermaidLabel('a"b`c %%{init: {"theme": "dark"}}%% #lt;x')).toBe(`"a b c % %{init: { theme :  dark }}% % # lt;x"`);
  });
});

describe('the sticky comment marker', () => {
  it('keeps plain names, never ends its HTML comment early, and gives different names different markers', () => {
    expect(commentMarker({ policy: 'customer-support' })).toBe('<!-- evalgate:policy=customer-support -->');
    const names = ['a--b', 'a_b', 'a>b', 'a%3Eb', 'a---b', 'a-%2Db'];
    const markers = names.map((name) => commentMarker({ policy: name, path: name }));
    expect(new Set(markers).size).toBe(names.length);
    for (const marker of markers) expect(marker.slice('<!--'.length, -'-->'.length)).not.toMatch(/--|>/);
  });
});

describe('error messages of the CLI', () => {
  it('quote data with its control characters escaped', async () => {
    const hostile = record({ scenario: 's', id: 'x\r::error title=evalgate::forged\u001b[2K', correct: 1 });
    const shard = writeLines('shard.jsonl', [hostile]);
    let stderr = '';
    const code = await runCli(['merge', '--out', join(tempDir(), 'out.jsonl'), shard, shard], {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
    });
    expect(code).toBe(2);
    expect(stderr).toContain('x\\r::error title=evalgate::forged\\u001b[2K');
    expect(stderr).not.toMatch(/[\r\u001b]/);
  });
});

describe('names that are properties of Object', () => {
  it('survive a report read back (the fork-safe pair posts a report JSON): __proto__ is a scenario like any other', () => {
    const accuracy = { value: 0, ci: null, n: 30 };
    // JSON.parse makes "__proto__" an own key, as a report file written by evalgate reads.
    const scenarios = JSON.parse(
      `{"__proto__": {"accuracy": ${JSON.stringify(accuracy)}}, "constructor": {"__proto__": ${JSON.stringify(accuracy)}}}`,
    );
    const report: GateReport = {
      version: 1,
      verdict: 'pass',
      policy: { name: 'p', file: 'p.yml', sha256: '0'.repeat(64) },
      candidate: { file: 'c.jsonl', kind: 'records', records: 60, instances: 60 },
      baseline: null,
      checks: [],
      tradeoffs: [],
      coverage: null,
      scenarios,
    };
    const text = JSON.stringify(report);
    expect(text).toContain('"scenarios":{"__proto__":{"accuracy"');
    const parsed = parseGateReport(text, 'report.json');
    expect(JSON.stringify(parsed)).toBe(text);
    expect(Object.getPrototypeOf(parsed.scenarios)).toBeNull();
    expect(gateMarkdown(parsed)).toContain('<details><summary>Scenario __proto__: every metric of the candidate</summary>');
    // Its numbers are still checked: 1e999 (Infinity) is refused, at a path that names __proto__.
    expect(() => parseGateReport(text.replace('"value":0', '"value":1e999'), 'report.json')).toThrow(
      'report.json: not an evalgate report: scenarios.__proto__.accuracy.value: ',
    );
  });
});
