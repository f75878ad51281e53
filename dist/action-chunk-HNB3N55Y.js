import { createRequire as __evalgateCreateRequire } from 'node:module';
const require = __evalgateCreateRequire(import.meta.url);
import {
  require_undici
} from "./action-chunk-OREIHSQE.js";
import "./action-chunk-5XUAZBSU.js";
export default require_undici();
//# sourceMappingURL=action-chunk-HNB3N55Y.js.map
