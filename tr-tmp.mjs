import { Agent, request } from 'node:http';
import { Pool } from 'undici';
import OpenAI from 'openai';
import { keepAliveFetch } from './ka-tmp.mjs';
const N = 2000, C = 32;
const body = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'question 1' }], logprobs: true });
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const pool = new Pool('http://127.0.0.1:18081', { connections: 64, pipelining: 1 });
const ways = {
  http: () => new Promise((resolve, reject) => {
    const r = request('http://127.0.0.1:18081/v1/chat/completions', { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
    }); r.on('error', reject); r.end(body);
  }),
  undici: async () => { const { body: b } = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body }); return b.json(); },
  fetchKA: async () => (await keepAliveFetch('http://127.0.0.1:18081/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json(),
};
const client = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:18081/v1', maxRetries: 0, logLevel: 'off', fetch: keepAliveFetch });
ways.openaiKA = () => client.chat.completions.create({ model: 'bench', messages: [{ role: 'user', content: 'question 1' }], logprobs: true }, { signal: new AbortController().signal });
const client2 = new OpenAI({ apiKey: 'k', baseURL: 'http://127.0.0.1:18081/v1', maxRetries: 0, logLevel: 'off' });
ways.openaiDefault = () => client2.chat.completions.create({ model: 'bench', messages: [{ role: 'user', content: 'question 1' }], logprobs: true }, { signal: new AbortController().signal });
async function bench(fn) {
  let next = 0;
  const t = performance.now(); const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: C }, async () => { while (next++ < N) await fn(); }));
  const c = process.cpuUsage(cpu);
  return `${((performance.now() - t) / 1000).toFixed(2)} s wall, ${((c.user + c.system) / N).toFixed(0)} us cpu/req`;
}
const only = process.argv[2];
for (const [name, fn] of Object.entries(ways)) { if (only && name !== only) continue; console.log(name, await bench(fn), await bench(fn), await bench(fn)); }
process.exit(0);
