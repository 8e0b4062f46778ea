// report.e2e.mjs — OUT/report.html in a real browser (Debian's chromium,
// driven by playwright-core with the system executable; nothing downloaded).
//
//   node web/test/report.e2e.mjs --nocprof PATH --fw FIRMWARE_DIR --src SRC
//                                [--artifacts DIR] [--chromium PATH]
//
// Runs the `calls` firmware and the pipeline demo, opens each report.html
// from file:// and checks, against values computed here from stacks.folded,
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

function runNocprof(name, argv) {
  const out = join(work, name);
  try {
    execFileSync(args.nocprof, ['run', '-q', '-o', out, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`nocprof ${argv.join(' ')} failed: ${e.stderr}`);
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

try {
  await testCalls();
  await testDemo();
  await testNoProfile();
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
