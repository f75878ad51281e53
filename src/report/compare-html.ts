import { cellReport, shippedWords, type DecisionCell } from './compare.js';
import { decisionLabel } from './words.js';
import { escapeHtml } from './escape.js';
import { gateHtmlParts, htmlPage, verdictWords } from './html.js';

/*
 * The decision matrix as one HTML page (`evalgate compare --html`, `evalgate demo --html`): the matrix,
 * each cell a link to its gate's whole report further down the page. Ids are made of the policy's and the
 * candidate's positions, never of their names (data).
 */

/** The id of the section of the policy's and candidate's gate (counted from 1). */
export const gateSectionId = (policy: number, candidate: number) => `gate-${policy + 1}-${candidate + 1}`;

/**
 * A gate's section: its title, and the headings of its report one level down. Everything from data in
 * these parts is escaped (`<` written `&lt;`, in the SVG too), so a heading tag here is one of evalgate's own.
 */
function gateSection(id: string, title: string, parts: string[]): string {
  const nested = parts.map((part) =>
    part.replace(/<(\/?)h([1-5])\b/g, (_, slash: string, level: string) => `<${slash}h${Number(level) + 1}`),
  );
  return `<section id="${id}">\n<h2>${title}</h2>\n${nested.join('\n')}\n<p><a href="#matrix">back to the decision matrix</a></p>\n</section>`;
}

/** The decision matrix with a link from each cell to its gate's section; `minGroupSize` of each policy by name. */
export async function decisionMatrixHtml(
  policies: string[],
  candidates: string[],
  cells: DecisionCell[],
  minGroupSize: (policy: string) => number,
): Promise<string> {
  const head = `<tr><th>policy \\ candidate</th>${candidates.map((candidate) => `<th>${escapeHtml(candidate)}</th>`).join('')}</tr>`;
  const rows = policies.map((policy, p) => {
    const links = candidates.map((candidate, c) => {
      const { verdict } = cellReport(cells, policy, candidate);
      return `<td class="decision ${verdict}"><a href="#${gateSectionId(p, c)}">${decisionLabel(verdict)}</a></td>`;
    });
    return `<tr><th>${escapeHtml(policy)}</th>${links.join('')}</tr>`;
  });
  const shipped = policies.map((policy) => `<li><b>${escapeHtml(policy)}</b>: ${shippedWords(cells, policy, candidates, escapeHtml)}</li>`);
  const sections = await Promise.all(
    policies.flatMap((policy, p) =>
      candidates.map(async (candidate, c) => {
        const report = cellReport(cells, policy, candidate);
        const id = gateSectionId(p, c);
        const parts = await gateHtmlParts(report, { minGroupSize: minGroupSize(policy), idPrefix: `${id}-` });
        return gateSection(id, `${escapeHtml(candidate)} under ${escapeHtml(policy)}: ${verdictWords(report)}`, parts);
      }),
    ),
  );
  return htmlPage('evalgate: the decision matrix', [
    '<h1>evalgate: the decision matrix</h1>',
    `<table class="matrix" id="matrix">\n${head}\n${rows.join('\n')}\n</table>`,
    `<ul>\n${shipped.join('\n')}\n</ul>`,
    `<p class="note">ship: the gate passes or warns; block: it fails. Each cell links to its gate's report below.</p>`,
    ...sections,
  ]);
}
