import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as config from '../../src/config/index.js';
import * as core from '../../src/index.js';

// The package's entry points (package.json "exports") and the names each one exports, pinned: a change to the
// public surface is a change to this list, made on purpose.
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, string | { import: string }>;
};

const SURFACE: Record<string, { file: string; names: string[] }> = {
  '.': {
    file: 'src/index.ts',
    names: [
      'Analysis',
      'AnyTaskPlugin',
      'Baseline',
      'CcbOutcome',
      'CeilingbenchConfig',
      'CeilingbenchError',
      'CeilingbenchUserConfig',
      'CellResult',
      'CollapseFit',
      'CollapseThreshold',
      'CountOutcome',
      'DefinedSubject',
      'DepthCount',
      'ERROR_CODES',
      'EXIT',
      'ErrorCode',
      'ExitCode',
      'FormatCategory',
      'GateResult',
      'GenerateOptions',
      'GradeContext',
      'KStarSummary',
      'LadderAuditContext',
      'LadderDeclaration',
      'LevelAccuracy',
      'LevelAxis',
      'ParseResult',
      'Prompt',
      'PuzzleDeclaration',
      'PuzzleOutcome',
      'PuzzleTask',
      'REASONING_CHANNELS',
      'ReasoningChannel',
      'ReasoningDelimiter',
      'Report',
      'RetentionEstimate',
      'RetentionFit',
      'SccResult',
      'SimKnobs',
      'Subject',
      'SubjectAnswer',
      'SubjectAnswerInput',
      'SubjectDefinition',
      'SubjectIdentity',
      'SubjectMessage',
      'SubjectTrial',
      'TASK_IDS',
      'TaskInstance',
      'TaskPlugin',
      'TrialOutcome',
      'TrialRecord',
      'TrialRequest',
      'TrialResponse',
      'UsageError',
      'answerSizedBudget',
      'availableTasks',
      'baselineSchema',
      'budgetPerLevel',
      'cellResultSchema',
      'clopperPearson',
      'collapseFitSchema',
      'collapseThreshold',
      'countingSim',
      'createSubject',
      'defineConfig',
      'definePuzzle',
      'defineSubject',
      'errorCodeOf',
      'estimateRetention',
      'failOutcome',
      'gateResultSchema',
      'generateCell',
      'listAnswer',
      'mcnemarExact',
      'objectAnswer',
      'parseSubjectSpec',
      'passOutcome',
      'registerTask',
      'reportSchema',
      'resolveTask',
      'retentionFitSchema',
      'runSccAssay',
      'stepwiseSim',
      'subjectFromEnv',
      'summarizeKStar',
      'tfbcRate',
      'trialRecordSchema',
      'wilson',
    ],
  },
  './vitest': {
    file: 'src/vitest/index.ts',
    names: [
      'AblationOptions',
      'CeilingbenchMeta',
      'CeilingbenchRecord',
      'CheckResult',
      'CountingCapacity',
      'RunContext',
      'SccAssayMetaRecord',
      'SccMetaRecord',
      'SweepOptions',
      'ceilingbenchMatchers',
      'cellName',
      'checkCollapseNoEarlierThan',
      'checkCountingCapacityAtLeast',
      'checkHorizonAtLeast',
      'checkRetentionAtLeast',
      'checkTfbcRateAtMost',
      'describeAblation',
      'describeSweep',
      'evaluateGates',
      'installMatchers',
      'runConfig',
      'runContext',
      'standardProjects',
      'testAgentOperation',
      'testCountingCapacity',
      'testDualTask',
      'testMotifAblation',
    ],
  },
  './plugin': {
    file: 'src/vitest/plugin.ts',
    names: ['CeilingbenchPluginOptions', 'ceilingbench', 'ceilingbenchWorkspace'],
  },
  './setup': { file: 'src/vitest/setup.ts', names: [] },
  './reporter': { file: 'reporters/reporter.ts', names: ['default'] },
  './config': {
    file: 'src/config/index.ts',
    names: [
      'CONFIG_FILES',
      'ConfigError',
      'ResolveOptions',
      'RunConfig',
      'configSchema',
      'loadConfig',
      'resolveRunConfig',
    ],
  },
};

interface Exported {
  name: string;
  /** The TSDoc tags on the export (its specifier, or the declaration it is). */
  tags: string[];
  /** The one-line doc beside the tag. */
  doc: string;
  /** `type X` in an export list: nothing at runtime. */
  typeOnly: boolean;
}

const hasExport = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isDefault = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);

function docOf(node: ts.Node): Pick<Exported, 'tags' | 'doc'> {
  const tags = ts.getJSDocTags(node);
  return {
    tags: tags.map((tag) => tag.tagName.text),
    doc: tags.map((tag) => ts.getTextOfJSDocComment(tag.comment) ?? '').join(' '),
  };
}

/** The names an entry point exports, read from its source; `export *` is a failure of its own. */
function exportsOf(file: string): { exported: Exported[]; wholesale: string[] } {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const exported: Exported[] = [];
  const wholesale: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) {
        wholesale.push(statement.getText(source));
        continue;
      }
      for (const element of clause.elements)
        exported.push({
          name: element.name.text,
          typeOnly: statement.isTypeOnly || element.isTypeOnly,
          ...docOf(element),
        });
    } else if (ts.isExportAssignment(statement)) {
      exported.push({ name: 'default', typeOnly: false, ...docOf(statement) });
    } else if (hasExport(statement)) {
      const name = isDefault(statement)
        ? 'default'
        : ts.isVariableStatement(statement)
          ? statement.declarationList.declarations.map((d) => d.name.getText(source)).join(',')
          : ((statement as ts.DeclarationStatement).name?.getText(source) ?? '?');
      const typeOnly = ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement);
      exported.push({ name, typeOnly, ...docOf(statement) });
    }
  }
  return { exported, wholesale };
}

describe('the public surface: each entry point lists its names', () => {
  it('pins every entry point of package.json', () => {
    expect(Object.keys(PACKAGE.exports).filter((key) => key !== './package.json')).toEqual(Object.keys(SURFACE));
    for (const [key, { file }] of Object.entries(SURFACE)) {
      const target = PACKAGE.exports[key];
      const built = typeof target === 'string' ? target : target.import;
      // the build mirrors the source tree under dist/ (dist/src, dist/reporters: tsconfig.build.json)
      expect(built, key).toBe(`./dist/${file.replace(/\.ts$/, '.js')}`);
    }
  });

  for (const [key, { file, names }] of Object.entries(SURFACE)) {
    it(`${key} (${file}) exports exactly its pinned names, each tagged @public or @internal with a doc`, () => {
      const { exported, wholesale } = exportsOf(file);
      expect(wholesale, 'no `export *` in an entry point').toEqual([]);
      expect(exported.map((e) => e.name).sort()).toEqual([...names].sort());
      const untagged = exported.filter(
        (e) => !(e.tags.includes('public') || e.tags.includes('internal')) || e.doc.trim() === '',
      );
      expect(untagged.map((e) => e.name)).toEqual([]);
    });
  }

  it('no name is exported from two entry points', () => {
    const homes = new Map<string, string[]>();
    for (const [key, { names }] of Object.entries(SURFACE))
      for (const name of names) if (name !== 'default') homes.set(name, [...(homes.get(name) ?? []), key]);
    expect([...homes].filter(([, keys]) => keys.length > 1)).toEqual([]);
  });

  it('the runtime exports of the plain-Node entry points are exactly their value exports', () => {
    for (const [key, module] of [
      ['.', core],
      ['./config', config],
    ] as const) {
      const values = exportsOf(SURFACE[key].file)
        .exported.filter((e) => !e.typeOnly)
        .map((e) => e.name);
      expect(Object.keys(module).sort(), key).toEqual(values.sort());
    }
  });
});
