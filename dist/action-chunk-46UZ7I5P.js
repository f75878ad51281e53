import { createRequire as __evalgateCreateRequire } from 'node:module';
const require = __evalgateCreateRequire(import.meta.url);

// src/errors.ts
var InputError = class extends Error {
  constructor(file, line, detail) {
    super(line === void 0 ? `${file}: ${detail}` : `${file}:${line}: ${detail}`);
    this.file = file;
    this.line = line;
    this.detail = detail;
    this.name = "InputError";
  }
  file;
  line;
  detail;
};
var UsageError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
};
var ConfigError = class extends Error {
  constructor(problems) {
    super(problems.join("\n"));
    this.problems = problems;
    this.name = "ConfigError";
  }
  problems;
};
function isBadInput(error) {
  return error instanceof InputError || error instanceof UsageError || error instanceof ConfigError;
}

// src/stats/quantile.ts
function lerp(low, high, t) {
  const difference = high - low;
  return t >= 0.5 ? high - difference * (1 - t) : low + difference * t;
}
function quantileSorted(sorted, q) {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const low = Math.floor(h);
  const high = Math.min(low + 1, n - 1);
  return lerp(sorted[low], sorted[high], h - low);
}
function weightedQuantileSorted(sorted, instanceOf, weights, total, q) {
  if (total <= 0) return NaN;
  const h = (total - 1) * q;
  const lowRank = Math.floor(h);
  const highRank = Math.min(lowRank + 1, total - 1);
  let low = NaN;
  let seen = 0;
  if (lowRank < total / 2) {
    for (let index = 0; index < sorted.length; index++) {
      seen += weights[instanceOf[index]];
      if (Number.isNaN(low) && seen > lowRank) low = sorted[index];
      if (seen > highRank) return lerp(low, sorted[index], h - lowRank);
    }
  } else {
    let high = NaN;
    for (let index = sorted.length - 1; index >= 0; index--) {
      seen += weights[instanceOf[index]];
      if (Number.isNaN(high) && seen > total - 1 - highRank) high = sorted[index];
      if (seen > total - 1 - lowRank) return lerp(sorted[index], high, h - lowRank);
    }
  }
  return NaN;
}

// src/stats/random.ts
var Random = class {
  // The state lives in a typed array: 32-bit values in object fields would be boxed on every step. The step is written out again in the hot loops below (fill, addPoisson, addUniform) to keep the state in locals; tests hold them to nextUint32.
  state = new Int32Array(4);
  constructor(seed) {
    let x = seed >>> 0;
    const splitmix32 = () => {
      x = x + 2654435769 >>> 0;
      let z = x;
      z = Math.imul(z ^ z >>> 16, 2246822507);
      z = Math.imul(z ^ z >>> 13, 3266489909);
      return (z ^ z >>> 16) >>> 0;
    };
    for (let index = 0; index < 4; index++) this.state[index] = splitmix32();
  }
  /** Next unsigned 32-bit integer. */
  nextUint32() {
    const s = this.state;
    const result = Math.imul(rotateLeft(Math.imul(s[1], 5), 7), 9);
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotateLeft(s[3], 11);
    return result >>> 0;
  }
  /** Fills the first `count` entries of `out` with what as many nextUint32() calls would give, with the state in locals. */
  fill(out, count = out.length) {
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    for (let index = 0; index < count; index++) {
      out[index] = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9);
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
  }
  /**
   * Poisson draws into counts[0..cells), one 32-bit uniform each (as sampler.drawFor(u) for the
   * uniforms fill() would give), with the state in locals: twice as fast as filling and drawing
   * apart. Returns their sum.
   */
  addPoisson(sampler, counts, cells) {
    const { scaledCumulative, guide, guideShift } = sampler;
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    let drawn = 0;
    for (let cell = 0; cell < cells; cell++) {
      const u = Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
      let k = guide[u >>> guideShift];
      while (scaledCumulative[k] <= u) k++;
      counts[cell] = k;
      drawn += k;
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
    return drawn;
  }
  /**
   * Adds 1 to `count` uniform cells of `counts` (what `count` calls of counts[nextBelow(n, threshold)]++
   * would), with the state in locals.
   */
  addUniform(counts, count, n, threshold) {
    const state = this.state;
    let s0 = state[0];
    let s1 = state[1];
    let s2 = state[2];
    let s3 = state[3];
    for (let added = 0; added < count; ) {
      const product = (Math.imul(rotateLeft(Math.imul(s1, 5), 7), 9) >>> 0) * n;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotateLeft(s3, 11);
      const index = Math.floor(product * 23283064365386963e-26);
      if (product - index * 4294967296 < threshold) continue;
      counts[index]++;
      added++;
    }
    state[0] = s0;
    state[1] = s1;
    state[2] = s2;
    state[3] = s3;
  }
  /** Uniform in [0, 1). */
  nextFloat() {
    return this.nextUint32() / 4294967296;
  }
  /** Uniform integer in [0, n), without bias (Lemire's multiply-and-reject), for n up to 2^21. */
  nextBelow(n, threshold = rejectionThreshold(n)) {
    for (; ; ) {
      const product = this.nextUint32() * n;
      const index = Math.floor(product * 23283064365386963e-26);
      if (product - index * 4294967296 >= threshold) return index;
    }
  }
};
function rejectionThreshold(n) {
  return (4294967296 - n) % n;
}
function rotateLeft(x, k) {
  return x << k | x >>> 32 - k;
}
function deriveSeed(seed, label) {
  let hash = (2166136261 ^ seed) >>> 0;
  for (let index = 0; index < label.length; index++) {
    hash ^= label.charCodeAt(index);
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash;
}
function logFactorials(size) {
  const table = new Float64Array(size + 1);
  for (let k = 1; k <= size; k++) table[k] = table[k - 1] + Math.log(k);
  return table;
}
var PoissonSampler = class {
  constructor(mean) {
    this.mean = mean;
    const last = Math.ceil(mean + 40 * Math.sqrt(mean) + 40);
    const logFactorial = logFactorials(last);
    this.scaledCumulative = new Float64Array(last + 1);
    let sum = 0;
    for (let k2 = 0; k2 <= last; k2++) {
      sum += mean > 0 ? Math.exp(-mean + k2 * Math.log(mean) - logFactorial[k2]) : k2 === 0 ? 1 : 0;
      this.scaledCumulative[k2] = sum * 4294967296;
    }
    this.scaledCumulative[last] = Infinity;
    const guideBits = Math.ceil(Math.log2(last + 1)) + 1;
    this.guideShift = 32 - guideBits;
    this.guide = new Int32Array(2 ** guideBits);
    let k = 0;
    for (let slot = 0; slot < this.guide.length; slot++) {
      while (this.scaledCumulative[k] <= slot * 2 ** this.guideShift) k++;
      this.guide[slot] = k;
    }
  }
  mean;
  scaledCumulative;
  /** Per slot of the top GUIDE_BITS bits of u: the smallest k any u in the slot can give. */
  guide;
  guideShift;
  /** The draw for the 32-bit uniform `u`. */
  drawFor(u) {
    let k = this.guide[u >>> this.guideShift];
    while (this.scaledCumulative[k] <= u) k++;
    return k;
  }
  draw(random) {
    return this.drawFor(random.nextUint32());
  }
};

// src/stats/bootstrap.ts
var DEFAULT_RESAMPLES = 1e3;
var DEFAULT_SEED = 1;
var LITTLE_BOOTSTRAP_SUBSETS = 10;
function multinomialDrawer(cells, total) {
  const sampler = total > cells ? new PoissonSampler(Math.max(0, total - 2.5 * Math.sqrt(total)) / cells) : void 0;
  const threshold = rejectionThreshold(cells);
  return (random, counts) => {
    let drawn = 0;
    if (sampler) {
      do
        drawn = random.addPoisson(sampler, counts, cells);
      while (drawn > total);
    } else {
      counts.fill(0);
    }
    random.addUniform(counts, total - drawn, cells, threshold);
  };
}
function eachResample(factory, instanceCount, options, visit) {
  const random = new Random(options.seed);
  const collect = (estimators, resamples, cells, total, own2) => {
    const counts = new Float64Array(cells);
    const drawMultinomial = multinomialDrawer(cells, total);
    for (let resample = 0; resample < resamples; resample++) {
      drawMultinomial(random, counts);
      estimators.forEach((estimator, e) => visit(e, estimator.evaluate(counts), own2?.[e]));
    }
  };
  const subsetSize = options.subsetSize ?? instanceCount;
  if (instanceCount > 0 && subsetSize >= instanceCount) {
    collect(factory(), options.resamples, instanceCount, instanceCount);
  } else if (instanceCount > 0) {
    const subsets = Math.min(LITTLE_BOOTSTRAP_SUBSETS, options.resamples);
    const shuffled = new Int32Array(instanceCount);
    for (let index = 0; index < instanceCount; index++) shuffled[index] = index;
    const ones = new Float64Array(subsetSize).fill(1);
    for (let subset = 0; subset < subsets; subset++) {
      for (let index = 0; index < subsetSize; index++) {
        const other = index + random.nextBelow(instanceCount - index);
        [shuffled[index], shuffled[other]] = [shuffled[other], shuffled[index]];
      }
      const chosen = shuffled.slice(0, subsetSize).sort();
      const resamples = Math.floor(options.resamples / subsets) + (subset < options.resamples % subsets ? 1 : 0);
      const estimators = factory(chosen);
      const scale = instanceCount / subsetSize;
      const own2 = estimators.map(
        (estimator, e) => Float64Array.from(estimator.evaluate(ones), (value, k) => options.extensive?.(e, k) ? value * scale : value)
      );
      collect(estimators, resamples, subsetSize, instanceCount, own2);
    }
  }
}
function bootstrapSamples(factory, centre, instanceCount, options) {
  const samples = centre.map((values) => Array.from(values, () => new Float64Array(options.resamples)));
  const filled = centre.map((values) => new Int32Array(values.length));
  eachResample(factory, instanceCount, options, (e, values, own2) => {
    for (let k = 0; k < centre[e].length; k++) {
      const value = own2 ? values[k] - own2[k] + centre[e][k] : values[k];
      if (!Number.isNaN(value)) samples[e][k][filled[e][k]++] = value;
    }
  });
  return samples.map((perOutput, e) => perOutput.map((sample, k) => sample.subarray(0, filled[e][k])));
}
function bootstrapDeviations(factory, instanceCount, options) {
  const full = factory();
  const centre = Float64Array.from(full.evaluate(new Float64Array(instanceCount).fill(1)));
  const deviations = [];
  const estimators = (subset) => [subset ? factory(subset) : full];
  eachResample(estimators, instanceCount, options, (_, values, own2) => {
    const from = own2 ?? centre;
    deviations.push(Float64Array.from(centre, (_value, k) => values[k] - from[k]));
  });
  return deviations;
}
function percentileInterval(samples, level = 0.95) {
  if (samples.length === 0) return void 0;
  const sorted = Float64Array.from(samples).sort();
  const tail = (1 - level) / 2;
  return [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)];
}
function pairedBootstrap(factory, instanceCount, options) {
  const ones = new Float64Array(instanceCount).fill(1);
  const full = factory();
  const baselineValue = full.baseline(ones);
  const difference = full.candidate(ones) - baselineValue;
  const differenceOf = (subset) => {
    const { candidate, baseline } = subset ? factory(subset) : full;
    return [
      {
        evaluate: (weights) => {
          const base = baseline(weights);
          const change = candidate(weights) - base;
          return Number.isNaN(change) ? [NaN, NaN] : [change, base];
        }
      }
    ];
  };
  const [[samples, baselines]] = bootstrapSamples(differenceOf, [[difference, baselineValue]], instanceCount, options);
  let notAbove = 0;
  let notBelow = 0;
  for (const value of samples) {
    if (value <= 0) notAbove++;
    if (value >= 0) notBelow++;
  }
  const valid = samples.length;
  return {
    difference,
    ci: percentileInterval(samples, options.level),
    pAbove: (notAbove + 1) / (valid + 1),
    pBelow: (notBelow + 1) / (valid + 1),
    resamples: valid,
    sd: standardDeviation(samples),
    differences: samples,
    baselines
  };
}
function standardDeviation(values) {
  if (values.length < 2) return NaN;
  let mean = 0;
  for (const value of values) mean += value;
  mean /= values.length;
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

// src/records/dictionary.ts
function dictionary(entries = []) {
  const result = /* @__PURE__ */ Object.create(null);
  for (const [key, value] of entries) result[key] = value;
  return result;
}
function own(object, key) {
  return object !== void 0 && Object.hasOwn(object, key) ? object[key] : void 0;
}

// src/stats/normal.ts
function normalCdf(x) {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const poly = -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(poly);
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}
function normalQuantile(p) {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    return NaN;
  }
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r2 = 0.180625 - q * q;
    return q * (((((((2509.0809287301227 * r2 + 33430.57558358813) * r2 + 67265.7709270087) * r2 + 45921.95393154987) * r2 + 13731.69376550946) * r2 + 1971.5909503065513) * r2 + 133.14166789178438) * r2 + 3.3871328727963665) / (((((((5226.495278852546 * r2 + 28729.085735721943) * r2 + 39307.89580009271) * r2 + 21213.794301586597) * r2 + 5394.196021424751) * r2 + 687.1870074920579) * r2 + 42.31333070160091) * r2 + 1);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let value;
  if (r <= 5) {
    r -= 1.6;
    value = (((((((7745450142783414e-19 * r + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r + 3.6478483247632045) * r + 5.769497221460691) * r + 4.630337846156546) * r + 1.4234371107496835) / (((((((10507500716444169e-25 * r + 5475938084995345e-19) * r + 0.015198666563616457) * r + 0.14810397642748008) * r + 0.6897673349851) * r + 1.6763848301838038) * r + 2.053191626637759) * r + 1);
  } else {
    r -= 5;
    value = (((((((20103343992922881e-23 * r + 27115555687434876e-21) * r + 0.0012426609473880784) * r + 0.026532189526576124) * r + 0.29656057182850487) * r + 1.7848265399172913) * r + 5.463784911164114) * r + 6.657904643501103) / (((((((20442631033899397e-31 * r + 1421511758316446e-22) * r + 18463183175100548e-21) * r + 7868691311456133e-19) * r + 0.014875361290850615) * r + 0.1369298809227358) * r + 0.599832206555888) * r + 1);
  }
  return q < 0 ? -value : value;
}

// src/stats/proportion.ts
function wilsonInterval(successes, n, level = 0.95) {
  if (!(n > 0) || successes < 0 || successes > n) return void 0;
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = successes / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  const low = successes === 0 ? 0 : Math.max(0, (centre - spread) / scale);
  const high = successes === n ? 1 : Math.min(1, (centre + spread) / scale);
  return [low, high];
}

// src/limits.ts
var MAX_LINE_BYTES = 16 * 1024 * 1024;
var MAX_RESPONSE_BYTES = MAX_LINE_BYTES;
var MAX_NESTING_DEPTH = 64;
var MAX_NAME_LENGTH = 200;
var MAX_SCENARIOS = 2e4;
var MAX_INTERVAL_SCENARIOS = 200;
var MAX_GROUP_ATTRIBUTES = 10;
var MAX_GROUPS = 5e3;
var MAX_PERTURBATIONS_PER_INSTANCE = 100;
var MAX_SAMPLES_PER_EXAMPLE = 1e3;
var MAX_JUDGE_SAMPLES = 25;
var MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024;
var MAX_ARCHIVE_ENTRIES = 5e5;
var MAX_COMPRESSION_RATIO = 200;
var RATIO_FREE_ENTRY_BYTES = 1024 * 1024;
function describeBytes(bytes) {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

// src/metrics/by-instance.ts
function numberSubset(local, subset) {
  for (let number = 0; number < subset.length; number++) local[subset[number]] = number;
  return local;
}
function unnumberSubset(local, subset) {
  for (let number = 0; number < subset.length; number++) local[subset[number]] = -1;
}
var GROUPED_MIN_SHARE = 4;
var grouped = /* @__PURE__ */ new WeakMap();
function entriesOfSubset(instanceOf, length, local, subset) {
  if (length * GROUPED_MIN_SHARE < local.length) return entriesPassedOver(instanceOf, length, local);
  let byInstance = grouped.get(instanceOf);
  if (byInstance === void 0 || byInstance.entries.length !== length) {
    byInstance = groupByInstance(instanceOf, length, local.length);
    grouped.set(instanceOf, byInstance);
  }
  return entriesOfInstances(byInstance, subset);
}
function entriesOfInstances({ start, entries }, subset) {
  const picked2 = new Int32Array(countEntries(start, subset));
  let next = 0;
  let ascending = true;
  for (let index = 0; index < subset.length; index++) {
    const instance = subset[index];
    for (let entry = start[instance]; entry < start[instance + 1]; entry++) {
      if (next > 0 && entries[entry] < picked2[next - 1]) ascending = false;
      picked2[next++] = entries[entry];
    }
  }
  return ascending ? picked2 : picked2.sort();
}
function countEntries(start, subset) {
  let count = 0;
  for (let index = 0; index < subset.length; index++) count += start[subset[index] + 1] - start[subset[index]];
  return count;
}
function groupByInstance(instanceOf, length, instanceCount) {
  const start = new Int32Array(instanceCount + 1);
  countPerInstance(instanceOf, length, start);
  for (let instance = 0; instance < instanceCount; instance++) start[instance + 1] += start[instance];
  const entries = new Int32Array(length);
  placeEntries(instanceOf, start.slice(0, instanceCount), entries);
  return { start, entries };
}
function countPerInstance(instanceOf, length, start) {
  for (let entry = 0; entry < length; entry++) start[instanceOf[entry] + 1]++;
}
function placeEntries(instanceOf, next, entries) {
  for (let entry = 0; entry < entries.length; entry++) entries[next[instanceOf[entry]]++] = entry;
}
function entriesPassedOver(instanceOf, length, local) {
  const picked2 = new Int32Array(countKept(instanceOf, length, local));
  let next = 0;
  for (let entry = 0; entry < length; entry++) if (local[instanceOf[entry]] >= 0) picked2[next++] = entry;
  return picked2;
}
function countKept(instanceOf, length, local) {
  let kept = 0;
  for (let entry = 0; entry < length; entry++) if (local[instanceOf[entry]] >= 0) kept++;
  return kept;
}

// src/records/failures.ts
var MAX_ERROR_KEY = 300;
var MAX_DISTINCT_ERRORS = 1e3;
var FailureTally = class {
  counts = /* @__PURE__ */ new Map();
  failed = 0;
  add(error) {
    this.failed++;
    const key = error.slice(0, MAX_ERROR_KEY);
    const count = this.counts.get(key);
    if (count !== void 0) this.counts.set(key, count + 1);
    else if (this.counts.size < MAX_DISTINCT_ERRORS) this.counts.set(key, 1);
  }
  /** The most common error (the first seen of equally common ones); undefined when no record failed. */
  mostCommon() {
    let most;
    for (const [error, count] of this.counts) if (!most || count > most.count) most = { error, count, failed: this.failed };
    return most;
  }
};

// src/records/key.ts
var SEPARATOR = "\0";
function instanceKey(scenario, id) {
  return `${scenario}${SEPARATOR}${id}`;
}
function exampleKey({ scenario, id, perturbation, sample }) {
  return `${instanceKey(scenario, id)}${SEPARATOR}${perturbation ?? ""}${sample ? `${SEPARATOR}${sample}` : ""}`;
}
function exampleOf(record) {
  return {
    scenario: record.scenario,
    id: record.id,
    ...record.perturbation ? { perturbation: record.perturbation.name } : {},
    ...record.sample ? { sample: record.sample } : {}
  };
}
function parseKey(key) {
  const [scenario, id, perturbation, sample] = key.split(SEPARATOR);
  return { scenario, id, ...perturbation ? { perturbation } : {}, ...sample ? { sample: Number(sample) } : {} };
}
function describeKey(key) {
  const { scenario, id, perturbation, sample } = parseKey(key);
  const details = [perturbation, sample && `sample ${sample}`].filter(Boolean);
  return `${scenario}/${id}${details.length > 0 ? ` (${details.join(", ")})` : ""}`;
}
function duplicateExample(file, line, key, earlier) {
  return new InputError(
    file,
    line,
    `${describeKey(key)} appears twice (first on line ${earlier}): one record per example and sample (scenario, id, perturbation, sample)`
  );
}

// src/metrics/columns.ts
var GrowableColumn = class {
  constructor(make, fill) {
    this.make = make;
    this.fill = fill;
    this.data = make(1024);
    this.data.fill(fill);
  }
  make;
  fill;
  data;
  /** Room for `length` entries (doubling: a column filled one entry at a time is copied a few times only). */
  reserve(length) {
    if (length > this.data.length) this.data = grown(this.data, Math.max(length, this.data.length * 2), this.fill);
  }
  set(index, value) {
    this.reserve(index + 1);
    this.data[index] = value;
  }
  /** The value at `index`, the fill value where nothing was set yet. */
  get(index) {
    return index < this.data.length ? this.data[index] : this.fill;
  }
  /** The first `length` entries (a view: the column is done); a column that started late reads as its fill value before that. */
  trimmed(length) {
    this.reserve(length);
    return this.data.subarray(0, length);
  }
};
var float64 = (size) => new Float64Array(size);
var int32 = (size) => new Int32Array(size);
function grown(array, size, fill = 0) {
  const larger = new array.constructor(size);
  larger.set(array);
  if (fill !== 0) larger.fill(fill, array.length);
  return larger;
}
function grownShared(array, size) {
  const Type = array.constructor;
  const larger = new Type(new SharedArrayBuffer(size * Type.BYTES_PER_ELEMENT));
  larger.set(array);
  return larger;
}
var RowColumns = class {
  capacity = 0;
  scenarioOf = new Int32Array(0);
  instanceOf = new Int32Array(0);
  kind = new Uint8Array(0);
  failed = new Uint8Array(0);
  correct = new Float64Array(0);
  judge = new Uint8Array(0);
  human = new Float64Array(0);
  judgeProbes = new Uint16Array(0);
  judgeCostUsd = new Float64Array(0);
  confidence = new Float64Array(0);
  latencyMs = new Float64Array(0);
  outputTokens = new Float64Array(0);
  costUsd = new Float64Array(0);
  toxicity = new Float64Array(0);
  constructor() {
    this.resize(1024);
  }
  /** Room for row `row`. */
  reserve(row) {
    if (row >= this.capacity) this.resize(this.capacity * 2);
  }
  /** Room for `capacity` rows in all. */
  resize(capacity) {
    if (capacity <= this.capacity) return;
    this.scenarioOf = grownShared(this.scenarioOf, capacity);
    this.instanceOf = grownShared(this.instanceOf, capacity);
    this.kind = grownShared(this.kind, capacity);
    this.failed = grownShared(this.failed, capacity);
    this.correct = grownShared(this.correct, capacity);
    this.judge = grownShared(this.judge, capacity);
    this.human = grownShared(this.human, capacity);
    this.judgeProbes = grownShared(this.judgeProbes, capacity);
    this.judgeCostUsd = grownShared(this.judgeCostUsd, capacity);
    this.confidence = grownShared(this.confidence, capacity);
    this.latencyMs = grownShared(this.latencyMs, capacity);
    this.outputTokens = grownShared(this.outputTokens, capacity);
    this.costUsd = grownShared(this.costUsd, capacity);
    this.toxicity = grownShared(this.toxicity, capacity);
    this.capacity = capacity;
  }
};

// src/metrics/instance-index.ts
var MAX_PROBES = 64;
var EXPECTED_ID_UNITS = 12;
var FNV_OFFSET = 2166136261;
var FNV_PRIME = 16777619;
var InstanceIndex = class {
  /** `seed`: the hash's; random unless a test needs one. */
  constructor(seed = crypto.getRandomValues(new Uint32Array(1))[0]) {
    this.seed = seed;
  }
  seed;
  /** Per instance: its scenario number, hash, and where its id's code units start and end in `text`. */
  scenarios = new Int32Array(1024);
  hashes = new Int32Array(1024);
  starts = new Int32Array(1025);
  text = new Uint16Array(16384);
  count = 0;
  /** Per slot: an instance + 1 (0: empty). */
  slots = new Int32Array(2048);
  /** Once a probe run was too long: scenario NUL id -> instance, for every instance. */
  byKey;
  get size() {
    return this.count;
  }
  /**
   * Makes room for about `instances` instances at once (a guess: more still fit), instead of doubling
   * and copying the arrays, and rehashing the slots, as they come.
   */
  expect(instances) {
    if (instances <= this.scenarios.length) return;
    this.scenarios = grown(this.scenarios, instances + 1);
    this.hashes = grown(this.hashes, this.scenarios.length);
    this.starts = grown(this.starts, this.scenarios.length + 1);
    this.text = grown(this.text, Math.max(this.text.length, EXPECTED_ID_UNITS * instances));
    let slots = this.slots.length;
    while (slots < 2 * instances) slots *= 2;
    if (slots > this.slots.length) this.rehashInto(slots);
  }
  /** Whether ids collided so much that a Map numbers them now. */
  get collided() {
    return this.byKey !== void 0;
  }
  /** The number of (scenario, id), numbered next if new. */
  numberOf(scenario, id) {
    if (this.byKey) return this.numberByKey(scenario, id);
    const hash = this.hashOf(scenario, id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let probes = 0, found = this.slots[slot]; found !== 0; found = this.slots[slot], probes++) {
      if (probes === MAX_PROBES) {
        this.byKey = new Map(this.ids().map((known, instance3) => [keyOf(this.scenarios[instance3], known), instance3]));
        return this.numberByKey(scenario, id);
      }
      const instance2 = found - 1;
      if (this.hashes[instance2] === hash && this.scenarios[instance2] === scenario && this.idIs(instance2, id)) return instance2;
      slot = slot + 1 & mask;
    }
    const instance = this.append(scenario, id, hash);
    this.slots[slot] = instance + 1;
    if (2 * this.count > this.slots.length) this.rehash();
    return instance;
  }
  /** The scenario number of each instance. */
  scenarioNumbers() {
    return this.scenarios.slice(0, this.count);
  }
  /** One instance's scenario number. */
  scenarioOf(instance) {
    return this.scenarios[instance];
  }
  /** The id of each instance, as strings. */
  ids() {
    return Array.from({ length: this.count }, (_, instance) => this.idOf(instance));
  }
  /** One instance's id. */
  idOf(instance) {
    return String.fromCharCode(...this.text.subarray(this.starts[instance], this.starts[instance + 1]));
  }
  /**
   * The number here of each instance of `other` (-1: none), `scenarioHere` giving this index's number
   * of each of other's scenarios (-1: none). Ids are compared as code units: no string is made.
   */
  numbersOf(other, scenarioHere) {
    const numbers = new Int32Array(other.count).fill(-1);
    for (let instance = 0; instance < other.count; instance++) {
      const scenario = scenarioHere[other.scenarios[instance]];
      if (scenario >= 0) numbers[instance] = this.find(scenario, other.text, other.starts[instance], other.starts[instance + 1]);
    }
    return numbers;
  }
  /** The number of (scenario, the id in text[start..end)), or -1. */
  find(scenario, text, start, end) {
    if (this.byKey) return this.byKey.get(keyOf(scenario, String.fromCharCode(...text.subarray(start, end)))) ?? -1;
    let hash = Math.imul(FNV_OFFSET ^ this.seed ^ scenario, FNV_PRIME);
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ text[index], FNV_PRIME);
    hash = finish(hash);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask, found = this.slots[slot]; found !== 0; slot = slot + 1 & mask, found = this.slots[slot]) {
      const instance = found - 1;
      if (this.hashes[instance] === hash && this.scenarios[instance] === scenario && this.unitsAre(instance, text, start, end)) {
        return instance;
      }
    }
    return -1;
  }
  unitsAre(instance, text, start, end) {
    const from = this.starts[instance];
    if (this.starts[instance + 1] - from !== end - start) return false;
    for (let index = start; index < end; index++) if (this.text[from + index - start] !== text[index]) return false;
    return true;
  }
  numberByKey(scenario, id) {
    const key = keyOf(scenario, id);
    const known = this.byKey.get(key);
    if (known !== void 0) return known;
    const instance = this.append(scenario, id, 0);
    this.byKey.set(key, instance);
    return instance;
  }
  idIs(instance, id) {
    const start = this.starts[instance];
    if (this.starts[instance + 1] - start !== id.length) return false;
    for (let index = 0; index < id.length; index++) if (this.text[start + index] !== id.charCodeAt(index)) return false;
    return true;
  }
  /** Keeps a new instance's scenario, hash and id; its number. */
  append(scenario, id, hash) {
    const instance = this.count++;
    if (this.count === this.scenarios.length) {
      this.scenarios = grown(this.scenarios, 2 * this.scenarios.length);
      this.hashes = grown(this.hashes, this.scenarios.length);
      this.starts = grown(this.starts, this.scenarios.length + 1);
    }
    let end = this.starts[instance];
    if (end + id.length > this.text.length) this.text = grown(this.text, Math.max(2 * this.text.length, end + id.length));
    for (let index = 0; index < id.length; index++) this.text[end++] = id.charCodeAt(index);
    this.starts[instance + 1] = end;
    this.scenarios[instance] = scenario;
    this.hashes[instance] = hash;
    return instance;
  }
  /** Doubles the slots, keeping them at most half full (short probe runs). */
  rehash() {
    this.rehashInto(this.slots.length * 2);
  }
  /** The slots remade with `size` of them (a power of 2). */
  rehashInto(size) {
    this.slots = new Int32Array(size);
    for (let instance = 0; instance < this.count; instance++) {
      let slot = this.hashes[instance] & size - 1;
      while (this.slots[slot] !== 0) slot = slot + 1 & size - 1;
      this.slots[slot] = instance + 1;
    }
  }
  /** FNV-1a over the id's UTF-16 code units, from a seeded start, finished with a multiply-xorshift mix (the low bits pick the slot). */
  hashOf(scenario, id) {
    let hash = Math.imul(FNV_OFFSET ^ this.seed ^ scenario, FNV_PRIME);
    for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), FNV_PRIME);
    return finish(hash);
  }
};
function finish(hash) {
  const mixed = Math.imul(hash ^ hash >>> 15, 739982445);
  return mixed ^ mixed >>> 13;
}
function keyOf(scenario, id) {
  return `${scenario}\0${id}`;
}

// src/metrics/examples.ts
var ExampleIndex = class {
  /** Perturbation names, numbered from 1 (0 is the original). */
  perturbationNumber = /* @__PURE__ */ new Map();
  /** Per instance: its newest example; per example: the one before it of the same instance, and its perturbation. */
  newestExample = new GrowableColumn(int32, -1);
  previousExample = new GrowableColumn(int32, -1);
  perturbationOf = new GrowableColumn(int32, 0);
  /** Per example: its newest row; per row: its example, the row before it of the same example, its line and its sample. */
  newestRow = new GrowableColumn(int32, -1);
  exampleOfRow = new GrowableColumn(int32, -1);
  previousRow = new GrowableColumn(int32, -1);
  lineOf = new GrowableColumn(int32, 0);
  sampleOf = new GrowableColumn(float64, 0);
  /** Per instance: its perturbed examples; per example: its rows (samples). What the walks above cost, bounded by src/limits.ts. */
  perturbationCount = new GrowableColumn(int32, 0);
  sampleCount = new GrowableColumn(int32, 0);
  count = 0;
  /** Whether some example has more than one record (sample). */
  repeated = false;
  /**
   * Room for about `rows` records, made once instead of doubling as they come: the columns per row, and
   * those per example and per instance (at most one of each a row).
   */
  expectRows(rows) {
    for (const column of [
      this.exampleOfRow,
      this.lineOf,
      this.newestRow,
      this.perturbationOf,
      this.sampleCount,
      this.newestExample,
      this.previousExample
    ]) {
      column.reserve(rows);
    }
  }
  /** The example of an instance's original (`perturbation` undefined) or of one of its perturbations, numbered if new. */
  exampleOf(instance, perturbation) {
    let wanted = 0;
    if (perturbation !== void 0) {
      wanted = this.perturbationNumber.get(perturbation) ?? this.perturbationNumber.size + 1;
      if (wanted > this.perturbationNumber.size) this.perturbationNumber.set(perturbation, wanted);
    }
    for (let example2 = this.newestExample.get(instance); example2 >= 0; example2 = this.previousExample.get(example2)) {
      if (this.perturbationOf.get(example2) === wanted) return example2;
    }
    const example = this.count++;
    if (wanted !== 0) this.perturbationCount.set(instance, this.perturbationCount.get(instance) + 1);
    this.previousExample.set(example, this.newestExample.get(instance));
    this.perturbationOf.set(example, wanted);
    this.newestExample.set(instance, example);
    return example;
  }
  /** How many perturbations of the instance have an example. */
  perturbationsOf(instance) {
    return this.perturbationCount.get(instance);
  }
  /** How many records (samples) the example has. */
  samplesOf(example) {
    return this.sampleCount.get(example);
  }
  /** The line of the record of this sample of the example, if there is one already. */
  lineOfSample(example, sample) {
    for (let row = this.newestRow.get(example); row >= 0; row = this.previousRow.get(row)) {
      if (this.sampleOf.get(row) === sample) return this.lineOf.get(row);
    }
    return void 0;
  }
  /** Records that `row` (from `line` of its file) is this sample of the example. */
  addRow(row, example, sample, line) {
    const before = this.newestRow.get(example);
    if (before >= 0) {
      this.repeated = true;
      this.previousRow.set(row, before);
    }
    this.newestRow.set(example, row);
    this.sampleCount.set(example, this.sampleCount.get(example) + 1);
    this.exampleOfRow.set(row, example);
    this.lineOf.set(row, line);
    if (sample !== 0) this.sampleOf.set(row, sample);
  }
  /** The examples of `size` rows: each row's example and line, each example's perturbation (0: the original), the perturbations' names. */
  examples(size) {
    return {
      exampleOf: this.exampleOfRow.trimmed(size),
      lineOf: this.lineOf.trimmed(size),
      perturbationOf: this.perturbationOf.trimmed(this.count),
      perturbations: [...this.perturbationNumber.keys()]
    };
  }
  /** For a table with repeated samples (`exampleOf` from `examples`): per example its answered samples and their mean `correct`. */
  repeatedSamples(exampleOf2, failed, correct, confidence) {
    const size = exampleOf2.length;
    const answered = new Int32Array(this.count);
    const calibrated = new Int32Array(this.count);
    const meanCorrect = new Float64Array(this.count);
    for (let row = 0; row < size; row++) {
      if (failed[row] !== 0) continue;
      const example = exampleOf2[row];
      answered[example]++;
      meanCorrect[example] += correct[row];
      if (!Number.isNaN(confidence[row])) calibrated[example]++;
    }
    for (let example = 0; example < this.count; example++) meanCorrect[example] /= answered[example];
    return { exampleOf: exampleOf2, answered, calibrated, meanCorrect };
  }
};

// src/metrics/judge-probes.ts
var SAMPLES_AGREE = 1;
var SAMPLES_DISAGREE = 2;
var PAIR_WIN = 4;
var PAIR_LOSS = 8;
var PAIR_TIE = 16;
var PAIR_UNKNOWN = 32;
var PAIR_FLIPPED = 64;
var LONGER_WON = 128;
var SHORTER_WON = 256;
var PAIR_CODES = { win: PAIR_WIN, loss: PAIR_LOSS, tie: PAIR_TIE, unknown: PAIR_UNKNOWN };
function judgeProbesOf(record) {
  let bits = 0;
  const samples = record.judge?.samples;
  if (samples && samples.length > 1) {
    const first = samples[0].verdict;
    const agree = first !== "unknown" && samples.every((sample) => sample.verdict === first);
    bits |= agree ? SAMPLES_AGREE : SAMPLES_DISAGREE;
  }
  const pairwise = record.judge_pairwise;
  if (pairwise) {
    bits |= PAIR_CODES[pairwise.outcome] | (pairwise.flipped === true ? PAIR_FLIPPED : 0);
    const decided = pairwise.outcome === "win" || pairwise.outcome === "loss";
    if (decided && (pairwise.longer === "candidate" || pairwise.longer === "baseline")) {
      bits |= pairwise.longer === "candidate" === (pairwise.outcome === "win") ? LONGER_WON : SHORTER_WON;
    }
  }
  return bits;
}

// src/metrics/provenance.ts
var INPUT = 1;
var REFERENCES = 2;
var uint8 = (size) => new Uint8Array(size);
var ProvenanceBuilder = class {
  /** `name` stands for the file in errors. */
  constructor(name) {
    this.name = name;
  }
  name;
  given = new GrowableColumn(uint8, 0);
  /** Two entries an instance: the hash's first and second 32 bits. */
  input = new GrowableColumn(int32, 0);
  references = new GrowableColumn(int32, 0);
  suites = [];
  /** Keeps a record's provenance for its instance; a record of the instance that said otherwise is an error at `line`. */
  add(instance, provenance, line, scenario, id) {
    const mismatch = (field) => new InputError(
      this.name,
      line,
      `"provenance.${field}" differs from an earlier record of ${describeKey(instanceKey(scenario, id))}: every record of an instance carries its instance's provenance`
    );
    if (!this.keep(this.input, INPUT, instance, provenance.input_hash)) throw mismatch("input_hash");
    if (!this.keep(this.references, REFERENCES, instance, provenance.references_hash)) throw mismatch("references_hash");
    const suite = provenance.suite_hash;
    if (typeof suite === "string" && suite !== this.suites.at(-1) && !this.suites.includes(suite)) this.suites.push(suite);
  }
  /** Sets the instance's hash in `column` (or checks it against the one set); false when it differs. */
  keep(column, flag, instance, hash) {
    if (typeof hash !== "string") return true;
    const high = parseInt(hash.slice(0, 8), 16) | 0;
    const low = parseInt(hash.slice(8, 16), 16) | 0;
    const given = this.given.get(instance);
    if (given & flag) return column.get(2 * instance) === high && column.get(2 * instance + 1) === low;
    this.given.set(instance, given | flag);
    column.set(2 * instance, high);
    column.set(2 * instance + 1, low);
    return true;
  }
  build(instanceCount) {
    return {
      given: this.given.trimmed(instanceCount),
      input: this.input.trimmed(2 * instanceCount),
      references: this.references.trimmed(2 * instanceCount),
      suites: this.suites,
      changedAgainst: /* @__PURE__ */ new WeakMap()
    };
  }
};
function differs(mine, theirs, flag, instance, other) {
  if (!(mine.given[instance] & theirs.given[other] & flag)) return false;
  const [a, b] = flag === INPUT ? [mine.input, theirs.input] : [mine.references, theirs.references];
  return a[2 * instance] !== b[2 * other] || a[2 * instance + 1] !== b[2 * other + 1];
}
function changedInstances(candidate, baseline, idMatch) {
  let changed = candidate.changedAgainst.get(baseline);
  if (changed) return changed;
  const match = idMatch();
  const found = [];
  for (let instance = 0; instance < match.length; instance++) {
    const other = match[instance];
    if (other >= 0 && (differs(candidate, baseline, INPUT, instance, other) || differs(candidate, baseline, REFERENCES, instance, other))) {
      found.push(instance);
    }
  }
  candidate.changedAgainst.set(baseline, changed = Int32Array.from(found));
  return changed;
}
function verified(candidate, baseline, instance, other) {
  return (candidate.given[instance] & baseline.given[other]) === (INPUT | REFERENCES);
}

// src/metrics/table.ts
var KIND_ORIGINAL = 0;
var KIND_ROBUSTNESS = 1;
var KIND_FAIRNESS = 2;
var FAILED_CALL = 1;
var UNGRADED = 2;
var JUDGE_PASS = 1;
var JUDGE_FAIL = 2;
var JUDGE_UNKNOWN = 3;
var JUDGE_ERROR = 4;
var JUDGE_CODES = { pass: JUDGE_PASS, fail: JUDGE_FAIL, unknown: JUDGE_UNKNOWN };
var optionalNumber = (value) => typeof value === "number" ? value : NaN;
function judgeCost(grade, pairwise) {
  if (typeof pairwise !== "number") return optionalNumber(grade);
  return typeof grade === "number" ? grade + pairwise : pairwise;
}
var RecordTableBuilder = class {
  /** `name` stands for the file the records come from, in errors. */
  constructor(name = "records") {
    this.name = name;
  }
  name;
  size = 0;
  scenarioIndex = /* @__PURE__ */ new Map();
  /** Per instance: its scenario and id (the instance keys are made from them only when asked for). */
  instances = new InstanceIndex();
  /** The last record's scenario (name and number), id and instance: a variant usually follows its original, and is found without a lookup. */
  lastScenarioName = "";
  lastScenario = -1;
  lastId;
  // none before the first record
  lastInstance = -1;
  columns = new RowColumns();
  groupColumns = /* @__PURE__ */ new Map();
  /** About how many records the table will hold (expectRows): the room each column is made with. */
  expectedRows = 0;
  /** Distinct (attribute, value) pairs so far. */
  groupCount = 0;
  examples = new ExampleIndex();
  failures = new FailureTally();
  scorers = [];
  lastScorer = { scenario: -1, fingerprint: "" };
  /** Made at the first record with `provenance`. */
  provenance;
  /** Makes room for about `rows` records at once (a guess: more still fit; room left over costs little). */
  expectRows(rows) {
    this.expectedRows = rows;
    this.columns.resize(rows);
    this.examples.expectRows(rows);
    this.instances.expect(rows);
  }
  /**
   * Adds a record (from `line` of its file). A second record of the same sample of the same example
   * (scenario, id, perturbation, sample) is an InputError at its line: the metrics would count it twice.
   */
  add(record, line = this.size + 1) {
    const instance = this.instanceOfRecord(record.scenario, record.id, line);
    const example = this.examples.exampleOf(instance, record.perturbation?.name);
    if (this.examples.perturbationsOf(instance) > MAX_PERTURBATIONS_PER_INSTANCE) {
      const what = `${describeKey(instanceKey(record.scenario, record.id))} has more than ${MAX_PERTURBATIONS_PER_INSTANCE} perturbations`;
      throw this.overLimit(line, "perturbation.name", what);
    }
    const sample = record.sample ?? 0;
    const earlier = this.examples.lineOfSample(example, sample);
    if (earlier !== void 0) throw duplicateExample(this.name, line, exampleKey(exampleOf(record)), earlier);
    if (this.examples.samplesOf(example) >= MAX_SAMPLES_PER_EXAMPLE) {
      const what = `${describeKey(exampleKey({ ...exampleOf(record), sample: void 0 }))} has more than ${MAX_SAMPLES_PER_EXAMPLE} samples`;
      throw this.overLimit(line, "sample", what);
    }
    const row = this.size++;
    this.examples.addRow(row, example, sample, line);
    const columns = this.columns;
    columns.reserve(row);
    columns.scenarioOf[row] = this.lastScenario;
    columns.instanceOf[row] = instance;
    const perturbation = record.perturbation;
    columns.kind[row] = perturbation ? perturbation.kind === "robustness" ? KIND_ROBUSTNESS : KIND_FAIRNESS : KIND_ORIGINAL;
    const failed = typeof record.error === "string";
    const scored = !failed && typeof record.correct === "number";
    columns.failed[row] = failed ? FAILED_CALL : scored ? 0 : UNGRADED;
    if (failed) this.failures.add(record.error);
    columns.correct[row] = scored ? record.correct : NaN;
    columns.judge[row] = record.judge_error ? JUDGE_ERROR : record.judge ? JUDGE_CODES[record.judge.verdict] : 0;
    columns.judgeCostUsd[row] = judgeCost(record.judge?.cost_usd, record.judge_pairwise?.cost_usd);
    columns.judgeProbes[row] = judgeProbesOf(record);
    columns.human[row] = optionalNumber(record.human);
    if (!failed && record.judge_error === void 0) this.addScorer(this.lastScenario, record.provenance?.scorer);
    columns.confidence[row] = optionalNumber(record.confidence);
    columns.latencyMs[row] = optionalNumber(record.latency_ms);
    columns.outputTokens[row] = optionalNumber(record.output_tokens);
    columns.costUsd[row] = optionalNumber(record.cost_usd);
    columns.toxicity[row] = optionalNumber(record.toxicity);
    if (record.groups) this.addGroups(row, record.groups, line);
    if (record.provenance) this.addProvenance(instance, record, line);
  }
  /** Keeps a scenario's scorer fingerprint (the last one seen is checked first: a scenario has one, nearly always). */
  addScorer(scenario, scorer) {
    const fingerprint = scorer ?? "";
    if (scenario === this.lastScorer.scenario && fingerprint === this.lastScorer.fingerprint) return;
    this.lastScorer = { scenario, fingerprint };
    (this.scorers[scenario] ??= /* @__PURE__ */ new Set()).add(fingerprint);
  }
  addProvenance(instance, record, line) {
    this.provenance ??= new ProvenanceBuilder(this.name);
    this.provenance.add(instance, record.provenance, line, record.scenario, record.id);
  }
  /** A file over one of the bounds on what a table holds (src/limits.ts), at `line` and `field`. */
  overLimit(line, field, what) {
    return new InputError(this.name, line, `"${field}": ${what} (the limit: docs/record-format.md#limits)`);
  }
  /** The instance number of (scenario, id), numbered in order of first appearance; remembered as the last one. */
  instanceOfRecord(scenarioName, id, line) {
    if (id === this.lastId && scenarioName === this.lastScenarioName) return this.lastInstance;
    let scenario = this.scenarioIndex.get(scenarioName);
    if (scenario === void 0) {
      if (this.scenarioIndex.size >= MAX_SCENARIOS) throw this.overLimit(line, "scenario", `more than ${MAX_SCENARIOS} scenarios`);
      scenario = this.scenarioIndex.size;
      this.scenarioIndex.set(scenarioName, scenario);
    }
    this.lastScenarioName = scenarioName;
    this.lastScenario = scenario;
    this.lastId = id;
    this.lastInstance = this.instances.numberOf(scenario, id);
    return this.lastInstance;
  }
  addGroups(row, groups, line) {
    for (const attribute in groups) {
      const raw = groups[attribute];
      if (raw === null || raw === void 0) continue;
      const value = String(raw);
      let column = this.groupColumns.get(attribute);
      if (!column) {
        if (this.groupColumns.size >= MAX_GROUP_ATTRIBUTES) {
          throw this.overLimit(line, "groups", `more than ${MAX_GROUP_ATTRIBUTES} attributes`);
        }
        column = { values: /* @__PURE__ */ new Map(), valueOf: new GrowableColumn(int32, -1) };
        column.valueOf.reserve(this.expectedRows);
        this.groupColumns.set(attribute, column);
      }
      let valueIndex = column.values.get(value);
      if (valueIndex === void 0) {
        if (this.groupCount++ >= MAX_GROUPS) {
          const what = `more than ${MAX_GROUPS} groups (attribute and value pairs): a group is a category many records share, not an identifier`;
          throw this.overLimit(line, `groups.${attribute}`, what);
        }
        valueIndex = column.values.size;
        column.values.set(value, valueIndex);
      }
      column.valueOf.set(row, valueIndex);
    }
  }
  build() {
    const size = this.size;
    const groups = /* @__PURE__ */ new Map();
    for (const [attribute, column] of this.groupColumns) {
      const values = [...column.values.keys()];
      groups.set(attribute, { values, valueOf: column.valueOf.trimmed(size), slotScratch: new Int32Array(values.length).fill(-1) });
    }
    const columns = this.columns;
    const failed = columns.failed.subarray(0, size);
    const correct = columns.correct.subarray(0, size);
    const confidence = columns.confidence.subarray(0, size);
    const examples = this.examples.examples(size);
    const scenarios = [...this.scenarioIndex.keys()];
    const instances = this.instances;
    let instanceKeys;
    const table = {
      size,
      scenarios,
      instanceCount: this.instances.size,
      scenarioOf: columns.scenarioOf.subarray(0, size),
      instanceOf: columns.instanceOf.subarray(0, size),
      kind: columns.kind.subarray(0, size),
      failed,
      correct,
      judge: columns.judge.subarray(0, size),
      human: columns.human.subarray(0, size),
      judgeProbes: columns.judgeProbes.subarray(0, size),
      judgeCostUsd: columns.judgeCostUsd.subarray(0, size),
      scorers: scenarios.map((_, scenario) => this.scorers[scenario] ?? /* @__PURE__ */ new Set()),
      confidence,
      latencyMs: columns.latencyMs.subarray(0, size),
      outputTokens: columns.outputTokens.subarray(0, size),
      costUsd: columns.costUsd.subarray(0, size),
      toxicity: columns.toxicity.subarray(0, size),
      groups,
      examples,
      ...this.examples.repeated ? { samples: this.examples.repeatedSamples(examples.exampleOf, failed, correct, confidence) } : {},
      orderings: /* @__PURE__ */ new Map(),
      commonFailure: this.failures.mostCommon(),
      instanceIndex: instances,
      instanceMatches: /* @__PURE__ */ new WeakMap(),
      ...this.provenance ? { provenance: this.provenance.build(this.instances.size) } : {}
    };
    return Object.defineProperty(table, "instanceKeys", {
      get: () => {
        if (instanceKeys) return instanceKeys;
        const scenarioOf2 = instances.scenarioNumbers();
        instanceKeys = instances.ids().map((id, instance) => instanceKey(scenarios[scenarioOf2[instance]], id));
        return instanceKeys;
      },
      enumerable: true
    });
  }
};
function instanceKeyOf(table, instance) {
  return instanceKey(table.scenarios[table.instanceIndex.scenarioOf(instance)], table.instanceIndex.idOf(instance));
}
function instanceIdMatch(candidate, baseline) {
  const scenarioInBaseline = Int32Array.from(candidate.scenarios, (name) => baseline.scenarios.indexOf(name));
  return baseline.instanceIndex.numbersOf(candidate.instanceIndex, scenarioInBaseline);
}
function instanceMatch(candidate, baseline) {
  let match = candidate.instanceMatches.get(baseline);
  if (!match) {
    const byId = instanceIdMatch(candidate, baseline);
    for (const instance of changedInstancesOf(candidate, baseline, () => byId)) byId[instance] = -1;
    candidate.instanceMatches.set(baseline, match = byId);
  }
  return match;
}
function changedInstancesOf(candidate, baseline, idMatch = () => instanceIdMatch(candidate, baseline)) {
  if (!candidate.provenance || !baseline.provenance) return new Int32Array(0);
  return changedInstances(candidate.provenance, baseline.provenance, idMatch);
}

// src/metrics/scope.ts
var OVERALL = "overall";
function scopeOf(table, name, keep, instanceNumber, instanceCount) {
  const rows = new Int32Array(table.size);
  const instances = new Int32Array(table.size);
  let count = 0;
  for (let row = 0; row < table.size; row++) {
    if (!keep(row)) continue;
    const local = instanceNumber(table.instanceOf[row]);
    if (local < 0) continue;
    rows[count] = row;
    instances[count++] = local;
  }
  return { name, rows: rows.slice(0, count), instanceOfRow: instances.slice(0, count), instanceCount };
}
function scenarioScopes(table, wanted) {
  const rowCount = new Int32Array(table.scenarios.length);
  const instanceCount = new Int32Array(table.scenarios.length);
  const localNumber = new Int32Array(table.instanceCount).fill(-1);
  for (let row = 0; row < table.size; row++) {
    const scenario = table.scenarioOf[row];
    rowCount[scenario]++;
    const instance = table.instanceOf[row];
    if (localNumber[instance] < 0) localNumber[instance] = instanceCount[scenario]++;
  }
  const scopes = table.scenarios.map((name, scenario) => {
    if (!wanted(scenario)) return void 0;
    const rows = new Int32Array(rowCount[scenario]);
    return { name, rows, instanceOfRow: new Int32Array(rows.length), instanceCount: instanceCount[scenario] };
  });
  const filled = new Int32Array(table.scenarios.length);
  for (let row = 0; row < table.size; row++) {
    const scope = scopes[table.scenarioOf[row]];
    if (!scope) continue;
    const position = filled[table.scenarioOf[row]]++;
    scope.rows[position] = row;
    scope.instanceOfRow[position] = localNumber[table.instanceOf[row]];
  }
  return scopes;
}
function overallScope(table) {
  const rows = new Int32Array(table.size);
  for (let row = 0; row < table.size; row++) rows[row] = row;
  return { name: OVERALL, rows, instanceOfRow: table.instanceOf, instanceCount: table.instanceCount };
}
function scopeNamed(table, scenario) {
  if (scenario === void 0) return overallScope(table);
  const index = table.scenarios.indexOf(scenario);
  const empty = { name: scenario, rows: new Int32Array(0), instanceOfRow: new Int32Array(0), instanceCount: 0 };
  return index < 0 ? empty : scenarioScopes(table, (other) => other === index)[index];
}
function scopesOf(table) {
  const scenarios = scenarioScopes(table, () => true);
  return [overallScope(table), ...scenarios.map((scope) => scope)];
}
function sharedScopes(candidate, baseline, scenario) {
  const match = instanceMatch(candidate, baseline);
  const inScope = (table) => {
    if (scenario === void 0) return () => true;
    const index = table.scenarios.indexOf(scenario);
    return (row) => table.scenarioOf[row] === index;
  };
  const candidateNumber = new Int32Array(candidate.instanceCount).fill(-1);
  const baselineNumber = new Int32Array(baseline.instanceCount).fill(-1);
  let shared = 0;
  const candidateKeep = inScope(candidate);
  for (let row = 0; row < candidate.size; row++) {
    if (!candidateKeep(row)) continue;
    const instance = candidate.instanceOf[row];
    const other = match[instance];
    if (other < 0 || candidateNumber[instance] >= 0) continue;
    candidateNumber[instance] = shared;
    baselineNumber[other] = shared++;
  }
  const name = scenario ?? OVERALL;
  return {
    candidate: scopeOf(candidate, name, candidateKeep, (instance) => candidateNumber[instance], shared),
    baseline: scopeOf(baseline, name, inScope(baseline), (instance) => baselineNumber[instance], shared),
    shared
  };
}
function subScopes(scope) {
  const { rows, instanceOfRow, instanceCount } = scope;
  const byInstance = groupByInstance(instanceOfRow, instanceOfRow.length, instanceCount);
  const local = new Int32Array(instanceCount);
  return (subset) => {
    numberSubset(local, subset);
    const entries = entriesOfInstances(byInstance, subset);
    const subsetRows2 = new Int32Array(entries.length);
    const subsetInstances = new Int32Array(entries.length);
    for (let index = 0; index < entries.length; index++) {
      subsetRows2[index] = rows[entries[index]];
      subsetInstances[index] = local[instanceOfRow[entries[index]]];
    }
    return { name: scope.name, rows: subsetRows2, instanceOfRow: subsetInstances, instanceCount: subset.length };
  };
}

// src/metrics/names.ts
var ATTRIBUTE_FAMILIES = ["worst_group_accuracy", "group_accuracy_gap"];
var GROUP_FAMILY = "group_accuracy";
var ESCAPES = { "%": "%25", ":": "%3A", "=": "%3D" };
var UNESCAPES = { "%25": "%", "%3A": ":", "%3D": "=" };
var escapePart = (part) => part.replace(/[%:=]/g, (char) => ESCAPES[char]);
function unescapePart(part) {
  if (/[:=]|%(?!25|3A|3D)/.test(part)) return void 0;
  return part.replace(/%25|%3A|%3D/g, (escape) => UNESCAPES[escape]);
}
var isAttributeFamily = (family) => ATTRIBUTE_FAMILIES.includes(family);
function groupKindOf(family) {
  if (family === GROUP_FAMILY) return "value";
  return isAttributeFamily(family) ? "attribute" : void 0;
}
function formatMetricName({ family, group }) {
  if (!group) return family;
  const attribute = `${family}:${escapePart(group.attribute)}`;
  return group.value === void 0 ? attribute : `${attribute}=${escapePart(group.value)}`;
}
function parseMetricName(name) {
  const colon = name.indexOf(":");
  const family = colon < 0 ? name : name.slice(0, colon);
  const kind = groupKindOf(family);
  if (kind === void 0) return { family: name };
  if (colon < 0) return void 0;
  const rest = name.slice(colon + 1);
  if (kind === "attribute") {
    const attribute2 = unescapePart(rest);
    return attribute2 === void 0 ? void 0 : { family, group: { attribute: attribute2 } };
  }
  const equals = rest.indexOf("=");
  const attribute = unescapePart(rest.slice(0, equals));
  const value = equals < 0 ? void 0 : unescapePart(rest.slice(equals + 1));
  return attribute === void 0 || value === void 0 ? void 0 : { family, group: { attribute, value } };
}
var groupOf = (name) => parseMetricName(name)?.group;
var isGroupAccuracy = (name) => parseMetricName(name)?.family === GROUP_FAMILY;
var SCOPE_KINDS = ["pooled", "scenario"];
var scopeOf2 = (scenario) => scenario === void 0 ? { kind: "pooled" } : { kind: "scenario", scenario };
var scenarioOf = (scope) => scope.kind === "pooled" ? void 0 : scope.scenario;
var scopeName = (scope) => scope.kind === "pooled" ? OVERALL : scope.scenario;
function reportedScope({ scope, scopeKind }) {
  return (scopeKind ?? (scope === OVERALL ? "pooled" : "scenario")) === "pooled" ? { kind: "pooled" } : { kind: "scenario", scenario: scope };
}
function scopeLabel(scope) {
  if (scope.kind === "pooled") return OVERALL;
  return scope.scenario === OVERALL ? `scenario ${OVERALL}` : scope.scenario;
}
var shownScope = (scope) => scopeLabel(reportedScope(scope));
var scopeSuffix = (scope) => scope.kind === "pooled" ? "" : ` (${scopeLabel(scope)})`;

// src/metrics/registry.ts
var DIMENSIONS = [
  "accuracy",
  "calibration",
  "robustness",
  "fairness",
  "bias",
  "toxicity",
  "efficiency",
  "reliability"
];
var UNIT = [0, 1];
var NON_NEGATIVE = [0, Infinity];
var define = (name, dimension, direction, description, pattern = name) => ({
  name,
  pattern,
  dimension,
  direction,
  description,
  range: dimension === "efficiency" ? NON_NEGATIVE : UNIT
});
var METRICS = [
  define("accuracy", "accuracy", "higher", "Mean `correct` over original (unperturbed) records."),
  define("ece", "calibration", "lower", "Expected calibration error, 10 equal-width confidence bins."),
  define("ece_10_bin", "calibration", "lower", "HELM's expected calibration error, 10 equal-mass bins."),
  define("brier", "calibration", "lower", "Mean squared difference between confidence and `correct`."),
  define(
    "selective_cov_acc_area",
    "calibration",
    "higher",
    "Area under the accuracy-coverage curve when answering the most confident first."
  ),
  define("selective_acc@10", "calibration", "higher", "Accuracy on the 10% of records with the highest confidence."),
  define("accuracy_robust", "robustness", "higher", "Worst-case accuracy per instance over the original and its robustness perturbations."),
  define("accuracy_fair", "fairness", "higher", "Worst-case accuracy per instance over the original and its fairness perturbations."),
  define(
    "worst_group_accuracy",
    "fairness",
    "higher",
    "Lowest accuracy among the values of a `groups` attribute (groups of at least min_group_size).",
    "worst_group_accuracy:<attr>"
  ),
  define(
    "group_accuracy_gap",
    "fairness",
    "lower",
    "Highest minus lowest accuracy among the values of a `groups` attribute (groups of at least min_group_size).",
    "group_accuracy_gap:<attr>"
  ),
  define(
    "group_accuracy",
    "fairness",
    "higher",
    "Accuracy of the original records of one group, e.g. group_accuracy:dialect=aae.",
    "group_accuracy:<attr>=<value>"
  ),
  define("error_rate", "reliability", "lower", "Share of all records (originals and perturbations) whose call failed."),
  define(
    "judge_unknown_rate",
    "reliability",
    "lower",
    "Share of judged records whose judge gave no verdict (an unknown reply, or a failed judge call)."
  ),
  define("judge_error_rate", "reliability", "lower", "Share of judged records whose judge call failed (`judge_error`)."),
  define(
    "judge_agreement",
    "reliability",
    "higher",
    "Share of the labelled records with a verdict where the judge's verdict agrees with the `human` label (right: 0.5 or more)."
  ),
  define(
    "judge_tpr",
    "reliability",
    "higher",
    "Share of the records labelled right (`human` >= 0.5) with a verdict that the judge passed."
  ),
  define("judge_tnr", "reliability", "higher", "Share of the records labelled wrong (`human` < 0.5) with a verdict that the judge failed."),
  define(
    "judge_corrected_accuracy",
    "accuracy",
    "higher",
    "Share of answers right after correcting the judge's pass rate for its errors on the labelled records (Rogan-Gladen): (pass rate + judge_tnr - 1) / (judge_tpr + judge_tnr - 1), clipped to [0, 1]."
  ),
  define(
    "judge_self_agreement",
    "reliability",
    "higher",
    "Share of the records judged K > 1 times (`judge_samples`) whose K verdicts all agree (a sample without a verdict disagrees)."
  ),
  define(
    "judge_win_rate",
    "accuracy",
    "higher",
    "Pairwise judging: the candidate's wins over the baseline's completions, ties (order flips too) counting half and comparisons without an outcome as losses."
  ),
  define(
    "judge_flip_rate",
    "reliability",
    "lower",
    "Pairwise judging: share of the comparisons with an outcome whose verdict changed when the two answers swapped places."
  ),
  define(
    "judge_longer_wins_rate",
    "bias",
    "lower",
    "Length-bias probe: share of the pairwise wins and losses between completions of different lengths that the longer one won."
  ),
  define("latency_p50_ms", "efficiency", "lower", "Median latency in milliseconds (linear interpolation, as numpy)."),
  define("latency_p95_ms", "efficiency", "lower", "95th percentile latency in milliseconds (linear interpolation, as numpy)."),
  define("toxicity_rate", "toxicity", "lower", "Share of records whose completion has toxicity >= 0.5."),
  define("output_tokens_mean", "efficiency", "lower", "Mean number of output tokens per record."),
  define("cost_usd_total", "efficiency", "lower", "Total cost in US dollars."),
  define(
    "judge_cost_usd_total",
    "efficiency",
    "lower",
    "Total cost of the judge's calls in US dollars (`judge.cost_usd`), apart from the model's."
  )
];
var BY_NAME = new Map(METRICS.map((metric) => [metric.name, metric]));
function lookupMetric(fullName) {
  const parsed = parseMetricName(fullName);
  const definition = parsed && BY_NAME.get(parsed.family);
  if (!definition || definition.pattern !== definition.name !== (parsed.group !== void 0)) return void 0;
  return definition;
}

// src/metrics/calibration.ts
var ECE_BINS = 10;
function calibrationError(binWeight, binCorrect, binConfidence) {
  let total = 0;
  for (let bin = 0; bin < binWeight.length; bin++) total += binWeight[bin];
  if (total <= 0) return NaN;
  let error = 0;
  for (let bin = 0; bin < binWeight.length; bin++) {
    const weight = binWeight[bin];
    if (weight > 0) error += weight / total * Math.abs(binCorrect[bin] / weight - binConfidence[bin] / weight);
  }
  return error;
}
function totalWeight(instance, weights) {
  let total = 0;
  for (let index = 0; index < instance.length; index++) total += weights[instance[index]];
  return total;
}
var EceBins = class {
  weight = new Float64Array(ECE_BINS);
  correct = new Float64Array(ECE_BINS);
  confidence = new Float64Array(ECE_BINS);
  boundary = new Float64Array(ECE_BINS);
};
function equalMassEce({ instance, value: confidence, payload: correct }, weights, total = totalWeight(instance, weights), bins = new EceBins()) {
  if (total <= 0) return NaN;
  const chunks = Math.min(ECE_BINS, total);
  const base = Math.floor(total / chunks);
  const larger = total % chunks;
  const { boundary } = bins;
  bins.weight.fill(0);
  bins.correct.fill(0);
  bins.confidence.fill(0);
  let nextChunk = 1;
  let nextStart = chunks > 1 ? base + Math.min(1, larger) : Infinity;
  let bin = 0;
  let seen = 0;
  let previous = NaN;
  let binWeight = 0;
  let binCorrect = 0;
  let binConfidence = 0;
  for (let index = 0; index < instance.length; index++) {
    const weight = weights[instance[index]];
    if (weight === 0) continue;
    const value = confidence[index];
    while (nextStart <= seen) {
      boundary[nextChunk - 1] = ((nextStart === seen ? value : previous) + previous) / 2;
      nextChunk++;
      nextStart = nextChunk < chunks ? nextChunk * base + Math.min(nextChunk, larger) : Infinity;
    }
    if (bin < nextChunk - 1 && boundary[bin] < value) {
      bins.weight[bin] = binWeight;
      bins.correct[bin] = binCorrect;
      bins.confidence[bin] = binConfidence;
      binWeight = binCorrect = binConfidence = 0;
      do
        bin++;
      while (bin < nextChunk - 1 && boundary[bin] < value);
    }
    binWeight += weight;
    binCorrect += weight * correct[index];
    binConfidence += weight * value;
    seen += weight;
    previous = value;
  }
  bins.weight[bin] = binWeight;
  bins.correct[bin] = binCorrect;
  bins.confidence[bin] = binConfidence;
  return calibrationError(bins.weight, bins.correct, bins.confidence);
}
var HarmonicNumbers = class {
  values = new Float64Array([0]);
  upTo(m) {
    if (m < this.values.length) return this.values;
    const grown2 = new Float64Array(Math.max(m + 1, this.values.length * 2));
    grown2.set(this.values);
    const from = this.values.length;
    this.values = grown2;
    for (let k = from; k < grown2.length; k++) grown2[k] = grown2[k - 1] + 1 / k;
    return grown2;
  }
};
function selectiveAccuracy({ instance, payload: correct }, weights, harmonic, total = totalWeight(instance, weights)) {
  if (total <= 0) return [NaN, NaN];
  const tenPercentK = Math.floor(0.1 * total) + 1;
  const h = harmonic.upTo(total);
  let k = 0;
  let correctSoFar = 0;
  let areaSum = 0;
  let atTenPercent = NaN;
  for (let index = 0; index < instance.length; index++) {
    const copies = weights[instance[index]];
    if (copies === 0) continue;
    const score = correct[index];
    if (tenPercentK > k && tenPercentK <= k + copies) atTenPercent = (correctSoFar + (tenPercentK - k) * score) / tenPercentK;
    if (copies === 1) {
      k++;
      correctSoFar += score;
      areaSum += correctSoFar / k;
    } else {
      areaSum += copies * score + (correctSoFar - score * k) * (h[k + copies] - h[k]);
      k += copies;
      correctSoFar += copies * score;
    }
  }
  return [areaSum / total, atTenPercent];
}

// src/stats/sort.ts
var MAX_DECIMALS = 6;
function decimalKeys(values, rows, maxKey) {
  let scale = 1;
  let decimals = 0;
  for (let index = 0; index < rows.length; index++) {
    const value = values[rows[index]];
    while (Math.round(value * scale) / scale !== value) {
      if (++decimals > MAX_DECIMALS) return void 0;
      scale *= 10;
    }
  }
  const keys = new Int32Array(rows.length);
  let largest = 0;
  for (let index = 0; index < rows.length; index++) {
    const value = values[rows[index]];
    const key = Math.round(value * scale);
    if (!(key >= 0 && key <= maxKey) || key / scale !== value) return void 0;
    keys[index] = key;
    if (key > largest) largest = key;
  }
  return { keys, largest };
}
function countingSort(rows, keys, largest) {
  const start = new Int32Array(largest + 2);
  for (let index = 0; index < keys.length; index++) start[keys[index] + 1]++;
  for (let key = 0; key <= largest; key++) start[key + 1] += start[key];
  const order = new Int32Array(rows.length);
  for (let index = 0; index < keys.length; index++) order[start[keys[index]]++] = rows[index];
  return order;
}
function sortRowsByValue(values, rows) {
  const decimal = decimalKeys(values, rows, Math.max(1 << 16, 4 * rows.length));
  return decimal ? countingSort(rows, decimal.keys, decimal.largest) : radixSortRowsByValue(values, rows);
}
function radixSortRowsByValue(values, rows) {
  const n = rows.length;
  let keys = new Uint32Array(2 * n);
  const asDoubles = new Float64Array(keys.buffer);
  for (let index = 0; index < n; index++) asDoubles[index] = values[rows[index]] + 0;
  let order = Int32Array.from(rows);
  let nextKeys = new Uint32Array(2 * n);
  let nextOrder = new Int32Array(n);
  const start = new Int32Array(65536);
  for (const [word, shift] of [
    [0, 0],
    [0, 16],
    [1, 0],
    [1, 16]
  ]) {
    start.fill(0);
    for (let index = 0; index < n; index++) start[keys[2 * index + word] >>> shift & 65535]++;
    if (n === 0 || start[keys[word] >>> shift & 65535] === n) continue;
    let position = 0;
    for (let digit = 0; digit < 65536; digit++) {
      const count = start[digit];
      start[digit] = position;
      position += count;
    }
    for (let index = 0; index < n; index++) {
      const target = start[keys[2 * index + word] >>> shift & 65535]++;
      nextOrder[target] = order[index];
      nextKeys[2 * target] = keys[2 * index];
      nextKeys[2 * target + 1] = keys[2 * index + 1];
    }
    [order, nextOrder] = [nextOrder, order];
    [keys, nextKeys] = [nextKeys, keys];
  }
  return order;
}
var INSERTION_SORT_MAX = 32;
function insertionSorted(order, keys) {
  for (let index = 1; index < order.length; index++) {
    const item = order[index];
    let at = index;
    while (at > 0 && keys[order[at - 1]] > keys[item]) {
      order[at] = order[at - 1];
      at--;
    }
    order[at] = item;
  }
  return order;
}
var KEY_DIGIT_BITS = 11;
function sortPositionsByKey(keys, keyBound) {
  const n = keys.length;
  let order = new Int32Array(n);
  for (let position = 0; position < n; position++) order[position] = position;
  if (n <= INSERTION_SORT_MAX) return insertionSorted(order, keys);
  let next = new Int32Array(n);
  const digits = 1 << KEY_DIGIT_BITS;
  const start = new Int32Array(digits);
  for (let shift = 0; keyBound > 2 ** shift; shift += KEY_DIGIT_BITS) {
    start.fill(0);
    for (let index = 0; index < n; index++) start[keys[index] >>> shift & digits - 1]++;
    let position = 0;
    for (let digit = 0; digit < digits; digit++) {
      const count = start[digit];
      start[digit] = position;
      position += count;
    }
    for (let index = 0; index < n; index++) {
      const item = order[index];
      next[start[keys[item] >>> shift & digits - 1]++] = item;
    }
    [order, next] = [next, order];
  }
  return order;
}

// src/metrics/ordering.ts
function rowOrder(table, column) {
  const known = table.orderings.get(column);
  if (known) return known;
  const values = table[column];
  const sorted = sortRowsByValue(values, rowsWithValue(values));
  const rowAtRank = grownShared(sorted, sorted.length);
  const rankOf = new Int32Array(new SharedArrayBuffer(values.length * Int32Array.BYTES_PER_ELEMENT)).fill(-1);
  for (let rank = 0; rank < rowAtRank.length; rank++) rankOf[rowAtRank[rank]] = rank;
  const order = { rankOf, rowAtRank };
  table.orderings.set(column, order);
  return order;
}
function rowsWithValue(values) {
  const rows = new Int32Array(countValues(values));
  let next = 0;
  for (let row = 0; row < values.length; row++) if (!Number.isNaN(values[row])) rows[next++] = row;
  return rows;
}
function countValues(values) {
  let count = 0;
  for (let row = 0; row < values.length; row++) if (!Number.isNaN(values[row])) count++;
  return count;
}
function orderOfRows(table, column, rows) {
  const { rankOf, rowAtRank } = rowOrder(table, column);
  if (rows.length * 16 > table.size) {
    const order = new Int32Array(rows.length);
    const positionOf = new Int32Array(table.size).fill(-1);
    for (let position = 0; position < rows.length; position++) positionOf[rows[position]] = position;
    let next = 0;
    for (let rank = 0; rank < rowAtRank.length; rank++) {
      const position = positionOf[rowAtRank[rank]];
      if (position >= 0) order[next++] = position;
    }
    return order;
  }
  return sortPositionsByKey(ranksOf(rows, rankOf), table.size);
}
function ranksOf(rows, rankOf) {
  const ranks = new Int32Array(rows.length);
  for (let position = 0; position < rows.length; position++) ranks[position] = rankOf[rows[position]];
  return ranks;
}
function sortRecords(table, column, rows, instances, payload) {
  const value = table[column];
  const order = orderOfRows(table, column, rows);
  const sorted = {
    instance: new Int32Array(rows.length),
    value: new Float64Array(rows.length),
    payload: new Float64Array(rows.length)
  };
  for (let index = 0; index < order.length; index++) {
    const position = order[index];
    const row = rows[position];
    sorted.instance[index] = instances[position];
    sorted.value[index] = value[row];
    sorted.payload[index] = payload[row];
  }
  return sorted;
}
function reverseKeepingTies({ instance, value, payload }) {
  const reversed = {
    instance: new Int32Array(instance.length),
    value: new Float64Array(value.length),
    payload: new Float64Array(payload.length)
  };
  let next = 0;
  let end = value.length;
  while (end > 0) {
    let begin = end - 1;
    while (begin > 0 && value[begin - 1] === value[end - 1]) begin--;
    for (let index = begin; index < end; index++, next++) {
      reversed.instance[next] = instance[index];
      reversed.value[next] = value[index];
      reversed.payload[next] = payload[index];
    }
    end = begin;
  }
  return reversed;
}

// src/metrics/sums.ts
var SlotsBuilder = class _SlotsBuilder {
  // Each slot's entries grow in two typed arrays (doubling); shares other than 1 go to a third, made on the first.
  instances = [];
  values = [];
  lengths = [];
  /** What each slot was expected to hold (newSlot): its first growth goes straight there. */
  expected = [];
  shares = [];
  // A subset's slots not yet copied from the scope's (see subsetOf): copied when first read.
  sources = [];
  /**
   * The first `slots` slots of a scope's builder, restricted to some of its instances (`subset`, their
   * numbering `local`: by-instance.ts's numberSubset), renumbered so, in the same order. Each slot is
   * copied when first read (count, build), so a subset that needs one slot pays for that one. Its
   * copied slots are read-only (add to new slots only).
   */
  static subsetOf(from, slots, local, subset) {
    const builder = new _SlotsBuilder();
    for (let slot = 0; slot < slots; slot++) {
      builder.newSlot(1);
      builder.sources[slot] = { from, local, subset };
    }
    return builder;
  }
  /** The slot's entries, copied from its source first if it is a subset's. */
  copied(slot) {
    const source = this.sources[slot];
    if (source === void 0) return;
    this.sources[slot] = void 0;
    const { from, local, subset } = source;
    const entries = { instances: from.instances[slot], values: from.values[slot], shares: from.shares[slot] };
    const kept = entriesOfSubset(entries.instances, from.lengths[slot], local, subset);
    const shared = entries.shares !== void 0 && keepsShares(entries.shares, kept);
    const instance = new Int32Array(Math.max(1, kept.length));
    const value = new Float64Array(instance.length);
    const share = shared ? new Float64Array(instance.length) : void 0;
    copyKept(entries, kept, local, instance, value, share);
    this.instances[slot] = instance;
    this.values[slot] = value;
    this.shares[slot] = share;
    this.lengths[slot] = kept.length;
  }
  /** How many slots there are. */
  get size() {
    return this.values.length;
  }
  /** How many entries the slot has (each counting one, whatever its share). */
  entries(slot) {
    this.copied(slot);
    return this.lengths[slot];
  }
  /**
   * A new slot. `expectedEntries`: about how many entries it will get (a scope's records for a slot
   * that takes every record, a tenth of them for a calibration bin, ...): it starts at 64 entries at
   * most, grows to the expected entries when it has more, and doubles from there. A slot that stays
   * empty (no toxicity in the records) stays small, and a full one is copied once, not in a few
   * doublings: a large array's memory is only paid for where it is written.
   */
  newSlot(expectedEntries = 0) {
    const capacity = Math.max(1, Math.min(64, Math.ceil(expectedEntries)));
    this.instances.push(new Int32Array(capacity));
    this.values.push(new Float64Array(capacity));
    this.lengths.push(0);
    this.expected.push(Math.ceil(expectedEntries));
    this.shares.push(void 0);
    this.sources.push(void 0);
    return this.values.length - 1;
  }
  /** Adds an entry; `share` is the part of its instance's weight it carries (1/K for one of K samples of an example). */
  add(slot, instance, value, share = 1) {
    const length = this.lengths[slot];
    if (length === this.values[slot].length) this.grow(slot);
    this.instances[slot][length] = instance;
    this.values[slot][length] = value;
    this.lengths[slot] = length + 1;
    if (share !== 1 || this.shares[slot] !== void 0) this.addShare(slot, length, share);
  }
  grow(slot) {
    const capacity = Math.max(this.values[slot].length * 2, this.expected[slot]);
    this.instances[slot] = grown(this.instances[slot], capacity);
    this.values[slot] = grown(this.values[slot], capacity);
  }
  addShare(slot, entry, share) {
    let shares = this.shares[slot];
    if (shares === void 0 || entry >= shares.length) {
      this.shares[slot] = shares = grown(shares ?? new Float64Array(0), Math.max(64, 2 * (entry + 1)), 1);
    }
    shares[entry] = share;
  }
  /** What the slot's metric rests on: its entries, each counting its share (K samples of an example count as one). */
  count(slot) {
    this.copied(slot);
    const entries = this.lengths[slot];
    const shares = this.shares[slot];
    if (shares === void 0) return entries;
    let total = 0;
    for (let entry = 0; entry < entries; entry++) total += shares[entry];
    return Math.round(total);
  }
  /** The `used` slots (the others' sums stay 0), those with the same entries (instances and shares) grouped to be summed in one pass. */
  build(used) {
    return new SlotSums(
      this.values.map((_, slot) => {
        if (!used.has(slot)) return EMPTY_SLOT;
        this.copied(slot);
        const entries = this.lengths[slot];
        if (entries === 0) return EMPTY_SLOT;
        return {
          instance: this.instances[slot].subarray(0, entries),
          value: this.values[slot].subarray(0, entries),
          share: this.shares[slot]?.subarray(0, entries)
        };
      })
    );
  }
};
var EMPTY_SLOT = { instance: new Int32Array(0), value: new Float64Array(0) };
function keepsShares(shares, kept) {
  for (let index = 0; index < kept.length; index++) if (shares[kept[index]] !== 1) return true;
  return false;
}
function copyKept({ instances, values, shares }, kept, local, instance, value, share) {
  for (let index = 0; index < kept.length; index++) {
    const entry = kept[index];
    instance[index] = local[instances[entry]];
    value[index] = values[entry];
    if (share) share[index] = shares[entry];
  }
}
var GROUP_WIDTH = 4;
function sameEntries(a, b) {
  if (a.instance.length !== b.instance.length || a.share === void 0 !== (b.share === void 0)) return false;
  return sameNumbers(a.instance, b.instance) && (a.share === void 0 || sameNumbers(a.share, b.share));
}
function sameNumbers(a, b) {
  for (let entry = 0; entry < a.length; entry++) if (a[entry] !== b[entry]) return false;
  return true;
}
var SlotSums = class {
  groups = [];
  totals;
  constructor(slots) {
    this.totals = { numerator: new Float64Array(slots.length), denominator: new Float64Array(slots.length) };
    const byShape = /* @__PURE__ */ new Map();
    slots.forEach((slot, index) => {
      const entries = slot.instance.length;
      if (entries === 0) return;
      const shape = `${entries} ${slot.share !== void 0} ${slot.instance[0]} ${slot.instance[entries - 1]}`;
      const candidates = byShape.get(shape) ?? [];
      byShape.set(shape, candidates);
      const group = candidates.find((candidate) => candidate.slots.length < GROUP_WIDTH && sameEntries(candidate, slot));
      if (group) {
        group.slots.push(index);
        group.values.push(slot.value);
      } else {
        const created = { slots: [index], instance: slot.instance, share: slot.share, values: [slot.value] };
        candidates.push(created);
        this.groups.push(created);
      }
    });
    warmUpSumGroup();
  }
  /**
   * Every slot's sums of weight * value and of weight, in the same two arrays on every call (read them
   * before the next): a resample of a small scope costs little more than allocating them. An empty
   * slot's sums stay the 0s they start as.
   */
  sum(weights) {
    const { numerator, denominator } = this.totals;
    for (const group of this.groups) {
      if (group.share) sumShared(group, weights, numerator, denominator);
      else sumGroup(group, weights, numerator, denominator);
    }
    return { numerator, denominator };
  }
};
function sumGroup({ slots, instance, values }, weights, numerator, denominator) {
  const width = slots.length;
  const a = values[0];
  const b = width > 1 ? values[1] : a;
  const c = width > 2 ? values[2] : a;
  const d = width > 3 ? values[3] : a;
  let weightEven = 0;
  let weightOdd = 0;
  let a0 = 0;
  let a1 = 0;
  let b0 = 0;
  let b1 = 0;
  let c0 = 0;
  let c1 = 0;
  let d0 = 0;
  let d1 = 0;
  const entries = instance.length;
  let entry = 0;
  for (; entry + 1 < entries; entry += 2) {
    const even = weights[instance[entry]];
    const odd = weights[instance[entry + 1]];
    weightEven += even;
    weightOdd += odd;
    a0 += even * a[entry];
    a1 += odd * a[entry + 1];
    if (width > 1) {
      b0 += even * b[entry];
      b1 += odd * b[entry + 1];
    }
    if (width > 2) {
      c0 += even * c[entry];
      c1 += odd * c[entry + 1];
    }
    if (width > 3) {
      d0 += even * d[entry];
      d1 += odd * d[entry + 1];
    }
  }
  if (entry < entries) {
    const weight2 = weights[instance[entry]];
    weightEven += weight2;
    a0 += weight2 * a[entry];
    b0 += weight2 * b[entry];
    c0 += weight2 * c[entry];
    d0 += weight2 * d[entry];
  }
  const weight = weightEven + weightOdd;
  numerator[slots[0]] = a0 + a1;
  if (width > 1) numerator[slots[1]] = b0 + b1;
  if (width > 2) numerator[slots[2]] = c0 + c1;
  if (width > 3) numerator[slots[3]] = d0 + d1;
  for (let k = 0; k < width; k++) denominator[slots[k]] = weight;
}
var warmUp = Float64Array.of(0.5, 0.25, 0.125);
var warmUpGroup = {
  slots: [0, 1, 2, 3],
  instance: Int32Array.of(0, 1, 2),
  share: void 0,
  values: [warmUp, warmUp, warmUp, warmUp]
};
var warmedUp = false;
function warmUpSumGroup() {
  if (warmedUp) return;
  warmedUp = true;
  for (let call = 0; call < 32; call++) sumGroup(warmUpGroup, warmUp, new Float64Array(4), new Float64Array(4));
}
function sumShared({ slots, instance, share, values }, weights, numerator, denominator) {
  const sums = new Float64Array(slots.length);
  let weightSum = 0;
  for (let entry = 0; entry < instance.length; entry++) {
    const weight = weights[instance[entry]] * share[entry];
    weightSum += weight;
    for (let k = 0; k < slots.length; k++) sums[k] += weight * values[k][entry];
  }
  slots.forEach((slot, k) => {
    numerator[slot] = sums[k];
    denominator[slot] = weightSum;
  });
}

// src/metrics/collect.ts
var TOXIC = 0.5;
var RowPicker = class {
  rows;
  instances;
  count = 0;
  constructor(size) {
    this.rows = new Int32Array(size);
    this.instances = new Int32Array(size);
  }
  add(row, instance) {
    this.rows[this.count] = row;
    this.instances[this.count++] = instance;
  }
  picked() {
    return { rows: this.rows.subarray(0, this.count), instances: this.instances.subarray(0, this.count) };
  }
};
function emptyCollection(table, scope) {
  const sums = new SlotsBuilder();
  const everyRecord = scope.rows.length;
  return {
    sums,
    accuracy: sums.newSlot(everyRecord),
    errors: sums.newSlot(everyRecord),
    judge: {
      unknown: sums.newSlot(),
      errors: sums.newSlot(),
      passed: sums.newSlot(),
      agreement: sums.newSlot(),
      truePositive: sums.newSlot(),
      trueNegative: sums.newSlot(),
      cost: sums.newSlot(),
      selfAgreement: sums.newSlot(),
      win: sums.newSlot(),
      flip: sums.newSlot(),
      longerWins: sums.newSlot()
    },
    brier: sums.newSlot(everyRecord),
    eceCorrect: Array.from({ length: ECE_BINS }, () => sums.newSlot(everyRecord / ECE_BINS)),
    eceConfidence: Array.from({ length: ECE_BINS }, () => sums.newSlot(everyRecord / ECE_BINS)),
    toxic: sums.newSlot(everyRecord),
    outputTokens: sums.newSlot(everyRecord),
    cost: sums.newSlot(everyRecord),
    groups: [...table.groups].map(([attribute, column]) => ({
      attribute,
      values: column.values,
      seen: [],
      slots: []
    })),
    worstOriginal: new Float64Array(scope.instanceCount).fill(Infinity),
    worstRobust: new Float64Array(scope.instanceCount).fill(Infinity),
    worstFair: new Float64Array(scope.instanceCount).fill(Infinity)
  };
}
function collectScope(table, scope) {
  const collected = emptyCollection(table, scope);
  const calibrated = new RowPicker(scope.rows.length);
  const timed = new RowPicker(scope.rows.length);
  const slotOf = [...table.groups.values()].map((column) => column.slotScratch);
  collectRows(table, scope, collected, slotOf, calibrated, timed);
  collected.groups.forEach(({ seen }, attribute) => seen.forEach((value) => slotOf[attribute][value] = -1));
  return { ...collected, calibrated: calibrated.picked(), timed: timed.picked(), collectedSlots: collected.sums.size };
}
function collectRows(table, scope, collected, slotOf, calibrated, timed) {
  const { sums, accuracy, errors, brier, eceCorrect, eceConfidence, toxic, outputTokens, cost, groups } = collected;
  const { worstOriginal, worstRobust, worstFair } = collected;
  const groupColumns = [...table.groups.values()].map((column) => column.valueOf);
  const { failed, kind, correct: correctOf, confidence: confidenceOf, latencyMs, toxicity, outputTokens: tokensOf, costUsd } = table;
  const samples = table.samples;
  const judged = table.judge;
  const { judgeProbes, judgeCostUsd } = table;
  for (let index = 0; index < scope.rows.length; index++) {
    const row = scope.rows[index];
    const instance = scope.instanceOfRow[index];
    const rowFailed = failed[row];
    sums.add(errors, instance, rowFailed === FAILED_CALL ? 1 : 0);
    if (judged[row] !== 0) collectJudged(collected.judge, sums, judged[row], table.human[row], instance);
    if (!Number.isNaN(judgeCostUsd[row])) sums.add(collected.judge.cost, instance, judgeCostUsd[row]);
    if (judgeProbes[row] !== 0) collectProbes(collected.judge, sums, judgeProbes[row], instance);
    if (rowFailed === FAILED_CALL) continue;
    if (!Number.isNaN(latencyMs[row])) timed.add(row, instance);
    if (!Number.isNaN(toxicity[row])) sums.add(toxic, instance, toxicity[row] >= TOXIC ? 1 : 0);
    if (!Number.isNaN(tokensOf[row])) sums.add(outputTokens, instance, tokensOf[row]);
    if (!Number.isNaN(costUsd[row])) sums.add(cost, instance, costUsd[row]);
    if (rowFailed !== 0) continue;
    const rowKind = kind[row];
    const correct = correctOf[row];
    const example = samples ? samples.exampleOf[row] : -1;
    const exampleCorrect = samples ? samples.meanCorrect[example] : correct;
    if (rowKind === KIND_ROBUSTNESS) worstRobust[instance] = Math.min(worstRobust[instance], exampleCorrect);
    else if (rowKind === KIND_FAIRNESS) worstFair[instance] = Math.min(worstFair[instance], exampleCorrect);
    else {
      worstOriginal[instance] = Math.min(worstOriginal[instance], exampleCorrect);
      const share = samples ? 1 / samples.answered[example] : 1;
      sums.add(accuracy, instance, correct, share);
      const confidence = confidenceOf[row];
      if (!Number.isNaN(confidence)) {
        const calibratedShare = samples ? 1 / samples.calibrated[example] : 1;
        sums.add(brier, instance, (confidence - correct) ** 2, calibratedShare);
        const bin = Math.min(Math.floor(confidence * 10), ECE_BINS - 1);
        sums.add(eceCorrect[bin], instance, correct, calibratedShare);
        sums.add(eceConfidence[bin], instance, confidence, calibratedShare);
        calibrated.add(row, instance);
      }
      for (let attribute = 0; attribute < groupColumns.length; attribute++) {
        const value = groupColumns[attribute][row];
        if (value < 0) continue;
        const slots = slotOf[attribute];
        if (slots[value] < 0) {
          const group = groups[attribute];
          slots[value] = sums.newSlot(scope.rows.length / group.values.length);
          group.seen.push(value);
          group.slots.push(slots[value]);
        }
        sums.add(slots[value], instance, correct, share);
      }
    }
  }
}
function collectJudged(slots, sums, code, human, instance) {
  sums.add(slots.unknown, instance, code === JUDGE_UNKNOWN || code === JUDGE_ERROR ? 1 : 0);
  sums.add(slots.errors, instance, code === JUDGE_ERROR ? 1 : 0);
  if (code !== JUDGE_PASS && code !== JUDGE_FAIL) return;
  const passed = code === JUDGE_PASS;
  sums.add(slots.passed, instance, passed ? 1 : 0);
  if (Number.isNaN(human)) return;
  const right = human >= 0.5;
  sums.add(slots.agreement, instance, passed === right ? 1 : 0);
  if (right) sums.add(slots.truePositive, instance, passed ? 1 : 0);
  else sums.add(slots.trueNegative, instance, passed ? 0 : 1);
}
function collectProbes(slots, sums, bits, instance) {
  if (bits & (SAMPLES_AGREE | SAMPLES_DISAGREE)) sums.add(slots.selfAgreement, instance, bits & SAMPLES_AGREE ? 1 : 0);
  if (bits & (PAIR_WIN | PAIR_LOSS | PAIR_TIE | PAIR_UNKNOWN)) {
    sums.add(slots.win, instance, bits & PAIR_WIN ? 1 : bits & PAIR_TIE ? 0.5 : 0);
    if (!(bits & PAIR_UNKNOWN)) sums.add(slots.flip, instance, bits & PAIR_FLIPPED ? 1 : 0);
  }
  if (bits & (LONGER_WON | SHORTER_WON)) sums.add(slots.longerWins, instance, bits & LONGER_WON ? 1 : 0);
}
function subsetRows({ rows, instances }, local, subset) {
  const kept = entriesOfSubset(instances, instances.length, local, subset);
  const picker = new RowPicker(kept.length);
  for (let index = 0; index < kept.length; index++) picker.add(rows[kept[index]], local[instances[kept[index]]]);
  return picker.picked();
}
function picked(subset, ofInstance) {
  const values = new Float64Array(subset.length);
  for (let index = 0; index < subset.length; index++) values[index] = ofInstance[subset[index]];
  return values;
}
function subsetCollection(scope, local, subset) {
  let calibrated;
  let timed;
  let original;
  let robust;
  let fair;
  return {
    ...scope,
    sums: SlotsBuilder.subsetOf(scope.sums, scope.collectedSlots, local, subset),
    get worstOriginal() {
      return original ??= picked(subset, scope.worstOriginal);
    },
    get worstRobust() {
      return robust ??= picked(subset, scope.worstRobust);
    },
    get worstFair() {
      return fair ??= picked(subset, scope.worstFair);
    },
    get calibrated() {
      return calibrated ??= subsetRows(scope.calibrated, local, subset);
    },
    get timed() {
      return timed ??= subsetRows(scope.timed, local, subset);
    }
  };
}

// src/metrics/statistics.ts
var DEFAULT_MIN_GROUP_SIZE = 10;
var SumsStatistic = class {
  constructor(slots, derived) {
    this.slots = slots;
    this.derived = derived;
    this.metrics = derived.map(({ metric, n }) => ({ metric, n }));
  }
  slots;
  derived;
  metrics;
  evaluate(weights) {
    const totals = this.slots.sum(weights);
    return this.derived.map((metric) => metric.derive(totals));
  }
};
var ratio = (slot) => ({ numerator, denominator }) => (
  // Stryker disable next-line ConditionalExpression,EqualityOperator: with no weight the numerator is 0 too, and 0 / 0 is NaN
  denominator[slot] > 0 ? numerator[slot] / denominator[slot] : NaN
);
var EQUAL_MASS = ["ece_10_bin", "selective_cov_acc_area", "selective_acc@10"];
function addCalibration(table, { collected, derived, statistics, wanted, addRatio }) {
  if (!["ece", "brier", ...EQUAL_MASS].some(wanted)) return;
  const { brier, eceCorrect, eceConfidence } = collected;
  const calibrated = collected.calibrated.rows.length;
  if (calibrated === 0) return;
  const binWeight = new Float64Array(ECE_BINS);
  const binCorrect = new Float64Array(ECE_BINS);
  const binConfidence = new Float64Array(ECE_BINS);
  if (wanted("ece")) {
    derived.push({
      metric: "ece",
      n: collected.sums.count(brier),
      // calibrated examples (records without repeated samples)
      slots: [...eceCorrect, ...eceConfidence],
      derive: ({ numerator, denominator }) => {
        for (let bin = 0; bin < ECE_BINS; bin++) {
          binWeight[bin] = denominator[eceCorrect[bin]];
          binCorrect[bin] = numerator[eceCorrect[bin]];
          binConfidence[bin] = numerator[eceConfidence[bin]];
        }
        return calibrationError(binWeight, binCorrect, binConfidence);
      }
    });
  }
  addRatio("brier", brier);
  if (!EQUAL_MASS.some(wanted)) return;
  const ascending = sortRecords(table, "confidence", collected.calibrated.rows, collected.calibrated.instances, table.correct);
  const mostConfidentFirst = reverseKeepingTies(ascending);
  const harmonic = new HarmonicNumbers();
  const bins = new EceBins();
  statistics.push({
    metrics: EQUAL_MASS.map((metric) => ({ metric, n: calibrated })),
    evaluate: (weights) => {
      const total = totalWeight(ascending.instance, weights);
      return [equalMassEce(ascending, weights, total, bins), ...selectiveAccuracy(mostConfidentFirst, weights, harmonic, total)];
    }
  });
}
function addWorstCase(instanceCount, { collected, wanted, addRatio }) {
  const { sums } = collected;
  for (const [metric, worst] of [
    ["accuracy_robust", "worstRobust"],
    ["accuracy_fair", "worstFair"]
  ]) {
    if (!wanted(metric)) continue;
    const { worstOriginal, [worst]: worstPerturbed } = collected;
    const slot = sums.newSlot(instanceCount);
    let perturbed = false;
    for (let instance = 0; instance < instanceCount; instance++) {
      if (worstOriginal[instance] === Infinity) continue;
      if (worstPerturbed[instance] !== Infinity) perturbed = true;
      sums.add(slot, instance, Math.min(worstOriginal[instance], worstPerturbed[instance]));
    }
    if (perturbed) addRatio(metric, slot);
  }
}
function addGroups(options, { collected, derived, wanted, addRatio }) {
  const { sums, groups } = collected;
  for (const { attribute, values, seen, slots } of groups) {
    if (seen.length === 0) continue;
    const [worst, gap] = ATTRIBUTE_FAMILIES.map((family) => formatMetricName({ family, group: { attribute } }));
    const eligible = (
      // Stryker disable next-line ConditionalExpression,EqualityOperator: saves work only (each is added when wanted); a slot without entries counts 0, below any min_group_size (at least 1)
      wanted(worst) || wanted(gap) ? slots.filter((slot) => sums.entries(slot) > 0 && sums.count(slot) >= options.minGroupSize) : []
    );
    if (eligible.length >= 2) {
      const n = eligible.reduce((sum, slot) => sum + sums.count(slot), 0);
      const accuracies = eligible.map(ratio);
      const range = (totals) => {
        let lowest = Infinity;
        let highest = -Infinity;
        for (const accuracyOf of accuracies) {
          const value = accuracyOf(totals);
          if (Number.isNaN(value)) continue;
          lowest = Math.min(lowest, value);
          highest = Math.max(highest, value);
        }
        return lowest === Infinity ? [NaN, NaN] : [lowest, highest];
      };
      if (wanted(worst)) derived.push({ metric: worst, n, slots: eligible, derive: (totals) => range(totals)[0] });
      if (wanted(gap)) {
        derived.push({
          metric: gap,
          n,
          slots: eligible,
          derive: (totals) => {
            const [lowest, highest] = range(totals);
            return highest - lowest;
          }
        });
      }
    }
    seen.forEach((value, k) => addRatio(formatMetricName({ family: GROUP_FAMILY, group: { attribute, value: values[value] } }), slots[k]));
  }
}
function copiesOf(instances, records, count, weights) {
  let total = 0;
  for (let index = 0; index < count; index++) total += weights[instances[index]] * records[index];
  return total;
}
function countPerInstance2(instances, perInstance) {
  for (let index = 0; index < instances.length; index++) perInstance[instances[index]]++;
}
function listTimed(perInstance, timedInstances, timedCounts) {
  let timed = 0;
  for (let instance = 0; instance < perInstance.length; instance++) {
    if (perInstance[instance] > 0) {
      timedInstances[timed] = instance;
      timedCounts[timed++] = perInstance[instance];
    }
  }
  return timed;
}
function addLatency(table, instanceCount, { collected, statistics, wanted }) {
  if (!(wanted("latency_p50_ms") || wanted("latency_p95_ms"))) return;
  const { rows, instances } = collected.timed;
  if (rows.length === 0) return;
  const ascending = sortRecords(table, "latencyMs", rows, instances, table.latencyMs);
  const n = rows.length;
  const perInstance = new Float64Array(instanceCount);
  countPerInstance2(instances, perInstance);
  const timedInstances = new Int32Array(instanceCount);
  const timedCounts = new Float64Array(instanceCount);
  const timed = listTimed(perInstance, timedInstances, timedCounts);
  statistics.push({
    metrics: [
      { metric: "latency_p50_ms", n },
      { metric: "latency_p95_ms", n }
    ],
    evaluate: (weights) => {
      const total = copiesOf(timedInstances, timedCounts, timed, weights);
      return [
        weightedQuantileSorted(ascending.value, ascending.instance, weights, total, 0.5),
        weightedQuantileSorted(ascending.value, ascending.instance, weights, total, 0.95)
      ];
    }
  });
}
function prepareStatistics(table, scope, options, only) {
  return new ScopeStatistics(table, scope, options).prepare(only);
}
var ScopeStatistics = class {
  constructor(table, scope, options) {
    this.table = table;
    this.scope = scope;
    this.options = options;
    this.collected = scope.rows.length === 0 ? void 0 : collectScope(table, scope);
  }
  table;
  scope;
  options;
  collected;
  subScope;
  /** A subset's numbering of the scope's instances (numberSubset), every entry -1 between subsets: made once, not per subset. */
  local;
  /** The scope's statistics (see prepareStatistics). */
  prepare(only) {
    return this.collected ? statisticsOf(this.table, this.collected, this.scope.instanceCount, this.options, only) : [];
  }
  /** The scope's collection, or (subset) what it holds of some instances: what bound-components.ts reads. */
  collection(subset) {
    if (!this.collected || !subset) return this.collected;
    return subsetCollection(this.collected, numberSubset(new Int32Array(this.scope.instanceCount).fill(-1), subset), subset);
  }
  /** The statistics of the scope's rows of some of its instances, numbered 0..subset.length-1 in subset order. */
  subset(subset, only) {
    if (!this.collected || subset.length === 0) return [];
    if (only === void 0) {
      this.subScope ??= subScopes(this.scope);
      return prepareStatistics(this.table, this.subScope(subset), this.options);
    }
    const local = numberSubset(this.local ??= new Int32Array(this.scope.instanceCount).fill(-1), subset);
    try {
      return statisticsOf(this.table, subsetCollection(this.collected, local, subset), subset.length, this.options, only);
    } finally {
      unnumberSubset(local, subset);
    }
  }
};
function roganGladen(passed, tpr, tnr) {
  const youden = tpr + tnr - 1;
  if (!(youden > 0)) return NaN;
  return Math.min(1, Math.max(0, (passed + tnr - 1) / youden));
}
function addCorrectedAccuracy(found) {
  const { sums, judge } = found.collected;
  const slots = [judge.passed, judge.truePositive, judge.trueNegative];
  if (!found.wanted("judge_corrected_accuracy") || slots.some((slot) => sums.count(slot) === 0)) return;
  const rate = slots.map(ratio);
  found.derived.push({
    metric: "judge_corrected_accuracy",
    n: sums.count(judge.passed),
    slots,
    derive: (totals) => roganGladen(rate[0](totals), rate[1](totals), rate[2](totals))
  });
}
function statisticsOf(table, collected, instanceCount, options, only) {
  const { sums } = collected;
  const wanted = only === void 0 ? () => true : (metric) => metric === only;
  const found = {
    collected,
    derived: [],
    statistics: [],
    wanted,
    addRatio: (metric, slot) => {
      if (wanted(metric) && sums.count(slot) > 0) found.derived.push({ metric, n: sums.count(slot), slots: [slot], derive: ratio(slot) });
    }
  };
  found.addRatio("accuracy", collected.accuracy);
  addCalibration(table, found);
  addWorstCase(instanceCount, found);
  addGroups(options, found);
  found.addRatio("error_rate", collected.errors);
  const { judge } = collected;
  found.addRatio("judge_unknown_rate", judge.unknown);
  found.addRatio("judge_error_rate", judge.errors);
  found.addRatio("judge_agreement", judge.agreement);
  found.addRatio("judge_tpr", judge.truePositive);
  found.addRatio("judge_tnr", judge.trueNegative);
  addCorrectedAccuracy(found);
  found.addRatio("judge_self_agreement", judge.selfAgreement);
  found.addRatio("judge_win_rate", judge.win);
  found.addRatio("judge_flip_rate", judge.flip);
  found.addRatio("judge_longer_wins_rate", judge.longerWins);
  addLatency(table, instanceCount, found);
  found.addRatio("toxicity_rate", collected.toxic);
  found.addRatio("output_tokens_mean", collected.outputTokens);
  for (const [metric, slot] of [
    ["cost_usd_total", collected.cost],
    ["judge_cost_usd_total", judge.cost]
  ]) {
    if (wanted(metric) && sums.count(slot) > 0) {
      found.derived.push({ metric, n: sums.count(slot), slots: [slot], derive: ({ numerator }) => numerator[slot] });
    }
  }
  const { derived, statistics } = found;
  if (derived.length > 0) statistics.unshift(new SumsStatistic(sums.build(new Set(derived.flatMap(({ slots }) => slots))), derived));
  return statistics;
}

// src/metrics/bound-components.ts
function componentShape(metric) {
  if (metric === "ece" || metric === "ece_10_bin") return "calibration";
  const family = parseMetricName(metric)?.family;
  return family === "worst_group_accuracy" ? "minimum" : family === "group_accuracy_gap" ? "range" : void 0;
}
function binSumsOf(table, collected, metric) {
  const { calibrated, sums, eceCorrect, eceConfidence } = collected;
  if (calibrated.rows.length === 0) return void 0;
  if (metric === "ece") {
    const slots = sums.build(/* @__PURE__ */ new Set([...eceCorrect, ...eceConfidence]));
    return (weights, bins) => {
      const { numerator, denominator } = slots.sum(weights);
      for (let bin = 0; bin < ECE_BINS; bin++) {
        bins.weight[bin] = denominator[eceCorrect[bin]];
        bins.correct[bin] = numerator[eceCorrect[bin]];
        bins.confidence[bin] = numerator[eceConfidence[bin]];
      }
    };
  }
  const ascending = sortRecords(table, "confidence", calibrated.rows, calibrated.instances, table.correct);
  return (weights, bins) => void equalMassEce(ascending, weights, totalWeight(ascending.instance, weights), bins);
}
function calibrationEstimator(binSums) {
  const bins = new EceBins();
  const parts = new Float64Array(ECE_BINS);
  return {
    bins,
    evaluate(weights) {
      if (!binSums) return parts.fill(NaN);
      binSums(weights, bins);
      let total = 0;
      for (let bin = 0; bin < ECE_BINS; bin++) total += bins.weight[bin];
      for (let bin = 0; bin < ECE_BINS; bin++) parts[bin] = total > 0 ? (bins.correct[bin] - bins.confidence[bin]) / total : NaN;
      return parts;
    }
  };
}
function eligibleGroups(collected, attribute, options) {
  const { sums } = collected;
  const slots = collected.groups.find((group) => group.attribute === attribute)?.slots ?? [];
  const eligible = slots.filter((slot) => sums.entries(slot) > 0 && sums.count(slot) >= options.minGroupSize);
  return eligible.length >= 2 ? eligible : [];
}
function groupEstimator(collected, slots) {
  const sums = collected.sums.build(new Set(slots));
  const accuracies = new Float64Array(slots.length);
  return {
    evaluate(weights) {
      const { numerator, denominator } = sums.sum(weights);
      slots.forEach((slot, g) => accuracies[g] = denominator[slot] > 0 ? numerator[slot] / denominator[slot] : NaN);
      return accuracies;
    }
  };
}
function metricComponents(table, scope, options, metric, bootstrap) {
  const shape = componentShape(metric);
  const statistics = new ScopeStatistics(table, scope, options);
  const collected = statistics.collection();
  if (!shape || !collected) return void 0;
  const ones = new Float64Array(scope.instanceCount).fill(1);
  if (shape === "calibration") {
    const binSums = binSumsOf(table, collected, metric);
    if (!binSums) return void 0;
    const full2 = calibrationEstimator(binSums);
    const values = Float64Array.from(full2.evaluate(ones));
    const bins = {
      weight: Float64Array.from(full2.bins.weight),
      correct: Float64Array.from(full2.bins.correct),
      confidence: Float64Array.from(full2.bins.confidence)
    };
    const factory2 = (subset) => subset ? calibrationEstimator(binSumsOf(table, statistics.collection(subset), metric)) : full2;
    return { shape, values, bins, deviations: bootstrapDeviations(factory2, scope.instanceCount, bootstrap) };
  }
  const attribute = parseMetricName(metric)?.group?.attribute;
  const slots = attribute === void 0 ? [] : eligibleGroups(collected, attribute, options);
  if (slots.length === 0) return void 0;
  const full = groupEstimator(collected, slots);
  const factory = (subset) => subset ? groupEstimator(statistics.collection(subset), slots) : full;
  return {
    shape,
    values: Float64Array.from(full.evaluate(ones)),
    sizes: Float64Array.from(slots, (slot) => collected.sums.count(slot)),
    deviations: bootstrapDeviations(factory, scope.instanceCount, bootstrap)
  };
}

// src/metrics/compute.ts
var DEFAULT_COMPUTE_OPTIONS = {
  resamples: DEFAULT_RESAMPLES,
  seed: DEFAULT_SEED,
  minGroupSize: DEFAULT_MIN_GROUP_SIZE
};
var PLAIN_BOOTSTRAP_MAX_INSTANCES = 500;
var isTotal = (metric) => metric === "cost_usd_total" || metric === "judge_cost_usd_total";
var MIN_RECORDS_PER_SUBSET = 50;
function subsetSizeFor(instanceCount, populations) {
  if (instanceCount <= PLAIN_BOOTSTRAP_MAX_INSTANCES) return instanceCount;
  const smallest = Math.max(1, Math.min(...populations));
  const size = Math.max(
    Math.ceil(instanceCount ** 0.7),
    PLAIN_BOOTSTRAP_MAX_INSTANCES,
    Math.ceil(MIN_RECORDS_PER_SUBSET * instanceCount / smallest)
  );
  return Math.min(size, instanceCount);
}
function gatedPopulations(statistics, options) {
  return statistics.flatMap(
    (statistic) => statistic.metrics.filter(({ metric, n }) => !(isGroupAccuracy(metric) && n < options.minGroupSize)).map(({ n }) => n)
  );
}
function metricsOfScope(table, scope, options, keepSamples) {
  const scopeStatistics = new ScopeStatistics(table, scope, options);
  const statistics = scopeStatistics.prepare();
  const ones = new Float64Array(scope.instanceCount).fill(1);
  const values = statistics.map((statistic) => statistic.evaluate(ones));
  const factory = (subset) => {
    if (!subset) return statistics;
    const prepared = scopeStatistics.subset(subset);
    if (sameMetrics(prepared, statistics)) return prepared;
    return statistics.map(
      (statistic) => alignedEstimator(
        statistic.metrics.map(({ metric }) => metric),
        prepared
      )
    );
  };
  const subsetSize = subsetSizeFor(scope.instanceCount, gatedPopulations(statistics, options));
  const samples = options.resamples > 0 ? bootstrapSamples(factory, values, scope.instanceCount, {
    ...scopeBootstrap(scope, options),
    subsetSize,
    extensive: (s, k) => isTotal(statistics[s].metrics[k].metric)
  }) : void 0;
  const found = [];
  const resampled = dictionary();
  statistics.forEach((statistic, s) => {
    statistic.metrics.forEach(({ metric, n }, k) => {
      if (Number.isNaN(values[s][k])) return;
      const ci = samples && (WILSON_METRICS.has(metric) ? wilsonInterval(values[s][k] * n, n) : metric === "judge_corrected_accuracy" ? definedPercentileInterval(samples[s][k], options.resamples) : percentileInterval(samples[s][k]));
      found.push([metric, { value: values[s][k], ci: clipped(metric, ci), n }]);
      const tellsNothing = metric === "judge_corrected_accuracy" && !ci;
      if (samples && keepSamples && !tellsNothing) resampled[metric] = samples[s][k];
    });
  });
  const metrics = dictionary(sortByRegistry(found));
  return { metrics, intervals: options.resamples > 0, subsetSize, ...keepSamples ? { samples: resampled } : {} };
}
var WILSON_METRICS = /* @__PURE__ */ new Set([
  "judge_agreement",
  "judge_tpr",
  "judge_tnr",
  "judge_self_agreement",
  "judge_flip_rate",
  "judge_longer_wins_rate"
]);
function definedPercentileInterval(samples, resamples) {
  return samples.length >= 0.95 * resamples ? percentileInterval(samples) : void 0;
}
var scopeBootstrap = (scope, options) => ({
  resamples: options.resamples,
  seed: deriveSeed(options.seed, scope.name)
});
function clipped(metric, ci) {
  if (!ci) return null;
  const [low, high] = lookupMetric(metric).range;
  return [Math.min(Math.max(ci[0], low), high), Math.min(Math.max(ci[1], low), high)];
}
function sameMetrics(a, b) {
  return a.length === b.length && a.every(
    (statistic, s) => statistic.metrics.length === b[s].metrics.length && statistic.metrics.every(({ metric }, k) => metric === b[s].metrics[k].metric)
  );
}
function alignedEstimator(metrics, prepared) {
  const where = /* @__PURE__ */ new Map();
  prepared.forEach((statistic, s) => statistic.metrics.forEach(({ metric }, index) => where.set(metric, { statistic: s, index })));
  const sources = metrics.map((metric) => where.get(metric));
  const needed = prepared.map((_, statistic) => sources.some((source) => source?.statistic === statistic));
  return {
    evaluate(weights) {
      const values = prepared.map((statistic, s) => needed[s] ? statistic.evaluate(weights) : void 0);
      return sources.map((source) => source ? values[source.statistic][source.index] : NaN);
    }
  };
}
var RunMetrics = class {
  constructor(table, options) {
    this.table = table;
    this.options = options;
  }
  table;
  options;
  scopes = /* @__PURE__ */ new Map();
  reports = /* @__PURE__ */ new Map();
  components = /* @__PURE__ */ new Map();
  /**
   * Every scope's metrics: the pooled scope and the `named` scenarios with intervals (and their
   * resampled values kept), the other scenarios with intervals in order of first appearance until
   * MAX_INTERVAL_SCENARIOS scenarios have them, the rest point estimates only.
   */
  report(named = []) {
    const key = JSON.stringify([...new Set(named)].map((name) => name ?? null).sort());
    let report = this.reports.get(key);
    if (!report) this.reports.set(key, report = this.compute(new Set(named)));
    return report;
  }
  /** The resampled values behind the intervals of the `named` scopes (pooled: undefined) the run has. */
  samples(named) {
    const samples = { overall: dictionary(), scenarios: dictionary() };
    for (const scenario of new Set(named)) {
      const values = this.withSamples(scenario)?.samples;
      if (values === void 0) continue;
      if (scenario === void 0) samples.overall = values;
      else samples.scenarios[scenario] = values;
    }
    return samples;
  }
  /** One scope's metrics, point estimates at least (those known with intervals too); undefined for a scenario the run lacks. */
  pointEstimates(scenario) {
    if (scenario !== void 0 && !this.table.scenarios.includes(scenario)) return void 0;
    return this.metricsOf(scenario, () => scopeNamed(this.table, scenario), false, false).metrics;
  }
  /** One scope's metrics with intervals and the resampled values behind them; undefined for a scenario the run lacks. */
  withSamples(scenario) {
    if (scenario !== void 0 && !this.table.scenarios.includes(scenario)) return void 0;
    const { metrics, samples = dictionary() } = this.metricsOf(scenario, () => scopeNamed(this.table, scenario), true, true);
    return { metrics, samples };
  }
  /**
   * The components a bound test on a biased metric reads (bound-components.ts), on the same resamples
   * as the metric's interval; undefined for another metric, without resamples, or where the scope lacks it.
   */
  boundComponents(scenario, metric) {
    if (componentShape(metric) === void 0 || this.options.resamples === 0 || !this.withSamples(scenario)) return void 0;
    const key = JSON.stringify([scenario ?? null, metric]);
    if (!this.components.has(key)) {
      const scope = scopeNamed(this.table, scenario);
      const { subsetSize } = this.scopes.get(scenario);
      const bootstrap = { ...scopeBootstrap(scope, this.options), subsetSize };
      this.components.set(key, metricComponents(this.table, scope, this.options, metric, bootstrap));
    }
    return this.components.get(key);
  }
  /**
   * The scopes `report(named)` computes, as they are when computed: a worker thread's work
   * (pipeline/metrics-thread.ts), adopted by the RunMetrics of the same table and options in the main thread.
   */
  computeScopes(named) {
    const entries = [];
    this.eachScope(new Set(named), (scenario, computed) => entries.push([scenario, computed]));
    return entries;
  }
  /** Scopes computed elsewhere (computeScopes) on the same records and options: kept as if computed here. */
  adopt(entries) {
    for (const [scenario, computed] of entries) {
      if (this.scopes.has(scenario)) continue;
      const { metrics, samples, ...rest } = computed;
      this.scopes.set(scenario, {
        ...rest,
        metrics: dictionary(Object.entries(metrics)),
        ...samples ? { samples: dictionary(Object.entries(samples)) } : {}
      });
    }
  }
  compute(named) {
    const report = { overall: dictionary(), scenarios: dictionary() };
    let withoutIntervals = 0;
    this.eachScope(named, (scenario, computed) => {
      if (scenario === void 0) {
        report.overall = computed.metrics;
      } else {
        if (!computed.intervals && this.options.resamples > 0) withoutIntervals++;
        report.scenarios[scenario] = computed.metrics;
      }
    });
    return withoutIntervals > 0 ? { ...report, scenariosWithoutIntervals: withoutIntervals } : report;
  }
  /**
   * Every scope, in order, computed as the report needs it: the pooled scope and the `named` scenarios
   * with intervals (and their resampled values kept), the other scenarios with intervals in order of
   * first appearance until MAX_INTERVAL_SCENARIOS scenarios have them, the rest point estimates.
   */
  eachScope(named, onScope) {
    const [overall, ...scenarios] = scopesOf(this.table);
    onScope(
      void 0,
      this.metricsOf(void 0, () => overall, true, named.has(void 0))
    );
    let room = MAX_INTERVAL_SCENARIOS - scenarios.filter((scope) => named.has(scope.name)).length;
    for (const scope of scenarios) {
      const kept = named.has(scope.name);
      onScope(
        scope.name,
        this.metricsOf(scope.name, () => scope, kept || room-- > 0, kept)
      );
    }
  }
  /** One scope's metrics, computed unless they are known with (at least) the intervals and samples asked for. */
  metricsOf(scenario, scope, intervals, keepSamples) {
    const known = this.scopes.get(scenario);
    if (known && (known.intervals || !intervals || this.options.resamples === 0) && (known.samples || !keepSamples)) return known;
    const options = intervals ? this.options : { ...this.options, resamples: 0 };
    const computed = metricsOfScope(this.table, scope(), options, keepSamples);
    this.scopes.set(scenario, computed);
    return computed;
  }
};
function sortByRegistry(found) {
  const rank = (name) => METRICS.indexOf(lookupMetric(name));
  return found.sort((a, b) => rank(a[0]) - rank(b[0]));
}

export {
  InputError,
  UsageError,
  ConfigError,
  isBadInput,
  MAX_LINE_BYTES,
  MAX_RESPONSE_BYTES,
  MAX_NESTING_DEPTH,
  MAX_NAME_LENGTH,
  MAX_INTERVAL_SCENARIOS,
  MAX_JUDGE_SAMPLES,
  MAX_ARCHIVE_BYTES,
  MAX_ARCHIVE_ENTRIES,
  MAX_COMPRESSION_RATIO,
  RATIO_FREE_ENTRY_BYTES,
  describeBytes,
  FailureTally,
  instanceKey,
  exampleKey,
  exampleOf,
  describeKey,
  duplicateExample,
  verified,
  KIND_ORIGINAL,
  FAILED_CALL,
  UNGRADED,
  RecordTableBuilder,
  instanceKeyOf,
  instanceMatch,
  changedInstancesOf,
  OVERALL,
  scopeNamed,
  sharedScopes,
  GROUP_FAMILY,
  isAttributeFamily,
  groupKindOf,
  formatMetricName,
  parseMetricName,
  groupOf,
  SCOPE_KINDS,
  scopeOf2 as scopeOf,
  scenarioOf,
  scopeName,
  reportedScope,
  scopeLabel,
  shownScope,
  scopeSuffix,
  dictionary,
  own,
  DIMENSIONS,
  METRICS,
  lookupMetric,
  ECE_BINS,
  Random,
  deriveSeed,
  quantileSorted,
  LITTLE_BOOTSTRAP_SUBSETS,
  pairedBootstrap,
  standardDeviation,
  TOXIC,
  ScopeStatistics,
  componentShape,
  normalCdf,
  normalQuantile,
  DEFAULT_COMPUTE_OPTIONS,
  isTotal,
  subsetSizeFor,
  RunMetrics
};
//# sourceMappingURL=action-chunk-46UZ7I5P.js.map
