import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { stronglyConnected } from '@studybuddy/shared/strongly-connected';

/**
 * The server's import graph and data ownership, read from the source: architecture.test.ts fails on what it
 * finds wrong, and `node --import tsx src/test/import-graph.ts` prints the figures.
 */

/** Every table and the one feature (or the platform) that owns it: only the owner names it in code or SQL. */
export const TABLE_OWNERS: Record<string, string> = {
  users: 'features/auth',
  sessions: 'features/auth',
  auth_codes: 'features/auth',
  oauth_identities: 'features/auth',
  rate_limits: 'platform',
  jobs: 'platform',
  realtime_instances: 'platform',
  open_sockets: 'platform',
  profiles: 'features/profile',
  profile_courses: 'features/profile',
  connections: 'features/social',
  friend_requests: 'features/social',
  friend_request_mails: 'features/social',
  blocks: 'features/social',
  chats: 'features/chat',
  messages: 'features/chat',
  read_state: 'features/chat',
  message_reactions: 'features/chat',
  groups: 'features/groups',
  group_members: 'features/groups',
  group_invitations: 'features/groups',
  coursework_cache: 'features/lms',
  lms_refresh_counts: 'features/lms',
  lms_connections: 'features/lms',
  course_documents: 'features/documents',
  document_pages: 'features/documents',
  document_questions: 'features/documents',
  stored_files: 'features/files',
  resumable_uploads: 'features/files',
  calendar_google_tokens: 'features/calendar',
  calendar_feeds: 'features/calendar',
  feedback: 'features/feedback',
  push_subscriptions: 'features/push',
  push_settings: 'features/push',
  push_muted_groups: 'features/push',
  push_visible_tabs: 'features/push',
  reports: 'features/moderation',
  admin_grants: 'features/moderation',
  moderation_audit: 'features/moderation',
  schedule_weeks: 'features/schedule',
  schedule_imports: 'features/schedule',
  schedule_busy: 'features/schedule',
  schedule_overrides: 'features/schedule',
  study_sessions: 'features/study-sessions',
  study_session_rsvps: 'features/study-sessions',
  study_session_presence: 'features/study-sessions',
  flashcard_decks: 'features/flashcards',
  flashcards: 'features/flashcards',
  flashcard_progress: 'features/flashcards',
  flashcard_shares: 'features/flashcards',
  flashcard_settings: 'features/flashcards',
  flashcard_quizzes: 'features/flashcards',
};

export interface SourceFile {
  /** Relative to src/, with forward slashes. */
  file: string;
  text: string;
}

export interface ImportEdge {
  from: string;
  /** The imported file relative to src/ (relative specifiers only). */
  to: string;
  /** Named bindings imported (values and types). */
  names: string[];
  typeOnly: boolean;
}

/** Test code and test support: seeds any table and is not part of the running server. */
export function isTestSupport(file: string): boolean {
  return (
    /\.test\.ts$/.test(file) ||
    /(^|\/)test\//.test(file) ||
    /test-helpers\.ts$|\.test-kit\.ts$|\.fixture\.ts$|-test-[\w-]+\.ts$|\.suite\.ts$/.test(file) ||
    /(^|\/)(crash-child|ws-test-client)\.ts$/.test(file)
  );
}

/** The folder a file belongs to: `features/<name>`, `platform`, `db`, `demo`, `cli`, or a root file's own name. */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  if (parts.length > 1) return parts[0]!;
  return parts[0]!.replace(/\.ts$/, '');
}

export const isFeature = (unit: string) => unit.startsWith('features/');

export function readSources(srcDir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'migrations' && entry.name !== 'node_modules') walk(full);
      } else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push({ file: path.relative(srcDir, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(srcDir);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** Static imports, re-exports and `import('…')` of relative paths. */
export function importsOf(source: SourceFile): ImportEdge[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, names: string[], typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(source.file), specifier));
    edges.push({ from: source.file, to, names, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const names: string[] = [];
      let allTypes = !!clause?.isTypeOnly;
      if (clause?.name) {
        names.push('default');
        allTypes = allTypes && true;
      }
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) names.push((el.propertyName ?? el.name).text);
        if (!clause?.isTypeOnly && !clause?.name) allTypes = bindings.elements.every((el) => el.isTypeOnly);
        if (!bindings.elements.length) allTypes = false;
      } else if (bindings && ts.isNamespaceImport(bindings)) {
        names.push('*');
      }
      if (!clause) allTypes = false;
      add(node.moduleSpecifier.text, names, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names =
        node.exportClause && ts.isNamedExports(node.exportClause)
          ? node.exportClause.elements.map((el) => (el.propertyName ?? el.name).text)
          : ['*'];
      add(node.moduleSpecifier.text, names, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, ['*'], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** Table variables (`export const users = pgTable('users', …)`) by their SQL name, per schema module. */
export function schemaTables(sources: SourceFile[]): Map<string, { variable: string; module: string }> {
  const tables = new Map<string, { variable: string; module: string }>();
  for (const s of sources) {
    if (!s.file.startsWith('db/schema')) continue;
    for (const m of s.text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      tables.set(m[2]!, { variable: m[1]!, module: s.file });
    }
  }
  return tables;
}

/** Strongly connected groups of more than one folder (each is an import loop between folders). */
export function folderLoops(edges: { from: string; to: string }[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    graph.get(a)!.add(b);
  }
  return stronglyConnected(graph);
}

/** One cycle through the folders of a loop, each step with one import that makes it (for a failing test's message). */
export function loopPath(loop: string[], edges: ImportEdge[]): string {
  const inLoop = new Set(loop);
  const example = new Map<string, ImportEdge>();
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [a, b] = [unitOf(e.from), unitOf(e.to)];
    if (a === b || !inLoop.has(a) || !inLoop.has(b)) continue;
    if (!example.has(`${a}|${b}`)) {
      example.set(`${a}|${b}`, e);
      next.set(a, [...(next.get(a) ?? []), b]);
    }
  }
  // Breadth-first from the first folder back to itself: the shortest cycle through it.
  const start = loop[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const a = queue.shift()!;
    for (const b of next.get(a) ?? []) {
      if (b === start) {
        const path = [a];
        while (path[0] !== start) path.unshift(from.get(path[0]!)!);
        path.push(start);
        return path
          .slice(1)
          .map((b2, i) => example.get(`${path[i]}|${b2}`)!)
          .map((e) => `${e.from} -> ${e.to}`)
          .join('\n');
      }
      if (!from.has(b)) {
        from.set(b, a);
        queue.push(b);
      }
    }
  }
  return loop.join(' -> ');
}

export interface Figures {
  crossFeatureImports: ImportEdge[];
  foreignRepositoryImports: ImportEdge[];
  foreignSchemaImports: { edge: ImportEdge; tables: string[] }[];
  /** Raw SQL in a feature that names a table another owner owns. */
  foreignTablesInSql: { file: string; table: string }[];
  platformImportsFeatures: ImportEdge[];
  loops: string[][];
  unknownAsDb: { file: string; count: number }[];
  sqlOutsideRepositories: string[];
  /** Every import between production files. */
  edges: ImportEdge[];
}

const SQL_TABLE_REF = /\b(?:from|join|into|update|table)\s+"?([a-z_]+)"?/gi;

/** Text inside string and template literals (where raw SQL lives). */
function literalsOf(source: SourceFile): string[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      out.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ? '));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Does the file run queries itself (builds SQL, or calls the database's query methods)? */
export function runsSql(source: SourceFile): boolean {
  const valueImport = (from: RegExp) =>
    importsOrRequires(source).some((i) => from.test(i.specifier) && !i.typeOnly && i.names.length > 0);
  if (valueImport(/^drizzle-orm$/)) return true;
  if (valueImport(/db\/schema(\.ts|\/)/)) return true;
  return /\b(?:db|tx|ctx\.db|database\.db)\s*\.\s*(?:select|selectDistinct|insert|update|delete|execute|transaction)\s*\(/.test(
    source.text,
  );
}

function importsOrRequires(source: SourceFile): { specifier: string; typeOnly: boolean; names: string[] }[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022, true);
  const out: { specifier: string; typeOnly: boolean; names: string[] }[] = [];
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const clause = st.importClause;
    const bindings = clause?.namedBindings;
    const names =
      bindings && ts.isNamedImports(bindings)
        ? bindings.elements.filter((el) => !el.isTypeOnly).map((el) => el.name.text)
        : bindings
          ? ['*']
          : [];
    if (clause?.name) names.push('default');
    out.push({ specifier: st.moduleSpecifier.text, typeOnly: !!clause?.isTypeOnly, names });
  }
  return out;
}

/** The figures issue 15 asks for, over the production files (tests and test support excluded). */
export function measure(srcDir: string): Figures {
  const all = readSources(srcDir);
  const sources = all.filter((s) => !isTestSupport(s.file));
  const edges = sources.flatMap(importsOf).filter((e) => !isTestSupport(e.to));
  const tables = schemaTables(all);
  const ownerOfVariable = new Map<string, string>();
  for (const [name, t] of tables) ownerOfVariable.set(t.variable, TABLE_OWNERS[name] ?? '?');

  const crossFeatureImports = edges.filter(
    (e) => isFeature(unitOf(e.from)) && isFeature(unitOf(e.to)) && unitOf(e.from) !== unitOf(e.to),
  );
  const foreignRepositoryImports = crossFeatureImports.filter((e) => /\.repository\.ts$/.test(e.to));
  const foreignSchemaImports = edges
    .filter((e) => isFeature(unitOf(e.from)) && /^db\/schema(\.ts|\/)/.test(e.to))
    .map((edge) => ({
      edge,
      tables: edge.names.filter((n) => {
        const owner = ownerOfVariable.get(n);
        return owner !== undefined && owner !== unitOf(edge.from);
      }),
    }))
    .filter((x) => x.tables.length > 0);
  const foreignTablesInSql: { file: string; table: string }[] = [];
  for (const s of sources) {
    const unit = unitOf(s.file);
    if (!isFeature(unit)) continue;
    const seen = new Set<string>();
    for (const lit of literalsOf(s)) {
      for (const m of lit.matchAll(SQL_TABLE_REF)) {
        const table = m[1]!.toLowerCase();
        const owner = TABLE_OWNERS[table];
        if (owner && owner !== unit && !seen.has(table)) {
          seen.add(table);
          foreignTablesInSql.push({ file: s.file, table });
        }
      }
    }
  }
  const unknownAsDb = sources
    .map((s) => ({ file: s.file, count: (s.text.match(/as unknown as (?:Db|typeof ctx\.db)\b/g) ?? []).length }))
    .filter((x) => x.count > 0);
  const sqlOutsideRepositories = sources
    .filter((s) => isFeature(unitOf(s.file)) && !/\.repository\.ts$/.test(s.file) && runsSql(s))
    .map((s) => s.file);
  return {
    crossFeatureImports,
    foreignRepositoryImports,
    foreignSchemaImports,
    foreignTablesInSql,
    platformImportsFeatures: edges.filter((e) => unitOf(e.from) === 'platform' && isFeature(unitOf(e.to))),
    loops: folderLoops(edges),
    unknownAsDb,
    sqlOutsideRepositories,
    edges,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const srcDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const f = measure(srcDir);
  const pairs = new Set(f.crossFeatureImports.map((e) => `${unitOf(e.from)} -> ${unitOf(e.to)}`));
  console.log(`cross-feature imports: ${f.crossFeatureImports.length} (${pairs.size} feature pairs)`);
  for (const p of [...pairs].sort()) console.log(`  ${p}`);
  console.log(`imports of another feature's repository: ${f.foreignRepositoryImports.length}`);
  for (const e of f.foreignRepositoryImports) console.log(`  ${e.from} -> ${e.to}`);
  const schemaCount = f.foreignSchemaImports.reduce((n, x) => n + x.tables.length, 0);
  console.log(`imports of another owner's table: ${schemaCount} in ${f.foreignSchemaImports.length} files`);
  for (const x of f.foreignSchemaImports) console.log(`  ${x.edge.from}: ${x.tables.join(', ')}`);
  console.log(`raw SQL naming another owner's table: ${f.foreignTablesInSql.length}`);
  for (const x of f.foreignTablesInSql) console.log(`  ${x.file}: ${x.table}`);
  console.log(`platform -> features imports: ${f.platformImportsFeatures.length}`);
  for (const e of f.platformImportsFeatures) console.log(`  ${e.from} -> ${e.to}`);
  console.log(`folder-level loops: ${f.loops.length}`);
  for (const l of f.loops) {
    console.log(`  ${l.join(' <-> ')}, e.g.:`);
    for (const line of loopPath(l, f.edges).split('\n')) console.log(`    ${line}`);
  }
  const casts = f.unknownAsDb.reduce((n, x) => n + x.count, 0);
  console.log(`'as unknown as Db': ${casts}`);
  for (const x of f.unknownAsDb) console.log(`  ${x.file}: ${x.count}`);
  console.log(`feature files with SQL outside repositories: ${f.sqlOutsideRepositories.length}`);
  for (const x of f.sqlOutsideRepositories) console.log(`  ${x}`);
}
