import { createRequire as __evalgateCreateRequire } from 'node:module';
const require = __evalgateCreateRequire(import.meta.url);
import {
  RunMetrics
} from "./action-chunk-46UZ7I5P.js";
import "./action-chunk-5XUAZBSU.js";

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
//# sourceMappingURL=action-metrics-thread.js.map
