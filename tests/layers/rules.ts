// The layer rules of DESIGN.md and the README's Layout, as data, and the check that applies them to
// a tree's imports. Arrows run one way: entrypoints → components → platform → lib, server → lib;
// tools (scripts/, bench/) and tests share devkit/, and nothing outside tests/ imports tests/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export interface Rule {
  /** The folder whose files the rule is about (a path from the project root, with a trailing slash). */
  from: string;
  /** Folders its files may not import. */
  notFolders: string[];
  /** Packages (bare specifiers, or their prefix followed by `/`) its files may not import. */
  notPackages?: string[];
  why: string;
}

/** The extension's own APIs and Node's: what a protocol module in lib/ gets as a parameter instead. */
const PLATFORM_PACKAGES = ['wxt', '@wxt-dev', 'webextension-polyfill', 'node:', 'preact'];

export const RULES: Rule[] = [
  {
    from: 'lib/',
    notFolders: [
      'platform/',
      'entrypoints/',
      'components/',
      'server/',
      'tests/',
      'devkit/',
      'scripts/',
      'bench/',
    ],
    notPackages: PLATFORM_PACKAGES,
    why: 'lib/ is the logic every side shares: it imports no layer above it, no extension API and no Node module',
  },
  {
    from: 'platform/',
    notFolders: ['entrypoints/', 'components/', 'server/', 'tests/', 'devkit/'],
    why: 'platform/ sits under the pages: entrypoints and components use it, never the other way',
  },
  {
    from: 'components/',
    notFolders: ['entrypoints/', 'server/', 'tests/', 'devkit/'],
    why: 'components are shared by pages, so they import no page',
  },
  {
    from: 'server/',
    notFolders: ['platform/', 'entrypoints/', 'components/', 'tests/', 'devkit/'],
    why: 'the server is a product of its own: it shares lib/ with the extension and nothing else',
  },
  {
    from: 'entrypoints/',
    notFolders: ['server/', 'tests/', 'devkit/'],
    why: 'the extension ships without the server and the test code',
  },
  {
    from: 'devkit/',
    notFolders: ['tests/'],
    why: 'tools import the devkit: it may not pull tests in behind them',
  },
  {
    from: 'scripts/',
    notFolders: ['tests/'],
    why: 'nothing outside tests/ imports tests/: what tools share with tests lives in devkit/',
  },
  {
    from: 'bench/',
    notFolders: ['tests/'],
    why: 'nothing outside tests/ imports tests/: what tools share with tests lives in devkit/',
  },
];

/** A file's import specifiers: static, type-only, re-exports and dynamic `import()` with a literal. */
export function importsOf(source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map((f) => f.fileName);
}

export interface Violation {
  file: string;
  specifier: string;
  rule: Rule;
}

/**
 * Checks files against the rules. `files` maps a path from the project root to the file's imports.
 * A relative specifier is resolved against the file's folder; a bare one is a package.
 */
export function check(files: Map<string, string[]>, rules: Rule[] = RULES): Violation[] {
  const out: Violation[] = [];
  for (const [file, specifiers] of files) {
    const applying = rules.filter((r) => file.startsWith(r.from));
    for (const specifier of specifiers) {
      const relativeSpecifier = specifier.startsWith('./') || specifier.startsWith('../');
      const target = relativeSpecifier ? `${normalize(join(dirname(file), specifier))}/` : undefined;
      for (const rule of applying) {
        const bad = target
          ? rule.notFolders.some((folder) => target.startsWith(folder))
          : (rule.notPackages ?? []).some((p) =>
              p.endsWith(':') || p.endsWith('/')
                ? specifier.startsWith(p)
                : specifier === p || specifier.startsWith(`${p}/`),
            );
        if (bad) out.push({ file, specifier, rule });
      }
    }
  }
  return out;
}

const SOURCE = new Set(['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx']);
const SKIP = new Set(['node_modules', '.git', '.output', '.wxt', 'gen', 'test-results']);

/** Every source file under `root` (generated and installed folders left out), with its imports. */
export function readTree(root: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.has(extname(entry.name)) && !entry.name.endsWith('.d.ts'))
        files.set(relative(root, path), importsOf(readFileSync(path, 'utf8')));
    }
  };
  walk(root);
  return files;
}

/** The project file a relative specifier of `file` names, if the tree has it. */
function target(tree: Map<string, string[]>, file: string, specifier: string): string | undefined {
  const base = normalize(join(dirname(file), specifier.replace(/\.(ts|tsx|js|mjs)$/, '')));
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}.mjs`, base].find((c) => tree.has(c));
}

/** Groups of files under `folder` that import each other in a circle (type-only imports count). */
export function cyclesUnder(tree: Map<string, string[]>, folder: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, specifiers] of tree) {
    if (!file.startsWith(folder)) continue;
    const next = specifiers.filter((s) => s.startsWith('.')).map((s) => target(tree, file, s));
    graph.set(
      file,
      next.filter((t): t is string => t?.startsWith(folder) === true),
    );
  }
  // Tarjan's strongly connected components: any with more than one file is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}
