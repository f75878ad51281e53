import { OVERALL } from './scope.js';

/*
 * Metric names and scopes as values. A per-group metric's name is written here and read back only
 * here: `worst_group_accuracy:<attr>`, `group_accuracy_gap:<attr>`, `group_accuracy:<attr>=<value>`.
 * In an attribute or a value, '%', ':' and '=' are written %25, %3A and %3D (and nothing else is
 * changed), so that any attribute and value has one name and every name one reading, while a name
 * without those characters (dialect, aae) is written as it always was (docs/record-format.md).
 */

/** The per-attribute families (the name holds the attribute) and the per-group one (attribute and value). */
export const ATTRIBUTE_FAMILIES = ['worst_group_accuracy', 'group_accuracy_gap'] as const;
export const GROUP_FAMILY = 'group_accuracy';

/** A group attribute (worst group, gap), or one of its values' group (group_accuracy). */
export interface GroupRef {
  attribute: string;
  value?: string;
}

/** A metric name's parts: the family (a plain metric's own name) and, for a per-group metric, its group. */
export interface MetricName {
  family: string;
  group?: GroupRef;
}

const ESCAPES: Record<string, string> = { '%': '%25', ':': '%3A', '=': '%3D' };
const UNESCAPES: Record<string, string> = { '%25': '%', '%3A': ':', '%3D': '=' };

const escapePart = (part: string) => part.replace(/[%:=]/g, (char) => ESCAPES[char]);

/** An escaped attribute or value as written, or undefined when it is not one (a bare ':' or '=', a '%' not of an escape). */
function unescapePart(part: string): string | undefined {
  if (/[:=]|%(?!25|3A|3D)/.test(part)) return undefined;
  return part.replace(/%25|%3A|%3D/g, (escape) => UNESCAPES[escape]);
}

export const isAttributeFamily = (family: string) => (ATTRIBUTE_FAMILIES as readonly string[]).includes(family);

/** Whether a family names a group (group_accuracy: an attribute and a value) or an attribute (worst group, gap), or neither. */
export function groupKindOf(family: string): 'value' | 'attribute' | undefined {
  if (family === GROUP_FAMILY) return 'value';
  return isAttributeFamily(family) ? 'attribute' : undefined;
}

/** The name of a metric: "accuracy", "worst_group_accuracy:dialect", "group_accuracy:region%3Aeu=a%3Db". */
export function formatMetricName({ family, group }: MetricName): string {
  if (!group) return family;
  const attribute = `${family}:${escapePart(group.attribute)}`;
  return group.value === undefined ? attribute : `${attribute}=${escapePart(group.value)}`;
}

/**
 * A metric name's parts. A name of a per-group family that is not written as formatMetricName writes it
 * gives undefined; any other name is a plain metric (one evalgate does not know may hold ':').
 */
export function parseMetricName(name: string): MetricName | undefined {
  const colon = name.indexOf(':');
  const family = colon < 0 ? name : name.slice(0, colon);
  const kind = groupKindOf(family);
  if (kind === undefined) return { family: name };
  if (colon < 0) return undefined;
  const rest = name.slice(colon + 1);
  if (kind === 'attribute') {
    const attribute = unescapePart(rest);
    return attribute === undefined ? undefined : { family, group: { attribute } };
  }
  const equals = rest.indexOf('=');
  const attribute = unescapePart(rest.slice(0, equals));
  const value = equals < 0 ? undefined : unescapePart(rest.slice(equals + 1));
  return attribute === undefined || value === undefined ? undefined : { family, group: { attribute, value } };
}

/** The group a metric name names, if it is a per-group metric's. */
export const groupOf = (name: string): GroupRef | undefined => parseMetricName(name)?.group;

/** Whether a name is a group_accuracy metric's (one group). */
export const isGroupAccuracy = (name: string): boolean => parseMetricName(name)?.family === GROUP_FAMILY;

/** A scope: every record pooled, or one scenario's (which may be called "overall" like the pooled scope). */
export const SCOPE_KINDS = ['pooled', 'scenario'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
export type ScopeRef = { kind: 'pooled' } | { kind: 'scenario'; scenario: string };

/** The scope of a check or term: its scenario, or pooled without one. */
export const scopeOf = (scenario: string | undefined): ScopeRef =>
  scenario === undefined ? { kind: 'pooled' } : { kind: 'scenario', scenario };

/** The scenario of a scope; undefined for the pooled scope. */
export const scenarioOf = (scope: ScopeRef): string | undefined => (scope.kind === 'pooled' ? undefined : scope.scenario);

/** The report's `scope` string: "overall" for the pooled scope, else the scenario's name. */
export const scopeName = (scope: ScopeRef): string => (scope.kind === 'pooled' ? OVERALL : scope.scenario);

/** A report's scope (`scope`, and `scopeKind` since it was added; before, "overall" was the pooled scope). */
export function reportedScope({ scope, scopeKind }: { scope: string; scopeKind?: ScopeKind }): ScopeRef {
  return (scopeKind ?? (scope === OVERALL ? 'pooled' : 'scenario')) === 'pooled'
    ? { kind: 'pooled' }
    : { kind: 'scenario', scenario: scope };
}

/** A scope as shown: "overall", a scenario's name, and "scenario overall" for a scenario of that name. */
export function scopeLabel(scope: ScopeRef): string {
  if (scope.kind === 'pooled') return OVERALL;
  return scope.scenario === OVERALL ? `scenario ${OVERALL}` : scope.scenario;
}

/** A report's scope as shown (scopeLabel). */
export const shownScope = (scope: { scope: string; scopeKind?: ScopeKind }): string => scopeLabel(reportedScope(scope));

/** " (scope)" after a metric's name, nothing for the pooled scope. */
export const scopeSuffix = (scope: ScopeRef): string => (scope.kind === 'pooled' ? '' : ` (${scopeLabel(scope)})`);
