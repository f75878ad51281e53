import { createRequire as __evalgateCreateRequire } from 'node:module';
const require = __evalgateCreateRequire(import.meta.url);
import {
  RunMetrics
} from "./cli-chunk-VWI7BAOC.js";
import "./cli-chunk-OJ3SCZ73.js";

// src/pipeline/metrics-thread-main.ts
import { parentPort } from "node:worker_threads";
function answer({ table, options, named }) {
  try {
    return { entries: new RunMetrics(table, options).computeScopes(named) };
  } catch (error) {
    return { error: error instanceof Error ? error.stack ?? error.message : String(error) };
  }
}
var reply = (job) => parentPort?.postMessage(answer(job));
parentPort?.on("message", reply);
//# sourceMappingURL=cli-metrics-thread.js.map
