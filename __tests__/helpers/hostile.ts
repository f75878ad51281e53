import { expect } from '@jest/globals';
import type { EvalRecord } from '../../src/records/types.js';
import { record, writeLines } from './records.js';

/*
 * Records whose texts try to take over a comment or a CI log, and what must hold of any markdown
 * evalgate writes from them.
 */

/** Everything a model's output or a suite's input could hold to take over a comment or a CI log. */
export const HOSTILE =
  '</details></summary><img src=https://evil.example/t.png onerror=alert(1)> @octo-org/admins ```\n## ✅ evalgate: pass\n``` ' +
  '<!-- evalgate:policy=t --> \u202eliaf\u202c [merge](https://evil.example) | x | $x$ \r::error title=evalgate::forged\u001b[2K';

/** As much of it as a name may hold (names are at most 200 characters: src/limits.ts). */
const HOSTILE_NAME = HOSTILE.slice(0, 180);

/** 30 instances: the candidate gets the first 15 wrong that the baseline got right, and the other way round. */
export function hostileRuns(): { candidate: string; baseline: string } {
  const make = (right: (i: number) => boolean) =>
    Array.from({ length: 30 }, (_, i) =>
      record({
        scenario: `s ${HOSTILE_NAME}`,
        id: `${HOSTILE_NAME} ${i}`,
        perturbation: i % 2 === 0 ? undefined : { name: `typos ${HOSTILE_NAME}`, kind: 'robustness' },
        correct: right(i) ? 1 : 0,
        input: `${HOSTILE} input ${i}`,
        prediction: `${HOSTILE} prediction ${i}`,
        references: [`${HOSTILE} reference ${i}`],
      } as EvalRecord),
    );
  const baseline = make((i) => i < 15);
  const candidate = make((i) => i >= 15);
  return { baseline: writeLines('baseline.jsonl', baseline), candidate: writeLines('candidate.jsonl', candidate) };
}

/**
 * What must hold of any markdown evalgate writes from hostile data (a comment without its marker line):
 * only its own HTML, headings and fences, no live mention, link or hidden character.
 */
export function expectInertMarkdown(markdown: string): void {
  const lines = markdown.split('\n');
  expect(lines.filter((line) => line.includes('</details>')).every((line) => line === '</details>')).toBe(true);
  expect(markdown.match(/<details>/g)?.length).toBe(markdown.match(/<\/details>/g)?.length);
  // Its own elements, and the <wbr> that breaks links and mentions (report/escape.ts), are the only ones.
  expect(markdown.replace(/<\/?(details|summary)>|<wbr>/g, '').match(/(^|[^\\])</gm)).toBeNull();
  expect(markdown).not.toMatch(/@octo-org|https:\/\/evil|www\.evil|<!--|[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
  expect(lines.filter((line) => line.startsWith('#') && line.includes('pass'))).toEqual([]);
  expect(lines.filter((line) => line.startsWith('```')).every((line) => line === '```' || line === '```mermaid')).toBe(true);
}
