import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
const agents = { "http:": new HttpAgent({ keepAlive: true, maxSockets: 256 }), "https:": new HttpsAgent({ keepAlive: true, maxSockets: 256 }) };
async function keepAliveFetch(input, init = {}) {
  const url = new URL(input instanceof Request ? input.url : input);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = {};
  new Headers(init.headers).forEach((value, name) => headers[name] = value);
  const body = typeof init.body === "string" ? init.body : init.body === void 0 || init.body === null ? void 0 : Buffer.from(await new Response(init.body).arrayBuffer());
  return new Promise((resolve, reject) => {
    const request = send(url, { method: init.method ?? "GET", headers, agent: agents[url.protocol], signal: init.signal ?? void 0 }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== void 0) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        const status = response.statusCode ?? 500;
        const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        resolve(new Response(payload, { status, statusText: response.statusMessage, headers: responseHeaders }));
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
export {
  keepAliveFetch
};
