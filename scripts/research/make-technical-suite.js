#!/usr/bin/env node
// Build the scarce technical suite (corpora/suite-technical/README.md) from Debian packages.
//
//   node scripts/research/make-technical-suite.js
//
// Downloads Debian packages with `apt-get download` (never installs them), extracts them with
// `dpkg-deb -x`, turns manual pages (groff), info manuals, Debian changelogs, HTML documentation
// and perl pod (pod2text) into plain-text documents, and writes everything under TECH_DIR
// (default $TMPDIR/tadpole-technical, else /tmp/tadpole-technical):
//
//   debs/                  the .deb files (skipped when already there)
//   x/PKG/                 each package extracted (skipped when x/PKG/.done exists)
//   sources/NAME.jsonl.gz  background sources, {"text", "pkg", ...} per document
//   domains/D-unwrapped.jsonl.gz, D-wrapped.jsonl.gz, D-task.jsonl.gz
//   specs/tech-D-unwrapped.json, tech-D-wrapped.json   (absolute paths)
//
// Nothing of the text goes into the repository. Idempotent: an output file that exists is not
// rebuilt (FORCE=1 rebuilds the text files, not the downloads). Needs apt-get, dpkg-deb, groff,
// pod2text and zcat; only Node's standard library.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import { join, basename, relative } from 'node:path';
import { cpus } from 'node:os';

const TECH_DIR = process.env.TECH_DIR || join(process.env.TMPDIR || '/tmp', 'tadpole-technical');
const FORCE = process.env.FORCE === '1';
const DEBS = join(TECH_DIR, 'debs');
const X = join(TECH_DIR, 'x');
const SRC = join(TECH_DIR, 'sources');
const DOM = join(TECH_DIR, 'domains');
const SPECS = join(TECH_DIR, 'specs');
for (const d of [DEBS, X, SRC, DOM, SPECS]) mkdirSync(d, { recursive: true });

const log = (...a) => console.error(...a);

// ---------------------------------------------------------------------------------------------
// Packages

/** Packages whose manual pages make the `man` background (perl-doc's are its pod, read as pod). */
const MAN_PKGS = [
  'manpages', 'manpages-dev', 'coreutils', 'findutils', 'gawk', 'make', 'grep', 'sed', 'tar', 'diffutils', 'gzip',
  'util-linux', 'procps', 'openssh-client', 'curl', 'wget', 'rsync', 'binutils', 'gdb', 'sudo', 'man-db', 'dpkg', 'apt',
  'gpg', 'tmux', 'screen', 'zsh-common', 'fish-common', 'less', 'cpio', 'patch', 'm4', 'autoconf', 'automake', 'libtool',
  'bison', 'flex', 'gettext', 'mercurial-common', 'subversion', 'fossil', 'darcs', 'cvs', 'quilt', 'tig', 'mutt', 'lynx',
  'w3m', 'openssl', 'sqlite3', 'mariadb-client', 'nano', 'texinfo', 'info', 'git-man', 'git', 'bash', 'postgresql-client-15',
];
/** Packages whose info manuals make the `info` background. */
const INFO_PKGS = [
  'coreutils', 'findutils', 'gawk', 'grep', 'sed', 'diffutils', 'gzip', 'm4', 'autoconf', 'automake', 'bison', 'flex',
  'gettext', 'texinfo', 'info', 'cvs', 'screen', 'wget', 'nano', 'guile-3.0-doc', 'bash-doc',
];
const DOC_PKGS = ['git-doc', 'bash-doc', 'python3.11-doc', 'perl-doc', 'postgresql-doc-15', 'rust-doc', 'sqlite3-doc', 'gettext-doc'];
const ALL_PKGS = [...new Set([...MAN_PKGS, ...INFO_PKGS, ...DOC_PKGS])];

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

function debFor(pkg) {
  return readdirSync(DEBS).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
}

function fetchPackages() {
  const missing = ALL_PKGS.filter((p) => !debFor(p));
  if (missing.length) {
    log(`apt-get download ${missing.length} packages`);
    try {
      sh('apt-get', ['download', ...missing], { cwd: DEBS });
    } catch {
      // one missing package fails the whole call: fetch one by one
      for (const p of missing) {
        try { sh('apt-get', ['download', p], { cwd: DEBS }); } catch (e) { log(`  cannot download ${p}: ${String(e.stderr || e).split('\n')[0]}`); }
      }
    }
  }
  for (const p of ALL_PKGS) {
    const deb = debFor(p);
    if (!deb) continue;
    const dir = join(X, p);
    if (existsSync(join(dir, '.done'))) continue;
    mkdirSync(dir, { recursive: true });
    sh('dpkg-deb', ['-x', join(DEBS, deb), dir]);
    writeFileSync(join(dir, '.done'), deb + '\n');
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p); // symlinks are links to pages already read
  }
  return out;
}

function writeJsonlGz(file, records) {
  const body = records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : '');
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, gzipSync(Buffer.from(body, 'utf8'), { level: 6 }));
  renameSync(tmp, file);
}

function readJsonlGz(file) {
  return gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const bytesOf = (recs) => recs.reduce((a, r) => a + Buffer.byteLength(r.text, 'utf8'), 0);

/** Remove overstrikes (x\bx, _\bx), ANSI escapes and other control characters but \n and \t. */
function cleanTerminal(s) {
  return s
    .replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/.\x08/gu, '')
    .replace(/\x08/g, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Run `fn` over items with `n` at a time (fn returns a promise). */
async function pool(items, n, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  }));
  return out;
}

function run(cmd, args, input, env) {
  return new Promise((res) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env } });
    const chunks = [];
    p.stdout.on('data', (c) => chunks.push(c));
    p.stderr.on('data', () => {});
    p.on('close', (code) => res({ code, out: Buffer.concat(chunks).toString('utf8') }));
    p.on('error', () => res({ code: -1, out: '' }));
    if (input !== undefined) p.stdin.end(input);
  });
}

/** Seeded PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffle(arr, r) {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [arr[i], arr[j]] = [arr[j], arr[i]];
  }
  return arr;
}

/** Cut text into pieces of about `n` chars at blank lines. */
function chunk(text, n = 4000) {
  const paras = text.split(/\n\n+/);
  const out = [];
  let cur = '';
  for (const p of paras) {
    if (cur && cur.length + p.length + 2 > n) { out.push(cur); cur = ''; }
    cur = cur ? `${cur}\n\n${p}` : p;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Manual pages, info, changelogs, pod

async function buildMan(file) {
  const pages = [];
  for (const pkg of MAN_PKGS) {
    for (const f of walk(join(X, pkg, 'usr/share'))) {
      if (!/\/man\/man[1-9][^/]*\/[^/]+\.gz$/.test(f)) continue; // not translations (man/de/man1)
      pages.push({ pkg, f });
    }
  }
  log(`man: rendering ${pages.length} pages with groff`);
  const width = 78;
  const recs = await pool(pages, Math.max(2, cpus().length), async ({ pkg, f }) => {
    const src = gunzipSync(readFileSync(f)).toString('latin1');
    if (/^\.so\s/m.test(src) && src.length < 200) return null; // a link to another page
    const r = await run('groff', ['-t', '-man', '-Tutf8', '-P-c', '-P-b', '-P-u', `-rLL=${width}n`, `-rLT=${width}n`, '-rHY=0'],
      gunzipSync(readFileSync(f)), { MANWIDTH: String(width) });
    const text = cleanTerminal(r.out);
    if (text.length < 200) return null;
    return { text, pkg, page: basename(f, '.gz') };
  });
  const out = recs.filter(Boolean);
  writeJsonlGz(file, out);
}

function buildInfo(file) {
  const out = [];
  for (const pkg of INFO_PKGS) {
    const files = walk(join(X, pkg, 'usr/share/info')).filter((f) => /\.info(-\d+)?\.gz$/.test(f)).sort();
    for (const f of files) {
      const manual = basename(f).replace(/\.info(-\d+)?\.gz$/, '');
      const raw = gunzipSync(readFileSync(f)).toString('utf8');
      for (const node of raw.split('\x1f')) {
        if (/^\s*(Tag Table:|End Tag Table|Indirect:|Local Variables)/m.test(node.slice(0, 200))) continue;
        const lines = node.replace(/^\n/, '').split('\n');
        if (!lines.length || !/^File: /.test(lines[0])) continue; // the file's preamble
        const text = cleanTerminal(lines.slice(1).join('\n'));
        if (text.length < 200) continue;
        out.push({ text, pkg, manual });
      }
    }
  }
  writeJsonlGz(file, out);
}

function buildChangelogs(file) {
  const out = [];
  const seen = new Set();
  for (const pkg of ALL_PKGS) {
    for (const f of walk(join(X, pkg, 'usr/share/doc'))) {
      if (!/\/changelog[^/]*\.gz$/.test(f)) continue;
      const raw = gunzipSync(readFileSync(f)).toString('utf8');
      const key = raw.length + ':' + raw.slice(0, 2000);
      if (seen.has(key)) continue; // git and git-doc ship the same changelog
      seen.add(key);
      const debian = /changelog\.Debian/.test(f);
      const pieces = debian ? raw.split(/\n(?=\S[^\n]*\([^)]*\)[^\n]*;\s*urgency=)/) : chunk(raw, 4000);
      for (const p of pieces) {
        for (const c of p.length > 8000 ? chunk(p, 4000) : [p]) {
          const text = cleanTerminal(c);
          if (text.length >= 200) out.push({ text, pkg, file: basename(f) });
        }
      }
    }
  }
  writeJsonlGz(file, out);
}

async function buildPod(file) {
  const files = walk(join(X, 'perl-doc', 'usr/share/perl')).filter((f) => f.endsWith('.pod')).sort();
  const recs = await pool(files, Math.max(2, cpus().length), async (f) => {
    const r = await run('pod2text', [f]);
    const text = cleanTerminal(r.out);
    return text.length >= 200 ? { text, pkg: 'perl-doc', page: basename(f, '.pod') } : null;
  });
  writeJsonlGz(file, recs.filter(Boolean));
}

// ---------------------------------------------------------------------------------------------
// HTML to paragraphs

const ENTITIES = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ', mdash: '—', ndash: '–',
  hellip: '…', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', sbquo: '‚', bdquo: '„', laquo: '«', raquo: '»', copy: '©',
  reg: '®', trade: '™', times: '×', divide: '÷', minus: '−', plusmn: '±', deg: '°', para: '¶', sect: '§', middot: '·',
  bull: '•', larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒', le: '≤', ge: '≥', ne: '≠',
  shy: '', zwsp: '', hyphen: '‐', dagger: '†', Dagger: '‡', micro: 'µ', euro: '€', pound: '£', yen: '¥', cent: '¢',
  frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', infin: '∞', lambda: 'λ', pi: 'π', alpha: 'α', beta: 'β',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', aacute: 'á',
  agrave: 'à', oacute: 'ó', iacute: 'í', uacute: 'ú', ccedil: 'ç', ntilde: 'ñ', aring: 'å', oslash: 'ø', check: '✓',
  lowast: '∗', prime: '′', sdot: '⋅', isin: '∈', forall: '∀', exist: '∃', and: '∧', or: '∨', not: '¬', sum: '∑',
};
function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);?/g, (m, e) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      try { return cp === 160 ? ' ' : String.fromCodePoint(cp); } catch { return ''; }
    }
    return ENTITIES[e] ?? m;
  });
}

const BLOCK = new Set(['p', 'li', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'td', 'th', 'tr', 'table', 'blockquote',
  'section', 'dl', 'ul', 'ol', 'figure', 'figcaption', 'caption', 'hr', 'tbody', 'thead', 'article', 'main', 'body', 'br-block', 'title']);
const SKIP_TAGS = new Set(['script', 'style', 'nav', 'header', 'footer', 'head', 'noscript', 'button', 'svg', 'form', 'iframe', 'template', 'select', 'title']);
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr', 'param']);
/** class / id / role values that mark page chrome in Sphinx, DocBook, asciidoc, mdbook, texinfo and sqlite pages. */
const CHROME = /(^|[\s_-])(sphinxsidebar|sphinxsidebarwrapper|related|footer|header|navheader|navfooter|navigation|nav-panel|nav-chapters|nav-wrapper|nav-wide-wrapper|sidebar|sidebar-scrollbox|menu-bar|menu-bar-hover-placeholder|searchbar|search-wrapper|headerlink|toc|toc-wrap|contents|shortcontents|printindex|index-cp|index-fn|index-vr|index-rw|menu|nosearch|mobile-nav|breadcrumbs|copyright|titlepage-nav|clearer|highlight-sticky|hide-boring|fa|buttons|theme-popup|search|searchbox|skip-link)($|[\s_-])/i;

function isChrome(tag, attrs) {
  if (SKIP_TAGS.has(tag)) return true;
  if (tag === 'html' || tag === 'body' || tag === 'main') return false;
  if (tag === 'a') return /\bclass\s*=\s*["']?[^"'>]*headerlink/i.test(attrs); // mdbook heading anchors are class="header"
  const m = attrs.match(/\b(?:class|id|role)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi);
  if (!m) return false;
  for (const a of m) {
    const v = a.replace(/^[^=]*=\s*["']?/, '').replace(/["']$/, '');
    if (/^(class|id)\s*=/i.test(a) && v.split(/\s+/).some((c) => CHROME.test(c))) return true;
    if (/^role/i.test(a) && /navigation|search/i.test(v)) return true;
  }
  return false;
}

/**
 * HTML page → paragraphs [{ text, pre, heading }]: chrome dropped, one paragraph per block,
 * inline whitespace collapsed outside <pre>, entities decoded.
 */
function htmlParagraphs(html) {
  const paras = [];
  let buf = '';
  let pre = 0;
  let preBuf = '';
  let headingLevel = 0;
  let skipTag = null;
  let skipDepth = 0;
  const flush = () => {
    const t = decodeEntities(buf).replace(/\s+/g, ' ').trim();
    buf = '';
    if (t && !/^[¶#§\s]*$/.test(t)) paras.push({ text: t, pre: false, heading: headingLevel > 0 });
  };
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<!?[^>]*>|[^<]+|</g;
  html = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '');
  let m;
  while ((m = re.exec(html))) {
    const tok = m[0];
    if (tok[0] !== '<' || tok === '<') {
      if (skipTag) continue;
      if (pre) preBuf += tok; else buf += tok;
      continue;
    }
    if (tok.startsWith('<!')) continue;
    const t = tok.match(/^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>$/);
    if (!t) continue;
    const closing = t[1] === '/';
    const tag = t[2].toLowerCase();
    const attrs = t[3];
    if (skipTag) {
      if (tag === skipTag && !VOID.has(tag) && !attrs.endsWith('/')) skipDepth += closing ? -1 : 1;
      if (skipDepth <= 0) skipTag = null;
      continue;
    }
    if (!closing && !VOID.has(tag) && !attrs.trim().endsWith('/') && isChrome(tag, attrs)) {
      skipTag = tag;
      skipDepth = 1;
      continue;
    }
    if (tag === 'pre') {
      if (!closing) { flush(); pre++; preBuf = ''; } else if (pre) {
        pre--;
        if (!pre) {
          const p = decodeEntities(preBuf).replace(/\r/g, '').replace(/^\n+|\s+$/g, '');
          if (p.trim()) paras.push({ text: p, pre: true, heading: false });
          preBuf = '';
        }
      }
      continue;
    }
    if (pre) {
      if (tag === 'br') preBuf += '\n';
      continue;
    }
    if (/^h[1-6]$/.test(tag)) {
      flush();
      headingLevel = closing ? 0 : Number(tag[1]);
      if (!closing) paras.push({ mark: Number(tag[1]) });
      continue;
    }
    if (BLOCK.has(tag)) { flush(); continue; }
    if (tag === 'br') { buf += ' '; continue; }
    if (tag === 'img') {
      const alt = attrs.match(/\balt\s*=\s*"([^"]*)"/i);
      if (alt && alt[1] && /\w{3}/.test(alt[1]) && !/logo|icon/i.test(alt[1])) buf += ` ${alt[1]} `;
      continue;
    }
  }
  flush();
  // headings become paragraphs of their own; marks tell where they start (for splitting into pages)
  return paras;
}

/** Paragraphs → pages: one per file, or (split) one per heading of level ≤ splitLevel. */
function pagesOf(paras, name, splitLevel = 0) {
  const pages = [];
  let cur = { name, paras: [] };
  let n = 0;
  for (const p of paras) {
    if (p.mark !== undefined) {
      if (splitLevel && p.mark <= splitLevel && cur.paras.length) { pages.push(cur); cur = { name: `${name}#${++n}`, paras: [] }; }
      continue;
    }
    cur.paras.push(p);
  }
  if (cur.paras.length) pages.push(cur);
  return pages;
}

/** Drop trailing/leading boilerplate lines that survive chrome removal. */
const BOILER = /^(Jump to:|(\S{1,2} )+\S{1,2}|Previous topic|Next topic|This Page|Report a Bug|Show Source|Navigation|Table of Contents|Quick search|Theme|Auto|Light|Dark|Prev|Next|Up|Home|Contents|Index)$/;

function htmlPages(files, root, { splitLevel = 0 } = {}) {
  const pages = [];
  for (const f of files) {
    const html = readFileSync(f, 'utf8');
    const paras = htmlParagraphs(html).filter((p) => p.mark !== undefined || !BOILER.test(p.text));
    for (const pg of pagesOf(paras, relative(root, f), splitLevel)) {
      if (pg.paras.filter((p) => !p.heading).reduce((a, p) => a + p.text.length, 0) >= 200) pages.push(pg);
    }
  }
  return pages;
}

/** Wrap one paragraph at `width` columns (greedy; words longer than the width stay whole). */
function wrap(text, width = 72) {
  const lines = [];
  let cur = '';
  for (const w of text.split(' ')) {
    if (!w) continue;
    if (cur && cur.length + 1 + w.length > width) { lines.push(cur); cur = w; } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines.join('\n');
}

const pageText = (pg, wrapped) => pg.paras.map((p) => (wrapped && !p.pre ? wrap(p.text, 72) : p.text)).join('\n\n');

/** Every page of an HTML collection as documents (unwrapped), for a background source. */
function htmlSource(file, files, root, pkg, opts) {
  const pages = htmlPages(files, root, opts);
  writeJsonlGz(file, pages.map((pg) => ({ text: pageText(pg, false), pkg, page: pg.name })));
}

// ---------------------------------------------------------------------------------------------
// HTML collections

const PY = join(X, 'python3.11-doc/usr/share/doc/python3.11/html');
const PG = join(X, 'postgresql-doc-15/usr/share/doc/postgresql-doc-15/html');
const GITD = join(X, 'git-doc/usr/share/doc/git-doc');
const BASHD = join(X, 'bash-doc/usr/share/doc/bash');
const RUST = join(X, 'rust-doc/usr/share/doc/rust-doc/html');
const SQLITE = join(X, 'sqlite3-doc/usr/share/doc/sqlite3');

const htmlIn = (dir, ok = () => true) => walk(dir).filter((f) => f.endsWith('.html') && ok(relative(dir, f))).sort();

const COLLECTIONS = {
  python: () => ({
    files: htmlIn(PY, (r) => !/^(_sources|_static|_images)\//.test(r) && !/^(genindex.*|py-modindex|search|contents|copyright|license|bugs|download|about|index)\.html$/.test(r)
      && !/^whatsnew\/changelog\.html$/.test(r)),
    root: PY, pkg: 'python3.11-doc',
  }),
  postgres: () => ({
    files: htmlIn(PG, (r) => !/^(bookindex|release|release-.*|index|legalnotice)\.html$/.test(r)),
    root: PG, pkg: 'postgresql-doc-15',
  }),
  git: () => ({
    files: htmlIn(GITD, (r) => !/^(index|git-rev-list-description)\.html$/.test(r)),
    root: GITD, pkg: 'git-doc',
  }),
  bash: () => ({ files: [join(BASHD, 'bashref.html')], root: BASHD, pkg: 'bash-doc', splitLevel: 4 }),
};

// ---------------------------------------------------------------------------------------------
// Domains: held-out pages → task, the rest → unwrapped and wrapped mix sources

const TASK_PARAS = 450;

function buildDomain(name) {
  const files = { un: join(DOM, `${name}-unwrapped.jsonl.gz`), wr: join(DOM, `${name}-wrapped.jsonl.gz`), task: join(DOM, `${name}-task.jsonl.gz`) };
  if (!FORCE && Object.values(files).every(existsSync)) return files;
  const c = COLLECTIONS[name]();
  const pages = htmlPages(c.files, c.root, { splitLevel: c.splitLevel ?? 0 });
  const eligible = (pg) => pg.paras.filter((p) => !p.pre && !p.heading && p.text.length >= 40 && p.text.split(' ').length >= 6).length;
  // every k-th page is held out; the largest k (≤ 10) that leaves ≥ 2× the task in held-out pages
  let k = 10;
  for (; k > 2; k--) {
    const n = pages.reduce((a, pg, i) => a + (i % k === 0 ? eligible(pg) : 0), 0);
    if (n >= 2 * TASK_PARAS) break;
  }
  const held = pages.filter((_, i) => i % k === 0);
  const rest = pages.filter((_, i) => i % k !== 0);
  const cands = [];
  held.forEach((pg, i) => pg.paras.forEach((p, j) => {
    if (!p.pre && !p.heading && p.text.length >= 40 && p.text.split(' ').length >= 6) cands.push({ i, j, text: p.text });
  }));
  const seen = new Set();
  const picked = shuffle(cands, rng(42)).filter((c) => !seen.has(c.text) && seen.add(c.text)).slice(0, TASK_PARAS)
    .sort((a, b) => a.i - b.i || a.j - b.j);
  writeJsonlGz(files.task, picked.map((p) => ({ text: p.text, page: held[p.i].name })));
  writeJsonlGz(files.un, rest.map((pg) => ({ text: pageText(pg, false), pkg: c.pkg, page: pg.name })));
  writeJsonlGz(files.wr, rest.map((pg) => ({ text: pageText(pg, true), pkg: c.pkg, page: pg.name })));
  log(`${name}: ${pages.length} pages, every ${k}th held out (${held.length} pages, ${cands.length} task-like paragraphs), task ${picked.length} paragraphs`);
  return files;
}

// ---------------------------------------------------------------------------------------------
// Mixes

/** Packages whose text is the domain's own (the same manual in another form): never background. */
const OWN = {
  python: ['python3.11-doc'],
  postgres: ['postgresql-doc-15', 'postgresql-client-15'],
  git: ['git-doc', 'git', 'git-man'],
  bash: ['bash-doc', 'bash'],
};

/**
 * Each mix: the domain's share of the bytes, its target size, and its background sources with
 * relative weights (the rest of the bytes split by weight; shrunk where a source has too little).
 */
const MIXES = [
  {
    name: 'python', label: 'python-doc', share: 0.02, mixBytes: 30e6,
    what: 'Python 3.11 documentation (library, reference, tutorial, HOWTOs, C API)',
    background: [
      { source: 'man', label: 'man', weight: 0.38 },
      { source: 'changelog', label: 'changelog', weight: 0.25 },
      { source: 'perl-pod', label: 'perl-doc', weight: 0.28 },
      { source: 'rust-doc', label: 'rust-doc', weight: 0.09 },
    ],
  },
  {
    name: 'git', label: 'git-doc', share: 0.03, mixBytes: 26e6,
    what: 'git documentation (git-doc HTML: command pages, user manual, howtos, technical notes)',
    background: [
      { source: 'man', label: 'man', weight: 0.65 },
      { source: 'info', label: 'info', weight: 0.35 },
    ],
  },
  {
    name: 'bash', label: 'bash-doc', share: 0.01, mixBytes: 22e6,
    what: 'the Bash Reference Manual (bash-doc bashref.html, split at its sections)',
    background: [
      { source: 'man', label: 'man', weight: 0.45 },
      { source: 'changelog', label: 'changelog', weight: 0.25 },
      { source: 'perl-pod', label: 'perl-doc', weight: 0.3 },
    ],
  },
  {
    name: 'postgres', label: 'postgres-doc', share: 0.04, mixBytes: 28e6,
    what: 'the PostgreSQL 15 manual (postgresql-doc-15 HTML, release notes left out)',
    background: [
      { source: 'sqlite-doc', label: 'sqlite-doc', weight: 0.25 },
      { source: 'python-doc', label: 'python-doc', weight: 0.3 },
      { source: 'man', label: 'man', weight: 0.3 },
      { source: 'info', label: 'info', weight: 0.15 },
    ],
  },
];

const SOURCE_FILES = {};

async function buildSources() {
  const build = async (name, fn) => {
    const file = join(SRC, `${name}.jsonl.gz`);
    if (FORCE || !existsSync(file)) { log(`building ${name}`); await fn(file); }
    SOURCE_FILES[name] = file;
  };
  await build('man', buildMan);
  await build('info', buildInfo);
  await build('changelog', buildChangelogs);
  await build('perl-pod', buildPod);
  await build('rust-doc', (f) => htmlSource(f,
    ['book', 'reference', 'rust-by-example', 'nomicon', 'edition-guide', 'rustc', 'cargo', 'rustdoc']
      .flatMap((d) => htmlIn(join(RUST, d), (r) => !/(^|\/)(print|toc|404|index)\.html$/.test(r))),
    RUST, 'rust-doc'));
  await build('sqlite-doc', (f) => htmlSource(f,
    htmlIn(SQLITE, (r) => !/^(releaselog|syntax|images)\//.test(r) && !/^(changes|chronology|index|docs|sitemap|keyword_index|toc)\.html$/.test(r)),
    SQLITE, 'sqlite3-doc'));
  // the Python docs as a background (postgres mix): the python domain's non-held-out pages
  SOURCE_FILES['python-doc'] = buildDomain('python').un;
}

function writeSpecs() {
  const rows = [];
  const avail = {};
  const availFor = (file, notIn) => {
    const key = file + '|' + notIn.join(',');
    if (!(key in avail)) avail[key] = bytesOf(readJsonlGz(file).filter((r) => !notIn.includes(String(r.pkg))));
    return avail[key];
  };
  for (const mx of MIXES) {
    const dom = buildDomain(mx.name);
    const own = OWN[mx.name];
    const wsum = mx.background.reduce((a, b) => a + b.weight, 0);
    // the mix size: the target, unless a source (or the domain) has less than its share of it
    let total = mx.mixBytes;
    const domBytes = bytesOf(readJsonlGz(dom.un));
    total = Math.min(total, (0.95 * domBytes) / mx.share);
    for (const b of mx.background) {
      const share = ((1 - mx.share) * b.weight) / wsum;
      total = Math.min(total, (0.95 * availFor(SOURCE_FILES[b.source], own)) / share);
    }
    total = Math.floor(total / 1e5) * 1e5;
    for (const layout of ['unwrapped', 'wrapped']) {
      const sources = [
        {
          label: mx.label, share: mx.share, files: [layout === 'wrapped' ? dom.wr : dom.un], format: 'jsonl-text', chunkChars: 4000,
          note: `${mx.what}, held-out pages left out; ${layout === 'wrapped' ? 'paragraphs hard-wrapped at 72 columns (not <pre> blocks)' : 'a paragraph per line, as the task'}.`,
        },
        ...mx.background.map((b) => ({
          label: b.label,
          share: Number((((1 - mx.share) * b.weight) / wsum).toFixed(4)),
          files: [SOURCE_FILES[b.source]], format: 'jsonl-text', chunkChars: 4000,
          ...(own.length ? { where: { field: 'pkg', notIn: own } } : {}),
          note: NOTES[b.source],
        })),
      ];
      const spec = {
        name: `suite-technical-${mx.name}-${layout}`,
        description: `Scarce technical: ${mx.what} ${(mx.share * 100).toFixed(0)}% of a ${(total / 1e6).toFixed(1)} MB mix of ${mx.background.map((b) => b.label).join(', ')}; in-domain text ${layout}; the task: ${TASK_PARAS} unwrapped paragraphs of held-out pages.`,
        mixBytes: total,
        sources,
        inDomain: mx.label,
        task: { files: [dom.task], format: 'jsonl-text', dedupe: true },
        maxTaskSentences: 3000,
        methods: [
          { name: 'contrast', title: 'tadpole (default)' },
          { name: 'random' },
          { name: 'classifier', title: 'classifier (no self-training)', options: { rounds: 0 } },
          { name: 'dsir' },
          { name: 'tfidf', title: 'tf-idf regression' },
          { name: 'fasttext', title: 'fastText (DCLM recipe)' },
          // The user who follows inspect: every --avoid the report on the kept text offers, applied.
          { name: 'contrast', title: 'tadpole + every inspect --avoid', avoidKeptGroups: { pick: 'offered' } },
        ],
        keep: 'share',
        segment: 15,
        seed: 42,
        generalSample: 20000,
      };
      const out = join(SPECS, `tech-${mx.name}-${layout}.json`);
      writeFileSync(out, JSON.stringify(spec, null, 2) + '\n');
      rows.push({ spec: basename(out), mb: (total / 1e6).toFixed(1), share: `${mx.share * 100}%`, sources: sources.map((s) => `${s.label} ${(s.share * 100).toFixed(1)}%`).join(', ') });
    }
  }
  return rows;
}

const NOTES = {
  man: 'manual pages rendered by groff at 78 columns (hard-wrapped, indented).',
  info: 'GNU info manuals, a document per node (hard-wrapped).',
  changelog: 'Debian changelogs (an entry per document) and upstream ChangeLogs (~4,000-character pieces).',
  'perl-pod': 'perl-doc pod files through pod2text (hard-wrapped).',
  'rust-doc': 'The Rust book, reference, Rust by Example, nomicon, rustc/cargo/rustdoc books (mdbook HTML, a paragraph per line).',
  'sqlite-doc': 'SQLite documentation (HTML, a paragraph per line; release log left out).',
  'python-doc': 'Python 3.11 documentation (HTML, a paragraph per line).',
};

// ---------------------------------------------------------------------------------------------

async function main() {
  if (process.env.HTML_TEST) {
    for (const p of htmlParagraphs(readFileSync(process.env.HTML_TEST, 'utf8'))) console.log(p.mark !== undefined ? `<h${p.mark}>` : `${p.pre ? '[PRE] ' : ''}${p.text}\n`);
    return;
  }
  const t0 = Date.now();
  fetchPackages();
  await buildSources();
  const rows = writeSpecs();
  console.log(`\nTECH_DIR=${TECH_DIR}\n\nsource | documents | MB`);
  const files = [...Object.entries(SOURCE_FILES).filter(([k]) => k !== 'python-doc'),
    ...readdirSync(DOM).filter((f) => f.endsWith('.jsonl.gz')).sort().map((f) => [`domains/${f.replace('.jsonl.gz', '')}`, join(DOM, f)])];
  for (const [name, f] of files) {
    const recs = readJsonlGz(f);
    console.log(`${name} | ${recs.length} | ${(bytesOf(recs) / 1e6).toFixed(2)}`);
  }
  console.log('\nspec | mix MB | in-domain | sources (share of bytes)');
  for (const r of rows) console.log(`${r.spec} | ${r.mb} | ${r.share} | ${r.sources}`);
  console.log(`\nspecs in ${SPECS}  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

main().catch((e) => { console.error(e); process.exit(1); });
