import OpenAI from 'openai';
const payload = JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'refund' }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } });
const fetch = async (url, init) => { const h = {}; init.headers.forEach((v, k) => (h[k] = v)); await new Promise((r) => setImmediate(r)); return ({ ok: true, status: 200, statusText: 'OK', headers: new Headers({ 'content-type': 'application/json' }), url: '', json: async () => JSON.parse(payload), text: async () => payload }); };
const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0, logLevel: 'off', fetch });
const call = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'question 1' }], logprobs: true }, { signal: new AbortController().signal });
let next = 0; const t = performance.now(); const cpu = process.cpuUsage();
await Promise.all(Array.from({ length: 32 }, async () => { while (next++ < 2000) await call(); }));
const c = process.cpuUsage(cpu);
console.log(((performance.now() - t)).toFixed(0), 'ms', ((c.user + c.system) / 2000).toFixed(0), 'us cpu/req');
