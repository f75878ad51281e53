import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { commentMarker } from '../src/action/github/comment.js';
import { codeSpan, escapeHtml, escapeMarkdown, escapeTerminal, mermaidLabel, plainLabel } from '../src/report/escape.js';
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

describe('escaping, one class of character at a time', () => {
  it.each([
    ['tab', 'a\tb', 'a\\tb'],
    ['line feed', 'a\nb', 'a\\nb'],
    ['carriage return', 'a\rb', 'a\\rb'],
    ['NUL', 'a\u0000b', 'a\\u0000b'],
    ['another control (Cc)', 'a\u0007b', 'a\\u0007b'],
    ['DEL', '\u007f', '\\u007f'],
    ['a C1 control', '\u0085', '\\u0085'],
    ['line separator (Zl)', '\u2028', '\\u2028'],
    ['paragraph separator (Zp)', '\u2029', '\\u2029'],
    ['bidi override (Cf)', '\u202e', '\\u202e'],
    ['zero-width joiner (Cf)', '\u200d', '\\u200d'],
    ['soft hyphen (Cf)', '\u00ad', '\\u00ad'],
    ['Arabic letter mark (Cf)', '\u061c', '\\u061c'],
    ['lone high surrogate (Cs)', 'a\ud800b', 'a\\ud800b'],
    ['lone low surrogate (Cs)', '\udc00', '\\udc00'],
    ['Hangul filler (default-ignorable)', '\u3164', '\\u3164'],
    ['combining grapheme joiner (default-ignorable)', '\u034f', '\\u034f'],
    ['a variation selector past the two of emoji and text', '\ufe00', '\\ufe00'],
    ['blank braille pattern', 'a\u2800b', 'a\\u2800b'],
    ['tag character (astral)', '\u{e0041}', '\\u{e0041}'],
    ['emoji presentation selector: kept', '\u26a0\ufe0f', '\u26a0\ufe0f'],
    ['text presentation selector: kept', '\u26a0\ufe0e', '\u26a0\ufe0e'],
    ['a braille pattern with dots: kept', '\u2801', '\u2801'],
    ['an astral emoji: kept', '😀', '😀'],
  ])('%s', (_, text, shown) => {
    // Every format shows it the same way; terminal text adds nothing else.
    expect(escapeTerminal(text)).toBe(shown);
    expect(plainLabel(text)).toBe(shown);
    expect(codeSpan(text)).toBe(`\`${shown}\``);
    expect(escapeHtml(text)).toBe(shown);
    expect(mermaidLabel(text)).toBe(`"${shown}"`);
    expect(escapeMarkdown(text)).toBe(shown.replace(/[\\{}]/g, '\\$&'));
  });

  it.each(['\\', '`', '*', '_', '{', '}', '[', ']', '<', '>', '#', '!', '|', '~', '&', '$'])('markdown escapes %s', (character) => {
    expect(escapeMarkdown(`a${character}b`)).toBe(`a\\${character}b`);
  });

  it.each(['(', ')', '-', '+', '.', '"', "'", '%', '^', '=', ':', '/'])('markdown leaves %s as it is', (character) => {
    expect(escapeMarkdown(`a${character}b`)).toBe(`a${character}b`);
  });

  it.each([
    ['&', '&amp;'],
    ['<', '&lt;'],
    ['>', '&gt;'],
    ['"', '&quot;'],
    ["'", '&#39;'],
    ['\\', '\\'],
    ['*', '*'],
  ])('HTML shows %s as %s', (character, entity) => {
    expect(escapeHtml(`a${character}b`)).toBe(`a${entity}b`);
  });

  it.each([
    ['www.', 'see www.x.org', 'see www<wbr>.x.org'],
    ['WWW. in capitals', 'WWW.x.org', 'WWW<wbr>.x.org'],
    ['a scheme', 'a://b', 'a:<wbr>//b'],
    ['a colon without //', 'a:/b c:d', 'a:/b c:d'],
    ['a mention', 'me@x', 'me@<wbr>x'],
    ['a reference', 'GH-12 gh-3', 'GH-<wbr>12 gh-<wbr>3'],
    ['GH- without a number', 'GH-x', 'GH-x'],
  ])('links broken in HTML: %s', (_, text, shown) => {
    expect(escapeHtml(text)).toBe(shown);
  });

  it.each([
    ['#1', '\\#<wbr>1'],
    ['#a', '\\#a'],
  ])('markdown %s', (text, shown) => {
    expect(escapeMarkdown(text)).toBe(shown);
  });

  it.each([
    ['a colon at the start', ':x', '\\u003ax'],
    ['after spaces', '  :x', '  \\u003ax'],
    ['after a tab: the tab is shown, so no longer a space', '\t:x', '\\t:x'],
    ['inside the text', 'a:x', 'a:x'],
    ['##[', 'a##[b', 'a##\\u005bb'],
    ['#[ alone', 'a#[b', 'a#[b'],
  ])('terminal: %s', (_, text, shown) => {
    expect(escapeTerminal(text)).toBe(shown);
  });

  it.each([
    ['quotes and backticks', 'a"b`c', '"a b c"'],
    ['%%', 'a%%b', '"a% %b"'],
    ['%%%', '%%%', '"% % %"'],
    ['one %', 'a%b', '"a%b"'],
    ['an entity code', '#lt;', '"# lt;"'],
    ['# not an entity', '#lt', '"#lt"'],
    ['empty', '', '" "'],
  ])('mermaid: %s', (_, text, label) => {
    expect(mermaidLabel(text)).toBe(label);
  });

  it('cuts at 400 characters: 400 kept whole, 401 cut to 399 and an ellipsis, never inside a pair', () => {
    expect(plainLabel('x'.repeat(400))).toBe('x'.repeat(400));
    expect(plainLabel('x'.repeat(401))).toBe(`${'x'.repeat(399)}…`);
    expect(plainLabel(`${'x'.repeat(397)}😀yy`)).toBe(`${'x'.repeat(397)}😀…`);
    expect(plainLabel(`${'x'.repeat(398)}😀y`)).toBe(`${'x'.repeat(398)}…`);
    // The first and the last high surrogates (U+10000 and U+10FFFF) are pairs' first halves too.
    expect(plainLabel(`${'x'.repeat(398)}\u{10000}y`)).toBe(`${'x'.repeat(398)}…`);
    expect(plainLabel(`${'x'.repeat(398)}\u{10ffff}y`)).toBe(`${'x'.repeat(398)}…`);
    expect(codeSpan('x'.repeat(401))).toBe(`\`${'x'.repeat(399)}…\``);
    expect(mermaidLabel('x'.repeat(401))).toBe(`"${'x'.repeat(399)}…"`);
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
