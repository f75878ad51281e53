import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { runCli } from '../src/cli/index.js';
import { commentMarker } from '../src/action/github/comment.js';
import { codeSpan, escapeHtml, escapeMarkdown, escapeTerminal } from '../src/report/escape.js';
import { record, tempDir, writeLines } from './helpers/records.js';

// What a model or another tool wrote must stay inert wherever evalgate shows it.
const JOINER = '\u2060';

describe('escaping data for reports', () => {
  it('markdown: punctuation escaped, line ends gone, mentions and links broken', () => {
    expect(escapeMarkdown('a|b <img src=x> *x* `c`')).toBe('a\\|b \\<img src=x\\> \\*x\\* \\`c\\`');
    expect(escapeMarkdown('one\ntwo\r\rthree\u2028four')).toBe('one two  three four');
    // Math ($...$ renders as LaTeX) and invisible marks that reorder text ("liaf" shown as "fail").
    expect(escapeMarkdown('$x^2$ \u202eliaf\u202c z\u200bw')).toBe('\\$x^2\\$  liaf  z w');
    expect(escapeMarkdown('ping @octo-org/admins at https://evil.example or www.evil.example')).toBe(
      `ping @${JOINER}octo-org/admins at https:${JOINER}//evil.example or www${JOINER}.evil.example`,
    );
  });

  it('cuts a very long value so that one value cannot crowd the report out of a comment', () => {
    const shown = escapeMarkdown('x'.repeat(70_000));
    expect(shown.length).toBe(400);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('HTML blocks get entities, since backslashes do not escape there', () => {
    expect(escapeHtml(`<img src="https://e.x/t.png"> & 'q' </summary>`)).toBe(
      `&lt;img src=&quot;https:${JOINER}//e.x/t.png&quot;&gt; &amp; &#39;q&#39; &lt;/summary&gt;`,
    );
  });

  it('code spans cannot be closed early', () => {
    expect(codeSpan('a`b\nc')).toBe("`a'b c`");
  });

  it('terminal text shows control characters as escapes, so no line of data starts a workflow command', () => {
    const text = escapeTerminal('id\n::set-output name=verdict::pass\r\u001b[31m');
    expect(text).toBe('id\\n::set-output name=verdict::pass\\r\\u001b[31m');
    expect(text).not.toMatch(/[\n\r\u001b]/);
  });
});

describe('the sticky comment marker', () => {
  it('keeps plain names, never ends its HTML comment early, and gives different names different markers', () => {
    expect(commentMarker('customer-support')).toBe('<!-- evalgate:policy=customer-support -->');
    const names = ['a--b', 'a_b', 'a>b', 'a%3Eb', 'a---b', 'a-%2Db'];
    const markers = names.map((name) => commentMarker(name));
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
