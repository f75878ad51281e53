import chromium from '@sparticuz/chromium';
import { createRequire } from 'node:module';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/*
 * A real headless Chromium (the binary ships inside the @sparticuz/chromium npm package) driven by
 * puppeteer-core, for the tests of what evalgate writes for a browser: the HTML report, and the mermaid
 * blocks GitHub draws. Launching takes seconds: one browser per test file.
 */

export function launchBrowser(): Promise<Browser> {
  return chromium.executablePath().then((executablePath) => puppeteer.launch({ args: chromium.args, executablePath, headless: true }));
}

/** What a page did while it loaded: console errors, uncaught errors, dialogs, and every request beyond the page itself. */
export interface PageEvents {
  consoleErrors: string[];
  pageErrors: string[];
  dialogs: string[];
  requests: string[];
}

/** Opens a file:// page, refusing (and recording) every other request. */
export async function openPage(
  browser: Browser,
  url: string,
  { javaScript = true, viewport }: { javaScript?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; events: PageEvents }> {
  const page = await browser.newPage();
  if (viewport) await page.setViewport(viewport);
  await page.setJavaScriptEnabled(javaScript);
  const events: PageEvents = { consoleErrors: [], pageErrors: [], dialogs: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') events.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => events.pageErrors.push(String(error)));
  page.on('dialog', (dialog) => {
    events.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url() === url) return void request.continue();
    events.requests.push(request.url());
    void request.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, events };
}

/** mermaid's browser build, as GitHub loads it to draw a ```mermaid block. */
export const MERMAID_SCRIPT = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');

/** Every ```mermaid block of a markdown text. */
export function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```mermaid\n([\s\S]*?)\n```$/gm)].map((match) => match[1]);
}

/** Renders each chart with mermaid in the page; returns the error of each that failed ("" for none). */
export async function renderMermaid(page: Page, charts: string[]): Promise<string[]> {
  await page.addScriptTag({ path: MERMAID_SCRIPT });
  return page.evaluate(async (texts: string[]) => {
    const mermaid = (
      globalThis as unknown as { mermaid: { initialize(config: object): void; render(id: string, text: string): Promise<{ svg: string }> } }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    const errors: string[] = [];
    for (const [index, text] of texts.entries()) {
      try {
        const { svg } = await mermaid.render(`chart${index}`, text);
        errors.push(svg.includes('<svg') ? '' : 'no SVG');
      } catch (error) {
        errors.push(String((error as Error).message ?? error));
      }
    }
    return errors;
  }, charts);
}
