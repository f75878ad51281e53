import { exampleKey, instanceKey } from '../records/key.js';
import { provenanceOf } from '../records/provenance.js';
import type { EvalRecord } from '../records/types.js';
import { deriveSeed } from '../stats/random.js';
import type { CompletionRequest } from './models/types.js';
import { perturb } from './scoring/perturbations.js';
import { messagesFor, type LoadedSuite } from './suite.js';

/*
 * What a suite asks: every instance of every scenario, and each perturbed variant that differs from
 * it, in a fixed order; with `samples` K > 1, each of them K times (samples 0..K-1, one after the
 * other). A shard keeps an instance, its variants and their samples together.
 */

export interface WorkItem {
  request: CompletionRequest;
  /** The record's fields known before the call: scenario, id, perturbation, groups, input, references. */
  base: EvalRecord;
  references: string[];
  choices: string[];
  scenarioIndex: number;
}

/** The most samples per example a run may ask for: `evalgate run --samples`, `evalgate merge --samples` and the action's `samples` take 1 to this. */
export const MAX_SAMPLES = 10_000;

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Which shard (1-based) an instance belongs to: a stable hash of its key. */
function shardOf(scenario: string, id: string, count: number): number {
  return (deriveSeed(0, instanceKey(scenario, id)) % count) + 1;
}

/** Each item `samples` times, sample 0..K-1; records carry `sample` only when K > 1, requests only when it is not 0. */
function repeated(items: WorkItem[], samples: number): WorkItem[] {
  if (samples === 1) return items;
  return items.flatMap((item) => {
    const { scenario, id, ...rest } = item.base;
    return Array.from({ length: samples }, (_, sample) => ({
      ...item,
      request: sample === 0 ? item.request : { ...item.request, sample },
      base: { scenario, id, sample, ...rest },
    }));
  });
}

export function workItems(loaded: LoadedSuite, shard?: Shard, samples = 1): WorkItem[] {
  return examples(loaded, shard).flatMap((items) => repeated(items, samples));
}

/** Per instance, its original and its variants. */
function examples(loaded: LoadedSuite, shard?: Shard): WorkItem[][] {
  const instances: WorkItem[][] = [];
  loaded.suite.scenarios.forEach((scenario, scenarioIndex) => {
    const settings = { ...loaded.suite.generation, ...scenario.generation };
    for (const instance of loaded.instances.get(scenario.name)!) {
      if (shard && shardOf(scenario.name, instance.id, shard.count) !== shard.index) continue;
      const base = {
        scenario: scenario.name,
        id: instance.id,
        ...(instance.groups ? { groups: instance.groups } : {}),
        ...(instance.human === undefined ? {} : { human: instance.human }),
      };
      // The instance's own fields, not its prompt or its variants' perturbed texts: every record of it carries the same.
      const provenance = { ...provenanceOf({ ...instance, input: instance.input ?? instance.messages }), suite_hash: loaded.sha256 };
      const items: WorkItem[] = [];
      instances.push(items);
      items.push({
        request: { scenario: scenario.name, id: instance.id, messages: messagesFor(scenario, instance, instance.input), settings },
        base: { ...base, input: instance.input ?? instance.messages, references: instance.references, provenance } as EvalRecord,
        references: instance.references,
        choices: instance.choices ?? [],
        scenarioIndex,
      });
      if (instance.input === undefined) continue; // chat transcripts are not perturbed
      for (const name of scenario.perturbations) {
        const variant = perturb(name, instance.id, instance.input, instance.references, instance.choices, scenario.typo_probability);
        if (!variant) continue;
        // The prompt lists the variant's own choices and references: the ones it is scored against.
        const perturbed = { ...instance, references: variant.references, choices: variant.choices };
        items.push({
          request: {
            scenario: scenario.name,
            id: instance.id,
            perturbation: name,
            messages: messagesFor(scenario, perturbed, variant.input),
            settings,
          },
          base: {
            ...base,
            perturbation: variant.perturbation,
            input: variant.input,
            references: variant.references,
            provenance,
          } as EvalRecord,
          references: variant.references,
          choices: variant.choices,
          scenarioIndex,
        });
      }
    }
  });
  return instances;
}

/** The keys of the examples (and their samples) a suite produces, in run order. */
export function exampleKeys(loaded: LoadedSuite, samples = 1): string[] {
  return workItems(loaded, undefined, samples).map(({ request }) => exampleKey(request));
}
