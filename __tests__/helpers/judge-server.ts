import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 that plays two parts, by the model asked for:
 * - a model whose name starts with "judge" grades: it reads the answer and the references out of the
 *   prompt (the built-in templates' "[Answer]" or "[Response]" and "[Reference answers]" or "[Rubric]"
 *   sections) and replies `{"verdict": "pass"}` when the answer is one of the references, else
 *   `{"verdict": "fail"}`, with a reason; unless the answer holds a trigger word: "GARBAGE" (prose),
 *   "HEDGE" (a verdict of "partly"), "REFUSE" (a refusal), "TWOOBJECTS" (two JSON objects),
 *   "FENCED" (the pass verdict in a ```json fence), "JUDGE500" (an HTTP 500), "SCORED" (a score of 0.8);
 * - any other model is the model under test: it answers `answers[input]`, else the input itself.
 * With `structured` false, a request with a `response_format` gets a 400 as from an endpoint that has
 * none. Every request's body is kept (`bodies`), and the answers name `served[model]` as the model served.
 */
export interface JudgeServer {
  url: string;
  /** The bodies of the chat requests, in order of arrival. */
  bodies: Array<Record<string, unknown> & { model: string; messages: Array<{ content: string }> }>;
  /** How many chat requests asked for a model. */
  countFor(model: string): number;
  answers: Map<string, string>;
  served: Map<string, string>;
  structured: boolean;
  /** With a judge key set, a request to a judge without `Authorization: Bearer KEY` gets a 401. */
  judgeKey: string | undefined;
  close(): Promise<void>;
}

function section(prompt: string, names: string[]): string | undefined {
  for (const name of names) {
    const match = new RegExp(`\\[${name}\\]\\n([\\s\\S]*?)\\n\\n`).exec(prompt);
    if (match) return match[1];
  }
  return undefined;
}

/** The stand-in judge's reply to a prompt. */
export function judgeReply(prompt: string): { status: number; text: string } {
  const answer = section(prompt, ['Answer', 'Response']) ?? '';
  const references = (section(prompt, ['Reference answers', 'Rubric']) ?? '').split('\n').map((line) => line.replace(/^- /, ''));
  if (answer.includes('JUDGE500')) return { status: 500, text: 'judge overloaded' };
  if (answer.includes('GARBAGE')) return { status: 200, text: 'The answer looks fine to me overall.' };
  if (answer.includes('HEDGE')) return { status: 200, text: '{"verdict": "partly", "reason": "some of it is right"}' };
  if (answer.includes('REFUSE')) return { status: 200, text: "I'm sorry, but I can't help with grading this." };
  if (answer.includes('TWOOBJECTS')) return { status: 200, text: '{"verdict": "pass", "reason": "a"} {"verdict": "fail", "reason": "b"}' };
  if (answer.includes('FENCED')) return { status: 200, text: '```json\n{"verdict": "pass", "reason": "fenced"}\n```' };
  if (answer.includes('SCORED')) return { status: 200, text: '{"verdict": "pass", "score": 0.8, "reason": "mostly"}' };
  const right = references.includes(answer.trim());
  return { status: 200, text: JSON.stringify({ verdict: right ? 'pass' : 'fail', reason: right ? 'matches' : 'differs' }) };
}

export async function startJudgeServer(): Promise<JudgeServer> {
  const state = {
    bodies: [] as JudgeServer['bodies'],
    answers: new Map<string, string>(),
    served: new Map<string, string>(),
    structured: true,
    judgeKey: undefined as string | undefined,
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const send = (status: number, data: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(data));
    };
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') return send(404, { error: { message: 'no route' } });
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JudgeServer['bodies'][number];
    state.bodies.push(body);
    if (!state.structured && body.response_format !== undefined) {
      return send(400, { error: { message: 'response_format of type json_schema is not supported by this model' } });
    }
    const prompt = body.messages.map((message) => message.content).join('\n');
    const judging = body.model.startsWith('judge');
    if (judging && state.judgeKey !== undefined && request.headers.authorization !== `Bearer ${state.judgeKey}`) {
      return send(401, { error: { message: 'Incorrect API key provided' } });
    }
    const { status, text } = judging ? judgeReply(prompt) : { status: 200, text: state.answers.get(prompt) ?? prompt };
    if (status !== 200) return send(status, { error: { message: text } });
    send(200, {
      id: `chatcmpl-${state.bodies.length}`,
      object: 'chat.completion',
      created: 0,
      model: state.served.get(body.model) ?? body.model,
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
