import OpenAI from 'openai';
const payload = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'refund' }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } });
const headers = new Headers({ 'content-type': 'application/json' });
const kinds = {
  undici: async () => new Response(payload, { status: 200, headers: new Headers({ 'content-type': 'application/json' }) }),
  minimal: async () => ({ ok: true, status: 200, statusText: 'OK', headers: new Headers({ 'content-type': 'application/json' }), url: '', json: async () => JSON.parse(payload), text: async () => payload }),
};
for (const [name, fetch] of Object.entries(kinds)) {
  const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0, logLevel: 'off', fetch });
  const call = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'question 1' }], logprobs: true }, { signal: new AbortController().signal });
  for (let i = 0; i < 2000; i++) await call();
  const t = performance.now(); const cpu = process.cpuUsage();
  for (let i = 0; i < 5000; i++) await call();
  const c = process.cpuUsage(cpu);
  console.log(name, ((performance.now() - t) / 5000 * 1000).toFixed(0), 'us wall', ((c.user + c.system) / 5000).toFixed(0), 'us cpu');
}
