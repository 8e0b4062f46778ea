// SPDX-License-Identifier: GPL-2.0-or-later
// report.e2e.mjs — OUT/report.html in a real browser (Debian's chromium,
// driven by playwright-core with the system executable; nothing downloaded).
//
//   node web/test/report.e2e.mjs --nocprof PATH --fw FIRMWARE_DIR --src SRC
//                                [--fixtures EMU_FIXTURES_DIR] [--artifacts DIR] [--chromium PATH]
//                                [--only calls,demo,source-events,no-profile,diff,big]
//
// Runs the `calls` firmware and the pipeline demo, opens each report.html
// (and diff.html of `nocprof diff` on two runs of calls with different
// instruction costs) from file:// and checks, against values computed here from stacks.folded,
// summary.json and firmware/tests/calls_expected.h (never from the page's
// own code): no console errors; flame-graph frames and their exact cycles;
// the hover tooltip; search highlighting; callers/callees with exact counts
// in the call graph; per-line counts in the source view; the NoC mesh.
// Screenshots go to DIR (default build/test-artifacts/report-html).
// Exit 77 (ctest SKIP_RETURN_CODE) with a notice when chromium cannot be
// launched; the last line is "N passed, M failed".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['nocprof', 'fw', 'src']) if (!args[k]) { console.error(`usage: missing --${k}`); process.exit(2); }
const artifacts = resolve(args.artifacts || 'test-artifacts/report-html');
const chromiumPath = args.chromium || process.env.NOCPROF_CHROMIUM || '/usr/bin/chromium';
const SKIP = 77;

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.log(`SKIP: playwright-core is not installed (npm ci in web/): ${e.message}`);
  process.exit(SKIP);
}
if (!existsSync(chromiumPath)) {
  console.log(`SKIP: no chromium at ${chromiumPath} (Debian package chromium; scripts/setup.sh installs it)`);
  process.exit(SKIP);
}
let browser;
try {
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
} catch (e) {
  console.log(`SKIP: chromium at ${chromiumPath} cannot be launched: ${e.message.split('\n')[0]}`);
  process.exit(SKIP);
}
mkdirSync(artifacts, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'nocprof-html-'));

// ---- independent expectations ------------------------------------------------
function parseFolded(text) {
  const paths = new Map(); // "a;b;c" -> cycles with exactly that stack
  for (const line of text.split('\n')) {
    const m = /^(.*) (\d+)$/.exec(line);
    if (m) paths.set(m[1], (paths.get(m[1]) || 0) + Number(m[2]));
  }
  return paths;
}
// Inclusive cycles of a frame = sum over the stacks that start with its path.
function inclusive(paths, path) {
  let s = 0;
  for (const [p, n] of paths) if (p === path || p.startsWith(path + ';')) s += n;
  return s;
}
// Every distinct frame (path prefix) of the stacks.
function framePaths(paths, prefix) {
  const out = new Set();
  for (const p of paths.keys()) {
    if (!(p === prefix || p.startsWith(prefix + ';'))) continue;
    const f = p.split(';');
    for (let i = 1; i <= f.length; i++) out.add(f.slice(0, i).join(';'));
  }
  return out;
}
// calls_expected.h: every macro becomes a JS function of the core id k.
function loadExpected(file) {
  const defs = [];
  for (const m of readFileSync(file, 'utf8').matchAll(/^#define\s+(CALLS_\w+)(\(k\))?\s+(.+)$/gm)) {
    const expr = m[3].replace(/(\d+)u\b/g, '$1').replace(/\b(CALLS_\w+)\b(?!\s*\()/g, '$1(k)');
    defs.push(`function ${m[1]}(k) { return ${expr}; }`);
  }
  const names = defs.map((d) => /function (\w+)/.exec(d)[1]);
  return new Function(`${defs.join('\n')}\nreturn { ${names.join(', ')} };`)();
}
const fmt = (v) => new Intl.NumberFormat('en-US').format(v);

// ---- a tiny harness ---------------------------------------------------------
let passed = 0, failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e && e.stack || e).split('\n').slice(0, 6).join('\n     ')}`);
  }
}

// anyExit: the firmware's exit status is its result (the emulator
// fixtures exit with what they measured): only a missing report fails.
function runNocprof(name, argv, anyExit = false) {
  const out = join(work, name);
  try {
    // the expectations were derived under the flat cost model (docs/timing.md)
    const pin = argv.some((a) => String(a).includes('timing.model')) ? [] : ['--set', 'timing.model=flat'];
    execFileSync(args.nocprof, ['run', '-q', '-o', out, ...pin, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    if (!anyExit || !existsSync(join(out, 'report.html'))) throw new Error(`nocprof ${argv.join(' ')} failed: ${e.stderr}`);
  }
  return {
    dir: out,
    summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')),
    folded: parseFolded(existsSync(join(out, 'stacks.folded')) ? readFileSync(join(out, 'stacks.folded'), 'utf8') : ''),
  };
}

async function openReport(run) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push('network request: ' + r.url()); });
  await page.goto('file://' + join(run.dir, 'report.html'));
  await page.waitForSelector('nav.np-tabs button');
  return { page, errors };
}

async function selectView(page, sel, tab) {
  await page.selectOption('#core-select', String(sel));
  await page.click(`nav.np-tabs button[data-tab=${tab}]`);
}

// Rendered flame frames: path (names root first) and value, from the SVG's bound data.
async function renderedFrames(page) {
  await page.waitForSelector('#flame svg g.frame');
  await page.waitForTimeout(400); // transitions
  return page.$$eval('#flame svg g.frame', (gs) => gs.map((g) => {
    const d = g.__data__;
    const names = [];
    for (let n = d; n; n = n.parent) names.unshift(n.data.name);
    const rect = g.querySelector('rect');
    return { path: names.join(';'), value: d.value, fill: rect.getAttribute('fill'), width: Number(rect.getAttribute('width')) };
  }));
}

async function callerCounts(page, fn, table) {
  await page.fill('#cg-filter', '');
  await page.click(`#cg-list div.item[data-name="${fn}"]`);
  await page.waitForSelector('#cg-name');
  assert.equal(await page.textContent('#cg-name'), fn);
  return page.$$eval(`#${table} tbody tr`, (rows) => Object.fromEntries(rows.map((r) =>
    [r.dataset.name, Number(r.querySelector('td.count').textContent.replace(/,/g, ''))])));
}

// ---- the calls firmware: exact frames, callers, search, source lines ---------
async function testCalls() {
  const run = runNocprof('calls', [join(args.fw, 'calls-el.elf'), '--sample-period', '1000,997,1009']);
  const M = loadExpected(join(args.src, 'firmware', 'tests', 'calls_expected.h'));
  const { page, errors } = await openReport(run);
  const ncores = run.summary.cores.length;
  for (let k = 0; k < ncores; k++) {
    const fns = Object.fromEntries(run.summary.cores[k].functions.map((f) => [f.name, f]));
    const root = `core${k}`;
    await check(`calls core ${k}: flame frames carry the exact cycles of stacks.folded`, async () => {
      await selectView(page, k, 'flame');
      const frames = await renderedFrames(page);
      const expected = framePaths(run.folded, root);
      assert.ok(frames.length > 10, `only ${frames.length} frames`);
      for (const f of frames) {
        assert.ok(expected.has(f.path), `unexpected frame ${f.path}`);
        assert.equal(f.value, inclusive(run.folded, f.path), f.path);
      }
      const byPath = new Map(frames.map((f) => [f.path, f]));
      assert.equal(byPath.get(root).value, run.summary.cores[k].cycles, 'root = core cycles');
      for (const [path, fn] of [['_start;main', 'main'], ['_start;main;fib', 'fib'], ['_start;main;run_leaves', 'run_leaves'],
        ['_start;main;marked_loop', 'marked_loop'], ['_start;main;run_ops', 'run_ops']]) {
        const f = byPath.get(`${root};${path}`);
        assert.ok(f, `frame ${root};${path} rendered`);
        assert.equal(f.value, fns[fn].inclusive_cycles, `${path} = inclusive cycles of ${fn} in summary.json`);
      }
      const leafFrames = frames.filter((f) => f.path.endsWith(';leaf'));
      assert.deepEqual(leafFrames.map((f) => f.path.split(';').slice(-2, -1)[0]).sort(), ['caller_a', 'caller_b']);
      assert.equal(leafFrames.reduce((s, f) => s + f.value, 0), fns.leaf.inclusive_cycles, 'leaf over its two contexts');
    });
    await check(`calls core ${k}: hovering main shows its exact cycles and samples`, async () => {
      const g = page.locator('#flame svg g.frame').filter({ has: page.locator('div', { hasText: /^main$/ }) }).first();
      await g.hover();
      assert.equal(await page.locator('.d3-flame-graph-tip').count(), 1, 'one tooltip element');
      const tipText = await page.locator('.d3-flame-graph-tip').textContent();
      assert.match(tipText, new RegExp(`exact cycles: ${fmt(fns.main.inclusive_cycles)}`));
      for (const [period, n] of Object.entries(fns.main.samples))
        assert.ok(tipText.includes(`samples @${fmt(Number(period))}: ${fmt(n)}`), `samples @${period} in "${tipText}"`);
      assert.ok(tipText.includes(`${fmt(fns.main.calls)} calls`));
      await page.mouse.move(5, 5);
    });
    await check(`calls core ${k}: search highlights exactly the matching frames`, async () => {
      await page.fill('#flame-search', 'leaf');
      await page.waitForTimeout(300);
      const frames = await renderedFrames(page);
      const hl = frames.filter((f) => f.fill === '#d62ad6').map((f) => f.path).sort();
      const want = [...framePaths(run.folded, root)].filter((p) => p.split(';').pop().includes('leaf')).sort();
      assert.equal(want.length, 2, 'leaf under caller_a and caller_b');
      assert.deepEqual(hl, want);
      const sum = want.filter((p) => !want.some((q) => q !== p && p.startsWith(q + ';'))).reduce((s, p) => s + inclusive(run.folded, p), 0);
      assert.match(await page.textContent('#flame-details'), new RegExp(`${want.length} frames, ${fmt(sum)} of ${fmt(run.summary.cores[k].cycles)} cycles`));
      if (k === 0) await page.screenshot({ path: join(artifacts, 'calls-core0-flame-search.png') });
      await page.click('#flame-clear');
      const after = await renderedFrames(page);
      assert.equal(after.filter((f) => f.fill === '#d62ad6').length, 0, 'cleared');
    });
    await check(`calls core ${k}: call graph callers and callees carry the exact arc counts`, async () => {
      await selectView(page, k, 'callgraph');
      assert.deepEqual(await callerCounts(page, 'leaf', 'cg-callers'), { caller_a: M.CALLS_LEAF_FROM_A(k), caller_b: M.CALLS_LEAF_FROM_B(k) });
      assert.deepEqual(await callerCounts(page, 'fib', 'cg-callers'), { main: M.CALLS_FIB_FROM_MAIN(k), fib: M.CALLS_FIB_RECURSIVE(k) });
      assert.deepEqual(await callerCounts(page, 'is_even', 'cg-callers'), { main: M.CALLS_IS_EVEN_FROM_MAIN(k), is_odd: M.CALLS_IS_EVEN_FROM_IS_ODD(k) });
      const callees = await callerCounts(page, 'run_ops', 'cg-callees');
      for (const op of ['op_add', 'op_sub', 'op_mul', 'op_xor']) assert.equal(callees[op], M.CALLS_OP_EACH(k), op);
      await page.click('#cg-callees tr[data-name="op_add"]');
      assert.equal(await page.textContent('#cg-name'), 'op_add', 'clicking a callee follows it');
      if (k === 1) {
        await callerCounts(page, 'leaf', 'cg-callers');
        await page.screenshot({ path: join(artifacts, 'calls-core1-callgraph-leaf.png') });
      }
    });
    await check(`calls core ${k}: source view counts the LOOP-MARK line ${M.CALLS_LOOP_N(k)} times`, async () => {
      await selectView(page, k, 'source');
      await page.click('#src-list div.item[data-name="marked_loop"]');
      const row = page.locator('#src-table tr', { hasText: M.CALLS_LOOP_MARK_TEXT(k) });
      assert.equal(await row.count(), 1);
      assert.equal(Number((await row.locator('td.count').textContent()).replace(/,/g, '')), M.CALLS_LOOP_N(k));
      if (k === 0) await page.screenshot({ path: join(artifacts, 'calls-core0-source.png') });
    });
  }
  await check('calls: the metric selector switches the flame graph, the flat profile and the call graph to loads', async () => {
    // issue 22.4: every function's frames add up to its loads in summary.json
    // (events are per function, split over call paths by cycles), the root
    // is the core's loads, and the flat profile ranks by loads
    const fns = run.summary.cores[0].functions;
    const loads = Object.fromEntries(fns.map((f) => [f.name, f.loads]));
    await selectView(page, 0, 'flame');
    const before = await renderedFrames(page);
    await page.selectOption('#metric-select', 'loads');
    await page.waitForSelector('#flame svg g.frame');
    await page.waitForTimeout(400);
    // the whole hierarchy bound to the chart (frames under 1 px are not drawn)
    const selfs = await page.$$eval('#flame svg g.frame', (gs) => {
      let r = gs.map((g) => g.__data__).find((d) => d.depth === 0);
      const out = [];
      const walk = (d) => { out.push({ name: d.data.name, self: d.data.value, value: d.value, depth: d.depth }); (d.children || []).forEach(walk); };
      walk(r);
      return out;
    });
    const byName = {};
    for (const f of selfs) if (f.depth > 0) byName[f.name] = (byName[f.name] || 0) + f.self;
    const inFlame = new Set(Object.keys(byName));
    assert.ok(inFlame.has('fib') && loads.fib > 0, 'fib has loads');
    for (const name of inFlame) assert.equal(byName[name], loads[name] || 0, `${name}: its frames add up to its loads`);
    const root = selfs.find((f) => f.depth === 0);
    assert.equal(root.value, fns.filter((f) => inFlame.has(f.name)).reduce((a, f) => a + f.loads, 0), 'root = all loads');
    assert.notEqual(root.value, before.find((f) => f.path === 'core0').value, 'the widths changed from cycles');
    assert.match(await page.textContent('main .np-legend'), new RegExp(`total: ${fmt(root.value)} loads`));
    await page.screenshot({ path: join(artifacts, 'calls-core0-flame-loads.png') });
    await page.click('nav.np-tabs button[data-tab=flat]');
    const first = await page.$eval('table.np-flat tbody tr', (r) => r.dataset.name);
    const top = fns.filter((f) => f.calls || f.self_cycles || f.inclusive_cycles).sort((a, b) => b.loads - a.loads)[0];
    assert.equal(first, top.name, 'most loads first');
    const cell = await page.textContent(`table.np-flat tr[data-name="${top.name}"] td[data-key="ev-loads"]`);
    assert.equal(cell, fmt(top.loads));
    // the call graph ranks by loads and shows the function's own; its arcs
    // say they are in cycles only; the source view shows loads per line
    await page.click('nav.np-tabs button[data-tab=callgraph]');
    const listed = await page.$$eval('#cg-list div.item', (ds) => ds.map((d) => d.dataset.name));
    assert.equal(loads[listed[0]], Math.max(...listed.map((n) => loads[n] || 0)), 'most loads first');
    assert.deepEqual(listed.map((n) => loads[n] || 0), listed.map((n) => loads[n] || 0).sort((x, y) => y - x));
    await page.click('#cg-list div.item[data-name="fib"]');
    assert.equal(await page.textContent('#cg-metric'), `own loads: ${fmt(loads.fib)}`);
    assert.ok(await page.$('#cg-cycles-only'), 'call graph: arcs in cycles only');
    await page.click('nav.np-tabs button[data-tab=source]');
    assert.ok(!(await page.$('#src-cycles-only')), 'source: no cycles-only note');
    await page.click('#src-list div.item[data-name="fib"]');
    assert.match(await page.textContent('#src-head'), new RegExp(`${fmt(loads.fib)} loads on its lines · own loads: ${fmt(loads.fib)}$`));
    assert.equal((await page.$$eval('#src-table td.ev', (ts) => ts.map((t) => t.textContent))).reduce((x, t) => x + num(t), 0), loads.fib,
      'fib\'s lines add up to its loads');
    await page.screenshot({ path: join(artifacts, 'calls-core0-source-loads.png') });
    await page.selectOption('#metric-select', 'cycles');
    assert.equal(await page.locator('#src-table td.ev').count(), 0, 'cycles: no event column');
    await page.click('nav.np-tabs button[data-tab=callgraph]');
    assert.ok(!(await page.$('#cg-cycles-only')) && !(await page.$('#cg-metric')), 'cycles: no note');
  });
  await check('calls: flat profile lists exact calls and sorts by a clicked column', async () => {
    await selectView(page, 0, 'flat');
    const fibCalls = await page.textContent('table.np-flat tr[data-name="fib"] td[data-key="calls"]');
    assert.equal(fibCalls, `${M.CALLS_FIB(0)} (1+${M.CALLS_FIB_RECURSIVE(0)})`);
    await page.click('table.np-flat th[data-key="calls"]');
    const calls = await page.$$eval('table.np-flat tbody tr', (rs) => rs.map((r) => r.dataset.name));
    const want = run.summary.cores[0].functions.filter((f) => f.calls || f.self_cycles || f.inclusive_cycles)
      .sort((a, b) => b.calls - a.calls)[0].name;
    assert.equal(calls[0], want, 'most called first');
    await page.screenshot({ path: join(artifacts, 'calls-core0-flat.png') });
  });
  await check('calls: aliasing chart for the three periods', async () => {
    await selectView(page, 'chip', 'aliasing');
    assert.equal(await page.locator('svg.np-alias-chart').count(), ncores);
    await page.screenshot({ path: join(artifacts, 'calls-aliasing.png') });
  });
  await check('calls: no console errors, no network requests', async () => assert.deepEqual(errors, []));
  await page.close();
}

// ---- the Source tab under the metric selector (issue 22.4) -------------------
// annotated.txt --events: per function, {line: {column: count}} of its
// source listing (columns: instr loads stores branch condbr indbr st.* ...);
// {address: {...}} of a disassembly listing. e2e/events checks these
// columns against the real callgrind_annotate and hand counts.
function annotatedEvents(text) {
  const out = {};
  let fn = null, cols = null;
  for (const line of text.split('\n')) {
    let m = /^\*\*\* (\S+)  \[/.exec(line);
    if (m) { fn = out[m[1]] = { lines: {}, insns: {} }; continue; }
    if (/^\s+count\s+cycles\s+samples\s/.test(line)) { cols = line.trim().split(/\s+/).slice(3, -2); continue; }
    if (!fn || !cols) continue;
    m = /^\s*(?:[\d,]+|#####)\s+\d+\s+\d+((?:\s+\d+)+)\s+(\d+): /.exec(line);
    const a = m ? null : /^\s*(?:\d+|#####)\s+\d+\s+\d+((?:\s+\d+)+)\s+0x([0-9a-f]+): /.exec(line);
    if (!m && !a) continue;
    const v = Object.fromEntries((m || a)[1].trim().split(/\s+/).map((x, i) => [cols[i], Number(x)]));
    if (m) fn.lines[Number(m[2])] = v;
    else fn.insns[parseInt(a[2], 16)] = v;
  }
  return out;
}
// the page's metric -> annotated.txt's columns summed
const EV_COLS = { instructions: ['instr'], loads: ['loads'], stores: ['stores'], cond_branches: ['condbr'],
  indirect_branches: ['indbr'], stall_cycles: ['st.load', 'st.agen', 'st.mdu', 'st.fpu'],
  i1_misses: ['I1mr'], d1r_misses: ['D1mr'], d1w_misses: ['D1mw'] };
const colSum = (v, metric) => EV_COLS[metric].reduce((s, c) => s + (v[c] || 0), 0);

// The rows of the Source tab's table: line (or address), the metric's
// count and share, whether highlighted.
async function sourceRows(page) {
  return page.$$eval('#src-table tr[data-line], #src-table tr[data-addr]', (trs) => trs.map((tr) => ({
    line: tr.dataset.line ? Number(tr.dataset.line) : null, addr: tr.dataset.addr ? Number(tr.dataset.addr) : null,
    ev: tr.querySelector('td.ev') ? tr.querySelector('td.ev').textContent : null,
    share: tr.querySelector('td.share') ? tr.querySelector('td.share').textContent : null,
    src: tr.querySelector('td.src').textContent, hot: tr.classList.contains('hot') })));
}

async function testSourceEvents() {
  // calls.c under 24k (stall cycles) with --events: annotated.txt has the
  // events per line, from the same per-instruction events as the page
  const run = runNocprof('events', [join(args.fw, 'calls-el.elf'), '--events', '--set', 'timing.model=24k']);
  const ann = annotatedEvents(readFileSync(join(run.dir, 'core0', 'annotated.txt'), 'utf8'));
  const fns = Object.fromEntries(run.summary.cores[0].functions.map((f) => [f.name, f]));
  const { page, errors } = await openReport(run);
  await selectView(page, 0, 'source');
  const listed = await page.$$eval('#src-list div.item', (ds) => ds.map((d) => d.dataset.name));
  const withLines = listed.filter((n) => ann[n] && Object.keys(ann[n].lines).length);
  for (const metric of ['loads', 'stores', 'cond_branches', 'stall_cycles', 'instructions']) {
    await check(`source events: every line's ${metric} on core 0 is annotated.txt --events' (and its share, its highlight)`, async () => {
      await page.selectOption('#metric-select', metric);
      await page.waitForSelector(`#src-table[data-metric="${metric}"]`);
      assert.ok(withLines.length > 10, `${withLines.length} functions with source lines`);
      let nonzero = 0;
      for (const name of withLines) {
        await page.click(`#src-list div.item[data-name="${name}"]`);
        await page.waitForSelector(`#src-name:text-is("${name}")`);
        const rows = await sourceRows(page);
        const want = ann[name].lines;
        const total = Object.values(want).reduce((s, v) => s + colSum(v, metric), 0);
        const shown = rows.filter((r) => r.ev !== null);
        assert.deepEqual(shown.map((r) => r.line).sort((x, y) => x - y), Object.keys(want).map(Number).sort((x, y) => x - y),
          `${name}: the lines with code`);
        for (const r of shown) {
          const v = colSum(want[r.line], metric);
          nonzero += v ? 1 : 0;
          assert.equal(num(r.ev), v, `${name}:${r.line} ${metric}`);
          assert.equal(r.share, v ? `${(100 * (v / total)).toFixed(1)}%` : '', `${name}:${r.line} share`);
          assert.equal(r.hot, v > 0 && v / total >= 0.1, `${name}:${r.line} highlighted`);
        }
        if (metric !== 'stall_cycles' && metric !== 'instructions' && fns[name])
          assert.match(await page.textContent('#src-head'), new RegExp(`${fmt(total)} .* on its lines · own .*: ${fmt(fns[name][metric])}$`), name);
      }
      assert.ok(nonzero > 5, `${nonzero} lines with ${metric}`);
      if (metric === 'loads') {
        await page.click('#src-list div.item[data-name="fib"]');
        await page.screenshot({ path: join(artifacts, 'events-core0-source-loads.png') });
      }
    });
  }
  await check('source events: the chip view sums the cores\' lines (annotated.txt --events of each core)', async () => {
    const cores = run.summary.cores.map((c) => annotatedEvents(readFileSync(join(run.dir, `core${c.id}`, 'annotated.txt'), 'utf8')));
    assert.ok(cores.length > 1);
    await selectView(page, 'chip', 'source');
    for (const metric of ['loads', 'stall_cycles']) {
      await page.selectOption('#metric-select', metric);
      for (const name of ['fib', 'marked_loop', 'put_digits', 'run_ops']) {
        await page.click(`#src-list div.item[data-name="${name}"]`);
        await page.waitForSelector(`#src-name:text-is("${name}")`);
        const want = {};
        for (const a of cores) for (const [ln, v] of Object.entries(a[name] ? a[name].lines : {})) want[ln] = (want[ln] || 0) + colSum(v, metric);
        const rows = (await sourceRows(page)).filter((r) => r.ev !== null);
        assert.deepEqual(Object.fromEntries(rows.map((r) => [r.line, num(r.ev)])), want, `chip ${name} ${metric}`);
      }
    }
    await selectView(page, 0, 'source');
  });
  await check('source events: the list ranks by the metric, cycles puts the view back', async () => {
    await page.selectOption('#metric-select', 'loads');
    const items = await page.$$eval('#src-list div.item', (ds) => ds.map((d) => [d.dataset.name, d.querySelector('.n').textContent]));
    const vals = items.map((x) => num(x[1]));
    assert.deepEqual(vals, [...vals].sort((x, y) => y - x), 'most loads first');
    assert.equal(items[0][0], Object.values(fns).filter((f) => listed.includes(f.name)).sort((x, y) => y.loads - x.loads)[0].name);
    await page.selectOption('#metric-select', 'cycles');
    assert.equal(await page.locator('#src-table td.ev').count(), 0, 'cycles: no event column');
    assert.ok(await page.locator('#src-table td.share').count() > 0, 'cycles: the share column');
    assert.deepEqual(errors, []);
  });
  await page.close();
  // [cache] on: the misses per line (annotated.txt's I1mr D1mr D1mw)
  const cr = runNocprof('events-cache', [join(args.fw, 'calls-el.elf'), '--events', '--set', 'cache.enabled=1']);
  const cann = annotatedEvents(readFileSync(join(cr.dir, 'core0', 'annotated.txt'), 'utf8'));
  const c = await openReport(cr);
  await check('source events: with the cache on, every line\'s I-cache and D-cache misses are annotated.txt --events\'', async () => {
    const pg = c.page;
    await selectView(pg, 0, 'source');
    const names = (await pg.$$eval('#src-list div.item', (ds) => ds.map((d) => d.dataset.name)))
      .filter((n) => cann[n] && Object.keys(cann[n].lines).length);
    const seen = {};
    const offered = await pg.$$eval('#metric-select option', (os) => os.map((o) => o.value));
    const fns = cr.summary.cores.flatMap((k) => k.functions);
    for (const [metric, key] of [['i1_misses', 'i1'], ['d1r_misses', 'd1_read'], ['d1w_misses', 'd1_write']])
      assert.equal(offered.includes(metric), fns.some((f) => f.cache_misses && f.cache_misses[key]), `${metric} offered iff counted`);
    for (const metric of offered.filter((m) => m.endsWith('_misses'))) {
      await pg.selectOption('#metric-select', metric);
      for (const name of names) {
        await pg.click(`#src-list div.item[data-name="${name}"]`);
        await pg.waitForSelector(`#src-table[data-metric="${metric}"]`);
        await pg.waitForSelector(`#src-name:text-is("${name}")`);
        const rows = (await sourceRows(pg)).filter((r) => r.ev !== null);
        const want = Object.fromEntries(Object.entries(cann[name].lines).map(([ln, v]) => [ln, colSum(v, metric)]));
        assert.deepEqual(Object.fromEntries(rows.map((r) => [r.line, num(r.ev)])), want, `${name} ${metric}`);
        seen[metric] = (seen[metric] || 0) + Object.values(want).reduce((x, y) => x + y, 0);
      }
    }
    assert.ok(seen.i1_misses > 0 && seen.d1r_misses > 0, JSON.stringify(seen));
    // the flat profile ranks by them (summary.json's cache_misses; the
    // selector did not offer them before: it looked for "i1_misses" keys)
    await pg.selectOption('#metric-select', 'i1_misses');
    await pg.click('nav.np-tabs button[data-tab=flat]');
    const first = await pg.$eval('table.np-flat tbody tr', (r) => r.dataset.name);
    const top = cr.summary.cores[0].functions.filter((f) => f.calls || f.self_cycles || f.inclusive_cycles)
      .sort((x, y) => y.cache_misses.i1 - x.cache_misses.i1)[0];
    assert.equal(first, top.name, 'most I-cache misses first');
    assert.equal(await pg.textContent(`table.np-flat tr[data-name="${top.name}"] td[data-key="ev-i1_misses"]`), fmt(top.cache_misses.i1));
    assert.deepEqual(c.errors, []);
  });
  await c.page.close();
  if (!args.fixtures || !existsSync(join(args.fixtures, 't_load-el.elf'))) return;
  // t_load (tests/fixtures/emu, no line information: the Source tab lists
  // its disassembly): by hand, _start executes 12 loads once each (10 of
  // the .rept lines, the two SYS CYCLE_LO reads) and one store (the exit)
  const tl = runNocprof('t_load', ['--set', 'mesh.width=1', '--set', 'mesh.height=1', join(args.fixtures, 't_load-el.elf')], true);
  const o = await openReport(tl);
  await check('source events: t_load\'s disassembly under loads: 1 on each of its 12 loads (hand count), the store alone hot under stores', async () => {
    const pg = o.page;
    await selectView(pg, 0, 'source');
    await pg.selectOption('#metric-select', 'loads');
    await pg.click('#src-list div.item[data-name="_start"]');
    let rows = await sourceRows(pg);
    const loads = rows.filter((r) => num(r.ev || '0') > 0);
    assert.equal(loads.length, 12, JSON.stringify(rows.map((r) => [r.src, r.ev])));
    for (const r of loads) {
      assert.equal(r.ev, '1', r.src);
      assert.match(r.src, /^(lw|lbu|lh) /, r.src);
      assert.equal(r.share, '8.3%', r.src);
    }
    assert.equal(rows.filter((r) => /^(lw|lbu|lh) /.test(r.src)).length, 12, 'every load has its 1');
    assert.equal(rows.filter((r) => r.hot).length, 0, 'no load is 10% of them');
    await pg.selectOption('#metric-select', 'stores');
    rows = await sourceRows(pg);
    const stores = rows.filter((r) => num(r.ev || '0') > 0);
    assert.deepEqual(stores.map((r) => [r.ev, r.share, r.hot]), [['1', '100.0%', true]]);
    assert.match(stores[0].src, /^sw /);
    assert.deepEqual(rows.filter((r) => r.hot).length, 1, 'only the store is highlighted');
    await pg.screenshot({ path: join(artifacts, 't_load-source-stores.png') });
    assert.deepEqual(o.errors, []);
  });
  await o.page.close();
}

// ---- a fault: the overview's panel keeps the register table's lines and the frames
async function testFault() {
  const run = runNocprof('fault', [join(args.fw, 'fault_null-el.elf')], true);
  const { page, errors } = await openReport(run);
  const f = run.summary.cores[0].fault;
  await check('fault: message lines (registers) and frames as summary.json says', async () => {
    const pres = await page.locator('main pre.np-details').allTextContents();
    const msg = pres.find((t) => t.startsWith('write of unmapped address'));
    assert.equal(msg, f.message, 'the message, its newlines kept');
    assert.match(msg, /\n {2}zero=00000000 at=/);
    const frames = pres.find((t) => t.startsWith('#0 '));
    assert.equal(frames.split('\n').length, f.frames.length);
    assert.ok(frames.includes(`#1 0x${f.frames[1].pc.toString(16).padStart(8, '0')} in main at ${f.frames[1].file}:${f.frames[1].line}`), frames);
    await page.screenshot({ path: join(artifacts, 'fault-overview.png') });
  });
  await check('fault: no console errors, no network requests', async () => assert.deepEqual(errors, []));
  await page.close();
  // --no-profile: frames from the ELF's CFI; where they stop (assembly without CFI), why
  const cfi = runNocprof('fault-cfi', ['--no-profile', join(args.fw, 'fault_ri-el.elf')], true);
  const c = await openReport(cfi);
  await check('fault without profiling: the unwinder says where it stopped', async () => {
    const fr = cfi.summary.cores[0].fault.frames;
    const last = fr[fr.length - 1].function;
    assert.match(last, /^<unwinding stopped: no call frame information for 0x[0-9a-f]{8} \(reserved_instruction\)>$/);
    const pres = await c.page.locator('main pre.np-details').allTextContents();
    assert.ok(pres.some((t) => t.includes(`#1 (${last.slice(1, -1)})`)), pres.join('|'));
  });
  await check('fault without profiling: no console errors', async () => assert.deepEqual(c.errors, []));
  await c.page.close();
  // a lost interrupt: the stuck cores' panels say where, what they wait for, why, and their stack
  const hang = runNocprof('hang', [join(args.fw, 'hang_lostirq-el.elf')], true);
  const h = await openReport(hang);
  await check('hang: a panel per stuck core with its wait, why and frames', async () => {
    const stuck = hang.summary.cores.filter((c) => c.stop);
    assert.equal(stuck.length, 2);
    const titles = await h.page.locator('main .np-panel h2, main .np-panel h3').allTextContents();
    for (const c of stuck) assert.ok(titles.some((t) => t.includes(`Core ${c.id}: stuck`)), titles.join('|'));
    const pres = await h.page.locator('main pre.np-details').allTextContents();
    for (const c of stuck) {
      assert.ok(pres.some((t) => t.includes(c.wait.why)), `core ${c.id}: why`);
      const f1 = c.stop.frames[1];
      assert.ok(pres.some((t) => t.includes(`#1 0x${f1.pc.toString(16).padStart(8, '0')} in ${f1.function}`)), `core ${c.id}: frames`);
    }
    await h.page.screenshot({ path: join(artifacts, 'hang-overview.png') });
  });
  await check('hang: no console errors, no network requests', async () => assert.deepEqual(h.errors, []));
  await h.page.close();
  // what each stuck core did, as summary.txt says (before: a spin on RAM
  // "waits for an interrupt", nothing told asleep from polling)
  const mixed = runNocprof('hang-mixed', ['--set', 'run.livelock_cycles=50000', join(args.fw, 'hang_mixed-el.elf')], true);
  const m = await openReport(mixed);
  await check('hang: asleep in wait for a packet, polling', async () => {
    const notes = await m.page.locator('main .np-note').allTextContents();
    const [c0, c1] = mixed.summary.cores;
    assert.ok(notes.includes(`asleep in wait for a packet at pc 0x${c0.stop.pc.toString(16).padStart(8, '0')} in ${c0.stop.function} (${c0.stop.file}:${c0.stop.line})`), notes.join('|'));
    assert.ok(notes.some((t) => t.startsWith(`polling at pc 0x${c1.stop.pc.toString(16).padStart(8, '0')} in `)), notes.join('|'));
  });
  await m.page.close();
  const ram = runNocprof('hang-ram', ['--set', 'run.livelock_cycles=50000', join(args.fw, 'hang_ram-el.elf')], true);
  const r = await openReport(ram);
  await check('hang: a spin on RAM waits for a word of RAM', async () => {
    const w = ram.summary.cores[0].wait;
    const notes = await r.page.locator('main .np-note').allTextContents();
    assert.ok(notes.some((t) => t.startsWith('spinning at pc ')), notes.join('|'));
    const pres = await r.page.locator('main pre.np-details').allTextContents();
    assert.ok(pres.some((t) => t.startsWith(`waits for a word of RAM to change, at 0x${w.pc.toString(16).padStart(8, '0')} in ${w.function}`) && t.includes(w.why)), pres.join('|'));
  });
  await r.page.close();
}

// ---- the pipeline demo: chip flame graph, NoC mesh, timeline -------------------
async function testDemo() {
  const run = runNocprof('demo', [join(args.fw, 'pipeline-el.elf')]);
  const { page, errors } = await openReport(run);
  const s = run.summary;
  await check('demo: overview lists every core', async () => {
    assert.equal(await page.locator('main table.np-table').first().locator('tbody tr').count(), s.cores.length);
    await page.screenshot({ path: join(artifacts, 'demo-overview.png') });
  });
  await check('demo: chip flame graph = every core with its exact cycles', async () => {
    await selectView(page, 'chip', 'flame');
    const frames = await renderedFrames(page);
    const byPath = new Map(frames.map((f) => [f.path, f]));
    assert.equal(byPath.get('chip').value, s.cores.reduce((a, c) => a + c.cycles, 0));
    for (const c of s.cores) assert.equal(byPath.get(`chip;core${c.id}`).value, c.cycles, `core${c.id}`);
    for (const f of frames.filter((x) => x.path !== 'chip')) assert.equal(f.value, inclusive(run.folded, f.path.slice(5)), f.path);
    await page.screenshot({ path: join(artifacts, 'demo-flame.png') });
  });
  await check('demo: call graph callers match summary.json arcs', async () => {
    await selectView(page, 0, 'callgraph');
    const fns = s.cores[0].functions.filter((f) => f.callers.length);
    const f = fns.sort((a, b) => b.calls - a.calls)[0];
    const want = {};
    for (const a of f.callers) want[a.caller] = (want[a.caller] || 0) + a.count;
    assert.deepEqual(await callerCounts(page, f.name, 'cg-callers'), want);
  });
  await check('demo: NoC mesh has every router and link', async () => {
    await selectView(page, 'chip', 'noc');
    const W = s.config.mesh.width, H = s.config.mesh.height;
    assert.equal(await page.locator('#noc-mesh g.noc-router').count(), W * H);
    assert.equal(await page.locator('#noc-mesh line.noc-link').count(), s.noc.links.length);
    const busiest = s.noc.links.reduce((a, b) => (b.flits > a.flits ? b : a));
    await page.hover(`#noc-mesh line.noc-link[data-from="${busiest.from}"][data-to="${busiest.to}"]`, { force: true });
    assert.match(await page.textContent('.np-tip'), new RegExp(`flits: ${fmt(busiest.flits)}`));
    await page.screenshot({ path: join(artifacts, 'demo-noc.png') });
  });
  await check('demo: timeline draws the packets of trace.json', async () => {
    await selectView(page, 'chip', 'timeline');
    const trace = JSON.parse(readFileSync(join(run.dir, 'trace.json'), 'utf8'));
    const packets = trace.traceEvents.filter((e) => e.cat === 'packet').length;
    // the page leaves out the communication profile's messages (Perfetto shows them)
    const spans = trace.traceEvents.filter((e) => e.ph === 'X' && e.cat !== 'message').length;
    assert.ok(trace.traceEvents.some((e) => e.cat === 'message'));
    assert.equal(packets, s.noc.packets);
    assert.ok(await page.isVisible('canvas#timeline'));
    assert.match(await page.textContent('main .np-legend'), new RegExp(`${fmt(spans)} spans`));
    await page.screenshot({ path: join(artifacts, 'demo-timeline.png') });
  });
  await check('demo: #callgraph/1 in the address opens that tab and core', async () => {
    const p2 = await browser.newPage();
    const errs = [];
    p2.on('pageerror', (e) => errs.push(e.message));
    await p2.goto('file://' + join(run.dir, 'report.html') + '#callgraph/1');
    await p2.waitForSelector('#cg-name');
    assert.equal(await p2.textContent('nav button.active'), 'Call graph');
    assert.equal(await p2.inputValue('#core-select'), '1');
    assert.deepEqual(errs, []);
    await p2.close();
  });
  await check('demo: no console errors, no network requests', async () => assert.deepEqual(errors, []));
  await page.close();
}

// ---- diff.html: two runs of calls that differ in known instruction costs ------
// A: [timing] mul = 2, div = 17; B: mul = 9, div = 5. Every executed mul costs
// exactly 7 cycles more in B (objdump: op_mul is `jr ra; mul`, fact(n >= 2)
// multiplies once), every div 12 fewer. Expected frames and cycles come from
// each run's own stacks.folded and summary.json, and the mul counts from the
// disassembly and calls_expected.h, never from nocprof diff.
function mulsPerFunction(elf) {
  const text = execFileSync(args.objdump || 'mipsel-linux-gnu-objdump', ['-d', elf], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const out = {};
  let cur = null;
  for (const line of text.split('\n')) {
    const m = /^[0-9a-f]+ <(.+)>:$/.exec(line);
    if (m) cur = m[1];
    else if (cur && /\tmul\t/.test(line)) out[cur] = (out[cur] || 0) + 1;
  }
  return out;
}

// name -> {self, incl, calls} summed over the cores (or one core) of summary.json
function fnTotals(summary, k) {
  const out = {};
  for (const c of summary.cores) {
    if (k !== undefined && c.id !== k) continue;
    for (const f of c.functions) {
      if (!(f.calls || f.self_cycles || f.inclusive_cycles)) continue;
      const g = out[f.name] || (out[f.name] = { self: 0, incl: 0, calls: 0 });
      g.self += f.self_cycles;
      g.incl += f.inclusive_cycles;
      g.calls += f.calls;
    }
  }
  return out;
}

async function openDiff(dir, hash = '') {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) errors.push('network request: ' + r.url()); });
  await page.goto('file://' + join(dir, 'diff.html') + hash);
  await page.waitForSelector('#dflame svg g.frame');
  return { page, errors };
}

// Rendered differential frames: path, the library's delta, our exact A/B.
async function diffFrames(page) {
  await page.waitForTimeout(400); // transitions
  return page.$$eval('#dflame svg g.frame', (gs) => gs.map((g) => {
    const d = g.__data__;
    const names = [];
    for (let n = d; n; n = n.parent) names.unshift(n.data.name);
    const rect = g.querySelector('rect');
    return { path: names.join(';'), value: d.value, delta: d.delta, a: d.data.incA, b: d.data.incB,
      fill: rect.getAttribute('fill'), width: Number(rect.getAttribute('width')) };
  }));
}

// Every node of the differential tree bound to the chart (frames under a
// pixel are not drawn): path, self and inclusive A and B, the library's
// delta, and the sums of the selves below it.
async function diffNodes(page) {
  await page.waitForSelector('#dflame svg g.frame');
  await page.waitForTimeout(400);
  return page.$$eval('#dflame svg g.frame', (gs) => {
    let r = gs.map((g) => g.__data__).find((d) => d.depth === 0);
    const out = [];
    const walk = (d, path) => {
      const p = path ? `${path};${d.data.name}` : d.data.name;
      const o = { path: p, name: d.data.name, depth: d.depth, selfA: d.data.a, selfB: d.data.b, a: d.data.incA, b: d.data.incB,
        delta: d.delta, sumA: d.data.a, sumB: d.data.b };
      out.push(o);
      for (const c of d.children || []) { const k = walk(c, p); o.sumA += k.sumA; o.sumB += k.sumB; }
      return o;
    };
    walk(r, '');
    return out;
  });
}

// Hover the rendered frame of that path (several frames share a name).
async function hoverFrame(page, path) {
  const i = await page.$$eval('#dflame svg g.frame', (gs, p) => gs.findIndex((g) => {
    const names = [];
    for (let n = g.__data__; n; n = n.parent) names.unshift(n.data.name);
    return names.join(';') === p;
  }), path);
  assert.ok(i >= 0, `frame ${path} drawn`);
  await page.locator('#dflame svg g.frame').nth(i).hover({ force: true });
  await page.waitForTimeout(400); // the tooltip fades in
}

const rgb = (fill) => (/^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(fill) || []).slice(1).map(Number);

async function tableColumn(page, key) {
  return page.$$eval(`table.np-diff tbody tr td[data-key="${key}"]`, (tds) => tds.map((td) => td.textContent));
}
const num = (t) => Number(t.replace(/[,+]/g, ''));

async function testDiff() {
  const elf = join(args.fw, 'calls-el.elf');
  const A = runNocprof('diffA', [elf, '--set', 'timing.mul=2', '--set', 'timing.div=17']);
  const B = runNocprof('diffB', [elf, '--set', 'timing.mul=9', '--set', 'timing.div=5']);
  const dir = join(work, 'diff');
  execFileSync(args.nocprof, ['diff', '-q', '-o', dir, A.dir, B.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const M = loadExpected(join(args.src, 'firmware', 'tests', 'calls_expected.h'));
  const muls = mulsPerFunction(elf);
  const { page, errors } = await openDiff(dir);
  const ncores = A.summary.cores.length;
  await check('diff: the chip view opens with both runs\' total cycles', async () => {
    assert.equal(await page.inputValue('#view-select'), 'chip');
    const frames = await diffFrames(page);
    const root = frames.find((f) => f.path === 'chip');
    assert.equal(root.a, A.summary.cores.reduce((s, c) => s + c.cycles, 0));
    assert.equal(root.b, B.summary.cores.reduce((s, c) => s + c.cycles, 0));
    assert.equal(root.delta, root.b - root.a, 'the library\'s computeDelta');
    for (const c of A.summary.cores) {
      const f = frames.find((x) => x.path === `chip;core${c.id}`);
      assert.deepEqual([f.a, f.b], [c.cycles, B.summary.cores[c.id].cycles], `core${c.id}`);
    }
    await page.screenshot({ path: join(artifacts, 'diff-chip.png') });
    await page.screenshot({ path: join(artifacts, 'diff-chip-full.png'), fullPage: true });
  });
  for (let k = 0; k < ncores; k++) {
    const root = `core${k}`;
    await check(`diff core ${k}: every frame carries the exact A and B cycles of both runs' stacks.folded`, async () => {
      await page.selectOption('#view-select', String(k));
      const frames = await diffFrames(page);
      const paths = new Set([...framePaths(A.folded, root), ...framePaths(B.folded, root)]);
      assert.ok(frames.length > 10, `only ${frames.length} frames`);
      for (const f of frames) {
        assert.ok(paths.has(f.path), `unexpected frame ${f.path}`);
        assert.equal(f.a, inclusive(A.folded, f.path), `A ${f.path}`);
        assert.equal(f.b, inclusive(B.folded, f.path), `B ${f.path}`);
        assert.equal(f.value, f.b, `width = B's cycles: ${f.path}`);
        assert.equal(f.delta, f.b - f.a, `delta ${f.path}`);
        const [r, g, bl] = rgb(f.fill);
        if (f.b > f.a) assert.ok(r > g && g === bl, `${f.path} slower: red ${f.fill}`);
        else if (f.b < f.a) assert.ok(bl > r && r === g, `${f.path} faster: blue ${f.fill}`);
        else assert.deepEqual([r, g, bl], [220, 220, 220], `${f.path} unchanged: grey`);
      }
      const byPath = new Map(frames.map((f) => [f.path, f]));
      const opMul = byPath.get(`${root};_start;main;run_ops;op_mul`);
      assert.equal(muls.op_mul, 1, 'op_mul multiplies once');
      assert.equal(opMul.b - opMul.a, 7 * muls.op_mul * M.CALLS_OP_EACH(k), 'op_mul: +7 per call');
      // fact(10) at depth 1 .. fact(1) at depth 10: fact(n >= 2) multiplies once
      assert.equal(muls.fact, 1, 'fact multiplies once');
      for (let d = 1; d <= M.CALLS_FACT_N; d++) {
        const f = byPath.get(`${root};_start;main;${Array(d).fill('fact').join(';')}`);
        assert.ok(f, `fact at depth ${d}`);
        assert.equal(f.b - f.a, 7 * (M.CALLS_FACT_N - d), `fact at depth ${d}`);
      }
      for (const op of ['op_add', 'op_sub', 'op_xor']) {
        const f = byPath.get(`${root};_start;main;run_ops;${op}`); // under a pixel wide on core 0: not drawn
        if (f) assert.equal(f.b - f.a, 0, op);
      }
      assert.ok(frames.some((f) => f.b < f.a && f.path.endsWith(';put_digits')), 'put_digits divides: faster');
    });
    await check(`diff core ${k}: hovering op_mul shows its exact A and B cycles and the delta`, async () => {
      const path = `${root};_start;main;run_ops;op_mul`;
      const a = inclusive(A.folded, path), b = inclusive(B.folded, path);
      assert.equal(await page.locator('#dflame svg g.frame[name="op_mul"]').count(), 1);
      await hoverFrame(page, path);
      assert.ok(await page.isVisible('.d3-flame-graph-tip'), 'tooltip shown');
      const tipText = await page.locator('.d3-flame-graph-tip').textContent();
      assert.ok(tipText.includes(`A: ${fmt(a)} cycles · B: ${fmt(b)} cycles`), tipText);
      assert.ok(tipText.includes(`delta: +${fmt(7 * M.CALLS_OP_EACH(k))}`), tipText);
      assert.ok(tipText.includes(`calls A ${fmt(M.CALLS_OP_EACH(k))} · B ${fmt(M.CALLS_OP_EACH(k))}`), tipText);
      const box = await page.locator('.d3-flame-graph-tip').boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 1400, `the tooltip stays inside the window: ${JSON.stringify(box)}`);
      const frame = await page.locator('#dflame svg g.frame[name="op_mul"] rect').boundingBox();
      assert.ok(box.x + box.width <= frame.x + frame.width / 2, `left of the pointer (the frame's middle): ${JSON.stringify([box, frame])}`);
      if (k === 0) await page.screenshot({ path: join(artifacts, 'diff-core0-hover.png') });
      await page.mouse.move(5, 5);
    });
    await check(`diff core ${k}: search highlights exactly the op_ frames`, async () => {
      await page.fill('#dflame-search', 'op_');
      await page.waitForTimeout(300);
      const frames = await diffFrames(page);
      const hl = frames.filter((f) => f.fill.toUpperCase() === '#E600E6').map((f) => f.path).sort();
      const want = ['op_add', 'op_mul', 'op_sub', 'op_xor'].map((o) => `${root};_start;main;run_ops;${o}`);
      // every drawn op_ frame (frames under a pixel are not drawn), op_mul among them
      assert.deepEqual(hl, frames.map((f) => f.path).filter((p) => want.includes(p)).sort());
      assert.ok(hl.includes(want[1]), 'op_mul highlighted');
      const sa = want.reduce((s, p) => s + inclusive(A.folded, p), 0), sb = want.reduce((s, p) => s + inclusive(B.folded, p), 0);
      assert.equal(await page.textContent('#dflame-details'),
        `search "op_": 4 frames, A ${fmt(sa)} → B ${fmt(sb)} cycles (delta +${fmt(7 * M.CALLS_OP_EACH(k))})`);
      if (k === 0) await page.screenshot({ path: join(artifacts, 'diff-core0-search.png') });
      await page.click('#dflame-clear');
      assert.equal((await diffFrames(page)).filter((f) => f.fill.toUpperCase() === '#E600E6').length, 0, 'cleared');
    });
  }
  await check('diff core 0: hovering put_digits (divides) shows it faster, with exact cycles', async () => {
    await page.selectOption('#view-select', '0');
    const frames = await diffFrames(page);
    const f = frames.filter((x) => x.path.endsWith(';put_digits')).sort((x, y) => y.width - x.width)[0];
    assert.ok(f.b < f.a, 'fewer cycles in B');
    await hoverFrame(page, f.path);
    const tip = page.locator('.d3-flame-graph-tip');
    const text = await tip.textContent();
    assert.ok(text.includes(`A: ${fmt(f.a)} cycles · B: ${fmt(f.b)} cycles`), text);
    assert.ok(text.includes(`delta: -${fmt(f.a - f.b)}`), text);
    const box = await tip.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 1400, 'the tooltip stays inside the window');
    await page.screenshot({ path: join(artifacts, 'diff-core0-hover-faster.png') });
    await page.mouse.move(5, 5);
  });
  await check('diff: clicking a frame zooms into it, reset zooms out', async () => {
    await page.selectOption('#view-select', '1');
    await diffFrames(page);
    const g = page.locator('#dflame svg g.frame[name="run_ops"]');
    await g.click({ force: true });
    const frames = await diffFrames(page);
    const full = frames.find((f) => f.path === 'core1').width;
    assert.ok(Math.abs(frames.find((f) => f.path.endsWith(';run_ops')).width - full) < 1, 'run_ops spans the graph');
    await page.click('#dflame-reset');
    const after = await diffFrames(page);
    assert.ok(after.find((f) => f.path.endsWith(';run_ops')).width < full / 2, 'zoomed out');
  });
  await check('diff: the table holds both runs\' exact numbers and sorts by the absolute change', async () => {
    await page.selectOption('#view-select', 'chip');
    const ta = fnTotals(A.summary), tb = fnTotals(B.summary);
    const names = [...new Set([...Object.keys(ta), ...Object.keys(tb)])];
    const z = { self: 0, incl: 0, calls: 0 };
    const rows = await page.$$eval('table.np-diff tbody tr', (trs) => trs.map((tr) => {
      const o = { name: tr.dataset.name };
      for (const td of tr.querySelectorAll('td')) o[td.dataset.key] = td.textContent;
      return o;
    }));
    assert.deepEqual(rows.map((r) => r.name).sort(), names.sort());
    for (const r of rows) {
      const a = ta[r.name] || z, b = tb[r.name] || z;
      assert.deepEqual([r.self_a, r.self_b, r.incl_a, r.incl_b, r.calls_a, r.calls_b].map(num),
        [a.self, b.self, a.incl, b.incl, a.calls, b.calls], r.name);
      assert.equal(num(r.dself), b.self - a.self, r.name);
    }
    const changes = rows.map((r) => Math.abs(num(r.dself)));
    assert.deepEqual(changes, [...changes].sort((x, y) => y - x), 'largest |delta self| first');
    assert.equal(rows.find((r) => r.name === 'op_mul').dself, `+${fmt(7 * [0, 1, 2, 3].reduce((s, k) => s + M.CALLS_OP_EACH(k), 0))}`);
    await page.click('table.np-diff th[data-key="calls_a"]');
    const calls = (await tableColumn(page, 'calls_a')).map(num);
    assert.deepEqual(calls, [...calls].sort((x, y) => y - x), 'sorted by calls A');
    assert.equal(calls[0], Math.max(...Object.values(ta).map((f) => f.calls)));
    await page.click('table.np-diff th[data-key="dincl"]');
    await page.click('table.np-diff th[data-key="dincl"]'); // ascending: the most improved first
    const dincl = (await tableColumn(page, 'dincl')).map(num);
    assert.deepEqual(dincl, [...dincl].sort((x, y) => x - y), 'ascending delta incl');
    assert.equal(dincl[0], Math.min(...names.map((n) => (tb[n] || z).incl - (ta[n] || z).incl)));
    await page.locator('table.np-diff').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, 'diff-table-sorted.png') });
  });
  await check('diff: no console errors, no network requests', async () => assert.deepEqual(errors, []));
  await page.close();
  await testDiffOneSide(A);
}

// calls against tailcall: functions of one side only are marked in the
// table and visible in the flame graph with that side's widths.
async function testDiffOneSide(A) {
  const C = runNocprof('diffC', [join(args.fw, 'tailcall-el.elf')]);
  const dir = join(work, 'diff-one');
  execFileSync(args.nocprof, ['diff', '-q', '-o', dir, A.dir, C.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { page, errors } = await openDiff(dir, '#0');
  await check('diff: functions of one side only are marked and drawn with that side\'s widths', async () => {
    assert.equal(await page.inputValue('#view-select'), '0');
    const ta = fnTotals(A.summary, 0), tc = fnTotals(C.summary, 0);
    const onlyA = Object.keys(ta).filter((n) => !tc[n]).sort(), onlyC = Object.keys(tc).filter((n) => !ta[n]).sort();
    assert.ok(onlyA.includes('op_mul') && onlyC.length > 0);
    const marked = await page.$$eval('table.np-diff tbody tr', (trs) => trs.filter((tr) => tr.querySelector('.only'))
      .map((tr) => [tr.dataset.name, tr.querySelector('.only').textContent]));
    assert.deepEqual(marked.filter((m) => m[1] === 'only in A').map((m) => m[0]).sort(), onlyA);
    assert.deepEqual(marked.filter((m) => m[1] === 'only in B').map((m) => m[0]).sort(), onlyC);
    let frames = await diffFrames(page);
    assert.ok(!frames.some((f) => f.path.endsWith(';op_mul')), 'B widths: op_mul (A only) has none');
    await page.selectOption('#dflame-width', 'a');
    await page.waitForSelector('#dflame svg g.frame');
    frames = await diffFrames(page);
    const f = frames.find((x) => x.path === 'core0;_start;main;run_ops;op_mul');
    assert.ok(f, 'A widths: op_mul drawn');
    assert.deepEqual([f.value, f.a, f.b, f.delta], [inclusive(A.folded, f.path), inclusive(A.folded, f.path), 0, -f.a]);
    assert.equal(f.fill, 'rgb(15,15,235)', 'gone in B: the deepest blue');
    await page.screenshot({ path: join(artifacts, 'diff-one-side-widths-a.png') });
    assert.deepEqual(errors, []);
  });
  await check('diff: the metric selector switches the cards and the table to loads (summary.json\'s)', async () => {
    // calls (A) against tailcall (C), core 0: every function's loads in A
    // and B, their change and the totals are summary.json's; the rows are
    // ranked by the absolute change; the flame graph says it is cycles only
    const loads = (s) => Object.fromEntries(s.cores[0].functions.map((f) => [f.name, f.loads]));
    const la = loads(A.summary), lc = loads(C.summary);
    assert.ok(!(await page.$('#dflame-metric')), 'no note under cycles');
    await page.selectOption('#diff-metric', 'loads');
    await page.waitForSelector('#dflame-metric');
    const rows = await page.$$eval('table.np-diff tbody tr', (trs) => trs.map((tr) => {
      const o = {};
      for (const td of tr.querySelectorAll('td')) o[td.dataset.key] = td.textContent;
      o.name = tr.dataset.name;
      return o;
    }));
    assert.ok(rows.length > 5);
    for (const r of rows) {
      const a = la[r.name] || 0, b = lc[r.name] || 0;
      assert.deepEqual([num(r.ev_a), num(r.ev_b), num(r.dev)], [a, b, b - a], r.name);
    }
    assert.ok(rows.some((r) => num(r.dev) !== 0), 'some loads changed');
    const changes = rows.map((r) => Math.abs(num(r.dev)));
    assert.deepEqual(changes, [...changes].sort((x, y) => y - x), 'largest |delta loads| first');
    const sum = (o) => Object.values(o).reduce((x, y) => x + y, 0);
    const cards = await page.$$eval('#diff-cards .np-card', (cs) => cs.map((c) => [c.querySelector('.k').textContent, c.querySelector('.v').textContent]));
    assert.deepEqual(cards.slice(0, 2), [['A loads', fmt(sum(la))], ['B loads', fmt(sum(lc))]]);
    const d = sum(lc) - sum(la);
    assert.ok(cards[2][1].startsWith((d > 0 ? '+' : '') + fmt(d)), cards[2][1]);
    await page.screenshot({ path: join(artifacts, 'diff-metric-loads.png'), fullPage: true });
    await page.selectOption('#diff-metric', 'cycles');
    await page.waitForSelector('table.np-diff td[data-key="self_a"]');
    assert.ok(!(await page.$('#dflame-metric')), 'cycles again: no note');
    assert.deepEqual(errors, []);
  });
  await check('diff: the flame graph under loads: each function\'s frames add up to its loads in A and in B, colours on loads', async () => {
    // events are per function: a function's count is split over its call
    // paths by its cycles there (so a function of one path has it whole);
    // whatever the split, its frames add up to summary.json's loads
    const loads = (s) => Object.fromEntries(s.cores[0].functions.map((f) => [f.name, f.loads]));
    const la = loads(A.summary), lc = loads(C.summary);
    await page.selectOption('#diff-metric', 'loads');
    await page.waitForSelector('#dflame-metric');
    const nodes = await diffNodes(page);
    const sum = {};
    for (const n of nodes) {
      if (n.depth === 0) continue;
      const g = sum[n.name] || (sum[n.name] = { a: 0, b: 0, paths: 0 });
      g.a += n.selfA; g.b += n.selfB; g.paths++;
    }
    for (const [name, g] of Object.entries(sum))
      assert.deepEqual([g.a, g.b], [la[name] || 0, lc[name] || 0], `${name}: its frames add up to its loads`);
    const root = nodes.find((n) => n.depth === 0);
    const total = (l) => Object.keys(sum).reduce((x, n) => x + (l[n] || 0), 0);
    assert.deepEqual([root.a, root.b], [total(la), total(lc)], 'root: all the loads');
    assert.notEqual(root.a, A.summary.cores[0].cycles, 'not cycles');
    for (const n of nodes) {
      assert.equal(n.a, n.sumA, `${n.path}: inclusive A = its subtree`);
      assert.equal(n.delta, n.b - n.a, `${n.path}: the library's delta`);
    }
    for (const f of await diffFrames(page)) {
      const [r, g, bl] = rgb(f.fill);
      if (!f.a && f.b) assert.deepEqual([r, g, bl], [255, 190, 90], `${f.path}: none in A`);
      else if (f.b > f.a) assert.ok(r > g && g === bl, `${f.path} more loads: red ${f.fill}`);
      else if (f.b < f.a) assert.ok(bl > r && r === g, `${f.path} fewer loads: blue ${f.fill}`);
      else assert.deepEqual([r, g, bl], [220, 220, 220], `${f.path} unchanged: grey`);
    }
    const one = Object.entries(sum).find(([n, g]) => g.paths === 1 && la[n] && la[n] !== (lc[n] || 0));
    assert.ok(one, 'a function of one path whose loads changed');
    const f = nodes.find((n) => n.name === one[0]);
    await hoverFrame(page, f.path);
    const tip = await page.locator('.d3-flame-graph-tip').textContent();
    assert.ok(tip.includes(`A: ${fmt(f.a)} loads · B: ${fmt(f.b)} loads`), tip);
    assert.ok(tip.includes(`own loads A ${fmt(la[one[0]])} · B ${fmt(lc[one[0]] || 0)}`), tip);
    await page.mouse.move(5, 5);
    assert.match(await page.textContent('main .np-legend'), new RegExp(`total: A ${fmt(root.a)} · B ${fmt(root.b)} loads`));
    await page.screenshot({ path: join(artifacts, 'diff-flame-loads.png') });
    await page.selectOption('#diff-metric', 'cycles');
    assert.deepEqual(errors, []);
  });
  await page.close();
  const dirM = join(work, 'diff-metric');
  execFileSync(args.nocprof, ['diff', '-q', '--metric', 'stores', '-o', dirM, A.dir, C.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const opened = await openDiff(dirM, '#0');
  await check('diff --metric stores: diff.html opens on stores, the most changed function first', async () => {
    const pg = opened.page;
    assert.equal(await pg.inputValue('#diff-metric'), 'stores');
    const st = (s) => Object.fromEntries(s.cores[0].functions.map((f) => [f.name, f.stores]));
    const sa = st(A.summary), sc = st(C.summary);
    const first = await pg.$eval('table.np-diff tbody tr', (tr) => tr.dataset.name);
    const names = [...new Set([...Object.keys(sa), ...Object.keys(sc)])];
    const ch = (n) => Math.abs((sc[n] || 0) - (sa[n] || 0));
    assert.equal(ch(first), Math.max(...names.map(ch)), first);
    // and so does the flame graph
    const root = (await diffNodes(pg)).find((n) => n.depth === 0);
    assert.match(await pg.textContent('main .np-legend'), new RegExp(`total: A ${fmt(root.a)} · B ${fmt(root.b)} stores`));
    assert.equal(root.a, Object.values(sa).reduce((x, y) => x + y, 0), 'all of A\'s stores');
    assert.deepEqual(opened.errors, []);
  });
  await opened.page.close();
  await testDiffFixtures();
}

// t_load (A) against t_branch (B), one core each, tests/fixtures/emu: by
// hand (the listings; e2e/events DiffEvents counts the same) _start
// executes 12 loads, 15 instructions and no conditional branch in A; 2
// loads, 46 instructions and 20 conditional branches in B. diff --metric
// loads opens the flame graph on loads: _start 12 -> 2, blue.
async function testDiffFixtures() {
  if (!args.fixtures || !existsSync(join(args.fixtures, 't_load-el.elf'))) return;
  const one = ['--set', 'mesh.width=1', '--set', 'mesh.height=1'];
  const A = runNocprof('fxA', [...one, join(args.fixtures, 't_load-el.elf')], true);
  const B = runNocprof('fxB', [...one, join(args.fixtures, 't_branch-el.elf')], true);
  const dir = join(work, 'diff-fx');
  execFileSync(args.nocprof, ['diff', '-q', '--metric', 'loads', '-o', dir, A.dir, B.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { page, errors } = await openDiff(dir, '#0');
  await check('diff --metric loads, t_load against t_branch: _start\'s frame 12 -> 2 loads (hand count), blue; instructions and branches red/orange', async () => {
    assert.equal(await page.inputValue('#diff-metric'), 'loads');
    const frame = async () => (await diffFrames(page)).find((f) => f.path === 'core0;_start');
    let f = await frame();
    assert.deepEqual([f.a, f.b, f.delta, f.value], [12, 2, -10, 2]);
    let [r, g, bl] = rgb(f.fill);
    assert.ok(bl > r && r === g, `fewer loads: blue ${f.fill}`);
    assert.equal(f.fill, diffFillOf(12, 2), 'the tint of a change of 10 in 12');
    const root = (await diffFrames(page)).find((x) => x.path === 'core0');
    assert.deepEqual([root.a, root.b], [12, 2], 'the root: all loads');
    await hoverFrame(page, 'core0;_start');
    const tip = await page.locator('.d3-flame-graph-tip').textContent();
    assert.ok(tip.includes('A: 12 loads · B: 2 loads') && tip.includes('delta: -10 (-83.33%)'), tip);
    await page.mouse.move(5, 5);
    await page.screenshot({ path: join(artifacts, 'diff-fixtures-loads.png') });
    await page.selectOption('#diff-metric', 'instructions');
    f = await frame();
    assert.deepEqual([f.a, f.b, f.delta], [15, 46, 31]);
    [r, g, bl] = rgb(f.fill);
    assert.ok(r > g && g === bl, `more instructions: red ${f.fill}`);
    await page.selectOption('#diff-metric', 'cond_branches');
    f = await frame();
    assert.deepEqual([f.a, f.b, f.fill], [0, 20, 'rgb(255,190,90)'], 'none in A: orange');
    await page.selectOption('#diff-metric', 'cycles');
    f = await frame();
    assert.deepEqual([f.a, f.b], [inclusive(A.folded, 'core0;_start'), inclusive(B.folded, 'core0;_start')], 'cycles again');
    assert.deepEqual(errors, []);
  });
  await page.close();
}

// diffColour of web/src/diff.js, restated: |B - A| / max(A, B) sets the tint.
function diffFillOf(a, b) {
  const k = 15 + Math.round(185 * (1 - Math.abs(b - a) / Math.max(a, b)));
  return b > a ? `rgb(235,${k},${k})` : `rgb(${k},${k},235)`;
}

// ---- --no-profile: no stacks, no source data; every tab still renders ---------
async function testNoProfile() {
  const run = runNocprof('noprof', ['--no-profile', join(args.fw, 'calls-el.elf')]);
  const { page, errors } = await openReport(run);
  await check('--no-profile: every tab renders, the flame graph says why it is empty', async () => {
    for (const tab of await page.$$eval('nav.np-tabs button', (bs) => bs.map((b) => b.dataset.tab))) {
      await page.click(`nav.np-tabs button[data-tab=${tab}]`);
      assert.equal(await page.locator('main .np-panel', { hasText: 'This view failed' }).count(), 0, tab);
    }
    await page.click('nav.np-tabs button[data-tab=flame]');
    assert.match(await page.textContent('main'), /No calling contexts were recorded/);
    assert.deepEqual(errors, []);
  });
  await page.close();
}

// Issue 24: big firmware (tests/fixtures/hostile/mkelf.py: 20,000 functions of
// two instructions, each called once, on one core). The data document is
// embedded compressed and inflated by the page; the flat profile draws the
// first 500 rows, the rest on demand, and its filter searches every row.
async function testBigFirmware() {
  const elf = join(work, 'funcs20k.elf');
  execFileSync('python3', ['-c', 'import sys; sys.path.insert(0, sys.argv[1]); import mkelf; mkelf.manyfuncs(sys.argv[2], 20000)',
    join(args.src, 'tests', 'fixtures', 'hostile'), elf]);
  const run = runNocprof('funcs20k', ['--set', 'mesh.width=1', '--set', 'mesh.height=1', elf]);
  const html = readFileSync(join(run.dir, 'report.html'), 'utf8');
  const listed = run.summary.cores[0].functions
    .filter((f) => f.calls || f.self_cycles || f.inclusive_cycles || Object.values(f.samples).some((n) => n));
  await check('funcs20k: report.html holds the data compressed, smaller than summary.json', async () => {
    assert.match(html, /<script type="application\/octet-stream" id="nocprof-data" data-encoding="deflate-base64">/);
    assert.ok(html.length < readFileSync(join(run.dir, 'summary.json')).length, `${html.length} bytes`);
    assert.ok(listed.length > 20000, `${listed.length} functions`);
  });
  const { page, errors } = await openReport(run);
  await check('funcs20k: flat profile draws 500 rows, the long tail on demand', async () => {
    await selectView(page, 0, 'flat');
    assert.equal(await page.locator('table.np-flat tbody tr').count(), 500);
    assert.match(await page.textContent('p.np-more'), new RegExp(`${fmt(listed.length - 500)} more rows not drawn`));
    await page.click('p.np-more button');
    assert.equal(await page.locator('table.np-flat tbody tr').count(), 1000);
  });
  await check('funcs20k: the filter finds a function of the tail with its exact calls', async () => {
    await page.fill('#flat-filter', 'fn019999');
    assert.equal(await page.locator('table.np-flat tbody tr').count(), 1);
    const want = listed.find((f) => f.name === 'fn019999');
    assert.equal(await page.textContent('table.np-flat tr[data-name="fn019999"] td[data-key="calls"]'), fmt(want.calls));
    assert.equal(await page.textContent('table.np-flat tr[data-name="fn019999"] td[data-key="self"]'), fmt(want.self_cycles));
    await page.screenshot({ path: join(artifacts, 'funcs20k-flat.png') });
  });
  await check('funcs20k: no console errors, no network requests', async () => assert.deepEqual(errors, []));
  await page.close();
}

try {
  // --only calls,source-events,...: those groups alone (while working on one)
  const only = args.only ? args.only.split(',') : null;
  for (const [name, fn] of [['calls', testCalls], ['demo', testDemo], ['source-events', testSourceEvents],
    ['no-profile', testNoProfile], ['diff', testDiff], ['big', testBigFirmware], ['fault', testFault]])
    if (!only || only.includes(name)) await fn();
} catch (e) {
  failed++;
  console.log(`FAIL setup: ${e.stack || e}`);
} finally {
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(`screenshots: ${artifacts}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
