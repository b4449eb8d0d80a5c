import type { Provenance, ProvenanceSubject } from '../schema/provenance.js';
import { servedText } from '../schema/provenance.js';

/**
 * What differs between the two sides' provenance (src/schema/provenance.ts), a sentence each: `compare` prints them
 * under both blocks, so a comparison of the simulator with last month's model, of two seeds or two trial counts, is
 * said before any number. A field one side did not record is named as such, never taken as equal.
 */
export function provenanceDifferences(base: Provenance, cand: Provenance): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === null || v === undefined ? 'not recorded' : String(v));
  const field = (name: string, b: unknown, c: unknown) => {
    if (show(b) !== show(c)) out.push(`${name}: baseline ${show(b)}, candidate ${show(c)}`);
  };
  out.push(...subjectDifferences(base.subjects, cand.subjects));
  field('seed', base.seed, cand.seed);
  field('trials per cell', base.trials, cand.trials);
  field('design', base.design, cand.design);
  field('missing-data rule', base.missingRule, cand.missingRule);
  field('max missing fraction', base.maxMissingFraction, cand.maxMissingFraction);
  field('reading profile', base.readingProfile ?? 'default', cand.readingProfile ?? 'default');
  field('extra reasoning delimiters', base.reasoningDelimiters, cand.reasoningDelimiters);
  field('prompt profile', base.promptProfiles.join(', ') || null, cand.promptProfiles.join(', ') || null);
  field('ceilingbench version', base.packageVersion, cand.packageVersion);
  field('vitest version', base.vitestVersion, cand.vitestVersion);
  return out;
}

/** Pairs the subjects by label; with one subject a side, the two are paired whatever their labels. */
function subjectDifferences(base: readonly ProvenanceSubject[], cand: readonly ProvenanceSubject[]): string[] {
  const out: string[] = [];
  const pairs: Array<[ProvenanceSubject, ProvenanceSubject]> = [];
  if (base.length === 1 && cand.length === 1) pairs.push([base[0], cand[0]]);
  else {
    for (const b of base) {
      const c = cand.find((x) => x.label === b.label);
      if (c) pairs.push([b, c]);
      else out.push(`subject ${b.label}: only in the baseline`);
    }
    for (const c of cand)
      if (!base.some((b) => b.label === c.label)) out.push(`subject ${c.label}: only in the candidate`);
  }
  for (const [b, c] of pairs) {
    const at = b.label === c.label ? `subject ${b.label}` : 'subject';
    const diff = (name: string, x: string | null | undefined, y: string | null | undefined) => {
      if ((x ?? null) !== (y ?? null)) out.push(`${at} ${name}: baseline ${x ?? 'none'}, candidate ${y ?? 'none'}`);
    };
    diff('label', b.label, c.label);
    diff('kind', b.kind, c.kind);
    diff('requested model', b.requestedModel, c.requestedModel);
    const served = (s: ProvenanceSubject) =>
      s.servedModels
        .map((m) => m.model)
        .sort()
        .join(', ') || null;
    if (served(b) !== served(c)) out.push(`${at} served model: baseline ${servedText(b)}, candidate ${servedText(c)}`);
    diff('endpoint host', b.endpointHost, c.endpointHost);
    diff('code', b.code?.version, c.code?.version);
  }
  return out;
}

const describe = (p: Provenance, which: (s: ProvenanceSubject) => boolean) =>
  p.subjects
    .filter(which)
    .map((s) => s.label)
    .join(', ');

/**
 * The warning of the verdict line when one side's numbers come from no live model (the simulator, the oracle, a
 * replayed recording) and the other's from a live one: a real comparison of a model with itself is not that.
 */
export function offlineWarning(base: Provenance, cand: Provenance): string | null {
  const offline = (p: Provenance) => p.subjects.length > 0 && p.subjects.every((s) => s.offline);
  const live = (p: Provenance) => p.subjects.some((s) => !s.offline);
  const say = (off: Provenance, offSide: string, on: Provenance, onSide: string) =>
    `the ${offSide} comes from ${describe(off, (s) => s.offline)} (simulated or replayed: no live model), ` +
    `the ${onSide} from the live ${describe(on, (s) => !s.offline)}`;
  if (offline(base) && live(cand)) return say(base, 'baseline', cand, 'candidate');
  if (offline(cand) && live(base)) return say(cand, 'candidate', base, 'baseline');
  return null;
}
