import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 for the judge's self-consistency and bias
 * probes, whose every answer follows from the request, so that the counts are known by hand:
 * - a model whose name does not start with "judge" is the model under test: it answers `answers[prompt]`,
 *   else the prompt itself;
 * - a judge asked for a grade (the built-in templates' "[Answer]") answers sample by sample (the request's
 *   seed j): an answer holding "VOTES:" and letters gives letter j's verdict: P pass, F fail, U an
 *   unreadable reply, E an HTTP 500; "SCORES:" and numbers gives number j as a score; anything else passes;
 * - a judge asked to compare (the built-in pairwise template's "[Answer A]" and "[Answer B]") prefers, in
 *   this order: neither (garbage) when either answer holds "PAIRGARBAGE"; the one answer holding "GOOD";
 *   the longer answer; else the answer in position A (a position bias: such verdicts flip with the order).
 */
export interface ProbeJudgeServer {
  url: string;
  bodies: Array<{ model: string; seed?: number; messages: Array<{ content: string }> }>;
  answers: Map<string, string>;
  countFor(model: string): number;
  close(): Promise<void>;
}

function section(prompt: string, name: string): string {
  const match = new RegExp(`\\[${name}\\]\\n([\\s\\S]*?)\\n\\n`).exec(prompt);
  return match ? match[1] : '';
}

const reply = (verdict: Record<string, unknown>) => ({ status: 200, text: JSON.stringify(verdict) });

/** A grade of the answer in the prompt, as sample `seed` gives it. */
function gradeReply(prompt: string, seed: number): { status: number; text: string } {
  const answer = section(prompt, 'Answer');
  const votes = /VOTES:([PFUE]+)/.exec(answer)?.[1];
  const scores = /SCORES:([\d.,]+)/.exec(answer)?.[1];
  if (votes) {
    const vote = votes[seed];
    if (vote === 'E') return { status: 500, text: 'judge overloaded' };
    if (vote === 'U') return { status: 200, text: 'It depends on how you read the question.' };
    return reply({ verdict: vote === 'P' ? 'pass' : 'fail', reason: `sample ${seed}` });
  }
  if (scores) {
    const score = Number(scores.split(',')[seed]);
    return reply({ verdict: score >= 0.5 ? 'pass' : 'fail', score, reason: `sample ${seed}` });
  }
  return reply({ verdict: 'pass', reason: 'fine' });
}

/** The stand-in's pairwise verdict on the prompt's answers A and B. */
function pairwiseReply(prompt: string): { status: number; text: string } {
  const [a, b] = [section(prompt, 'Answer A'), section(prompt, 'Answer B')];
  if (a.includes('PAIRGARBAGE') || b.includes('PAIRGARBAGE')) return { status: 200, text: 'Both have merit.' };
  if (a.includes('GOOD') !== b.includes('GOOD')) return reply({ verdict: a.includes('GOOD') ? 'A' : 'B', reason: 'good' });
  if (a.length !== b.length) return reply({ verdict: a.length > b.length ? 'A' : 'B', reason: 'longer' });
  return reply({ verdict: 'A', reason: 'first' });
}

export async function startProbeJudgeServer(): Promise<ProbeJudgeServer> {
  const state = { bodies: [] as ProbeJudgeServer['bodies'], answers: new Map<string, string>() };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, data: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(data));
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, { error: { message: 'no route' } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProbeJudgeServer['bodies'][number];
    state.bodies.push(body);
    const prompt = body.messages.map((message) => message.content).join('\n');
    const judging = body.model.startsWith('judge');
    const { status, text } = !judging
      ? { status: 200, text: state.answers.get(prompt) ?? prompt }
      : prompt.includes('[Answer A]')
        ? pairwiseReply(prompt)
        : gradeReply(prompt, body.seed ?? 0);
    if (status !== 200) return send(status, { error: { message: text } });
    send(200, {
      id: `chatcmpl-${state.bodies.length}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: judging ? { prompt_tokens: 100, completion_tokens: 10 } : { prompt_tokens: 5, completion_tokens: 1 },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    countFor: (model: string) => state.bodies.filter((body) => body.model === model).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
