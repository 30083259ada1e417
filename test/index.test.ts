import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { builtinMix, builtinTaskSentences } from './helpers/builtin.js';
import { ROOT, tempDir } from './helpers/cli.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

describe('library API (the README example)', () => {
  it('fit + runFilter through the public entry point keeps the exact share', async () => {
    const mix = builtinMix(30);
    const corpus = join(tmp.dir, 'corpus.jsonl');
    writeFileSync(corpus, mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const reader = { format: 'auto' as const, textField: 'text', docPerLine: false, strict: false };
    // As in the README: the sample in whole segments, so the default self-trains by them.
    const sample = await api.sampleSentences([corpus], reader, { size: 2000, seed: 0 });
    const model = await api.fitModel({ method: 'contrast', task: builtinTaskSentences(600), general: sample.sentences, generalGroups: sample.groups, seed: 0, options: {} });
    expect((model.selector?.state.selfTraining as { moved: unknown[] }).moved).toHaveLength(4);
    const out = join(tmp.dir, 'kept.jsonl');
    const stats = await api.runFilter({ inputs: [corpus], reader, model, keep: 0.2, segment: 15, keepBy: 'bytes', sink: api.Sink.toFile(out) });
    // The cut stops nearest the asked bytes: within half its boundary segment, no bigger than its document.
    expect(Math.abs(stats.bytes.kept - 0.2 * stats.bytes.total)).toBeLessThanOrEqual(Math.max(...mix.map((d) => Buffer.byteLength(d.text))) / 2);
    const kept = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string });
    expect(kept.filter((k) => k.source === 'bio').length).toBeGreaterThan(kept.length / 2);
  });

  it('a deferred fit (no general sample) is completed by runFilter from the corpus (the README example)', async () => {
    const mix = builtinMix(30);
    const corpus = join(tmp.dir, 'corpus2.jsonl');
    writeFileSync(corpus, mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const reader = { format: 'auto' as const, textField: 'text', docPerLine: false, strict: false };
    // 1,200 of the corpus's 1,237 sentences: DSIR's background needs most of a corpus this
    // small (a 1,000-sentence sample, drawn as ~70 whole segments, kept 14 bio records of 30).
    const model = api.deferFit({ method: 'dsir', task: builtinTaskSentences(600), seed: 0, options: {}, sampleSize: 1200 });
    const out = join(tmp.dir, 'kept2.jsonl');
    const stats = await api.runFilter({ inputs: [corpus], reader, model, keep: 0.2, segment: 15, keepBy: 'sentences', sink: api.Sink.toFile(out) });
    expect(stats.completion?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(stats.completion?.sentences).toBe(1200);
    const kept = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { source: string });
    expect(kept.filter((k) => k.source === 'bio').length).toBeGreaterThan(kept.length / 2);
  });

  it('groups a kept text with groupText, as tadpole inspect does (the README example)', async () => {
    const mix = builtinMix(20);
    const corpus = join(tmp.dir, 'corpus3.jsonl');
    writeFileSync(corpus, mix.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const reader = { format: 'auto' as const, textField: 'text', docPerLine: false, strict: false };
    const sample = await api.sampleSentences([corpus], reader, { size: 3000, seed: 0 });
    const groups = api.groupText(sample.sentences, sample.groups, { groups: 4, seed: 0, reference: builtinTaskSentences(200) });
    expect(groups.map((g) => g.id)).toEqual([1, 2, 3, 4]);
    expect(groups.reduce((a, g) => a + g.sentences.length, 0)).toBe(sample.sentences.length);
    // The task (PubMedQA abstracts) lands nearest the group that holds the mix's bio abstracts.
    const bio = new Set(mix.filter((d) => d.source === 'bio').map((d) => d.text));
    const nearest = [...groups].sort((a, b) => (b.referenceShare ?? 0) - (a.referenceShare ?? 0))[0];
    const fromBio = nearest?.sentences.filter((s) => [...bio].some((t) => t.includes(s))).length ?? 0;
    expect(fromBio / (nearest?.sentences.length ?? 1)).toBeGreaterThan(0.5);
  });

  it('exports every method and detector by name', () => {
    expect(api.METHOD_NAMES).toEqual(expect.arrayContaining(['contrast', 'tadpole', 'random', 'distance', 'knn-tapt', 'moore-lewis', 'dsir', 'textgram']));
    expect(api.DETECTOR_NAMES).toEqual(expect.arrayContaining(['iforest', 'eif', 'knn', 'lof', 'pca', 'mahalanobis', 'ocsvm']));
  });
  it('exports this API and no more: a name added or dropped is a change to the package, made here on purpose', () => {
    // Research helpers (scripts/research/) and the checkout's ../shared layout are not API:
    // those scripts import dist/<path>.js directly.
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULT_DOC_CONTEXT', 'DEFAULT_KEEP_BY', 'DEFAULT_MAX_DOC_BYTES', 'DEFAULT_READER', 'DETECTOR_HELP', 'DETECTOR_NAMES', 'EXIT', 'HashEmbedder', 'Ledger', 'MAX_WRAPPED_LENGTH',
      'METHOD_NAMES', 'OFFER_MIN_SHARE', 'PhaseProgress', 'ReadCounters', 'Rng', 'SAMPLE_FULL_KEEP', 'SELF_TRAINING_DEFAULTS', 'SHARDS_ENV', 'STDIN', 'ScoreSketch', 'Sink', 'TadpoleError', 'auroc', 'autoChoiceOf',
      'averagePrecision', 'avoidShareOf', 'avoidTarget', 'checkAvoid', 'checkDeferredOptions', 'checkFilterOptions', 'checkMethodOptions', 'checkOutputCompression', 'chooseOnThread',
      'completeFromCorpus', 'completeModel', 'completesFromCorpus', 'createDetector', 'createEmbedder', 'cutStage', 'defaultEngine', 'defaultEngineWith', 'defaultWorkers', 'deferFit',
      'describeHeldOut', 'describeModel', 'describeRun', 'describeTaskShare', 'detectorFromJSON', 'emitStage', 'evaluateSpecs', 'exactCut', 'expandInputs', 'explainFit', 'fileSha256', 'fitModel', 'fitModelFile', 'fitStep',
      'formatRankTable', 'formatSuite', 'formatTable', 'groupText', 'hubEndpoint', 'inspectText', 'isKept', 'listCachedModels', 'listModelCache', 'loadSpec', 'measuresAside', 'methodHelp', 'methodOwners', 'modelsRoot',
      'needsCompletion', 'offersAvoid', 'onStaleTemps', 'openScorer', 'ownOutputInputs', 'parseShard', 'pullModel', 'rankDetectors', 'rankOnTask', 'rarer', 'readCut', 'readDocuments', 'readModel', 'readSentences', 'readingProgress', 'recordedKeepBy',
      'refuseReadOnce', 'renderReport', 'resolveFormat', 'resolveInputs', 'resolveMethod', 'runDemo', 'runEval', 'runFilter', 'sampleSentences', 'sampleSentencesOn',
      'sampleSizeFor', 'scoreCorpus', 'segmentBounds', 'segmentScores', 'selectKeptInMemory', 'selectorFactory', 'selfTrains', 'shardFromLauncher', 'showModel', 'sphericalKMeans', 'splitDocuments', 'splitSentences', 'statOrUndefined',
      'summarizeDraws', 'summarizeModel', 'summarizeSuite', 'taskWords', 'toJSON', 'validateModel', 'workersFor', 'writeFileAtomic', 'writeModel', 'writeScoreRecords',
    ]);
    for (const [name, value] of Object.entries(api)) expect(value, name).toBeDefined();
  });
  it('the CLI uses the library only by names exported here: each name a command imports from outside cli/ (core/ utilities aside) is re-exported by index.ts from that very file', () => {
    // Imported from their own files, not from index.ts, so a command loads only what it uses
    // (`tadpole split` does not load eval, inspect or the run directory's modules).
    const exported = new Set<string>();
    for (const m of readFileSync(join(ROOT, 'src', 'index.ts'), 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'\.\/([^']+)'/g)) {
      for (const n of m[1]!.split(',')) if (n.trim()) exported.add(`${m[2]}: ${n.trim().replace(/^type\s+/, '')}`);
    }
    const cli = join(ROOT, 'src', 'cli');
    const used = readdirSync(cli)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        // Static imports, and dynamic ones whose names are taken at once (`const { a } = await import(...)`).
        [...readFileSync(join(cli, f), 'utf8').matchAll(/import\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+'\.\.\/([^']+)'|const\s+(\{[^}]*\})\s*=\s*await\s+import\('\.\.\/([^']+)'\)|import\('\.\.\/([^']+)'\)/g)]
          .map((m) => ({ names: m[2] ?? m[4], from: (m[3] ?? m[5] ?? m[6])! }))
          .filter((m) => !m.from.startsWith('core/'))
          .flatMap((m) => (m.names?.startsWith('{') ? m.names.slice(1, -1).split(',').filter((n) => n.trim()).map((n) => `${m.from}: ${n.trim().replace(/^type\s+/, '')}`) : [`${m.from}: ${m.names ?? 'import()'}`]))
          .map((name) => ({ f, name })),
      );
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((u) => !exported.has(u.name)).map((u) => `${u.f} imports ${u.name}`)).toEqual([]);
  });
});
