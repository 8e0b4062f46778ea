// SPDX-License-Identifier: GPL-2.0-or-later
// sweep.e2e.mjs — DIR/sweep.html of `nocprof sweep` in a real browser
// (Debian's chromium through playwright-core, nothing downloaded).
//
//   node web/test/sweep.e2e.mjs --nocprof PATH --fw FIRMWARE_DIR [--artifacts DIR]
//
// Runs a 2x2 sweep of the pipeline demo (noc.link_latency x sample_period,
// tracking crc32_words), then checks the page against the runs' own
// summary.json files (never against the page's code): no console errors;
// one chart per axis for the cores and one per axis and tracked function;
// every run a point of every series; the table's rows, its sort by a core's
// cycles and its links to each run's report.html. Exit 77 (SKIP) when
// chromium cannot be launched; the last line is "N passed, M failed".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['nocprof', 'fw']) if (!args[k]) { console.error(`usage: missing --${k}`); process.exit(2); }
const artifacts = resolve(args.artifacts || 'test-artifacts/sweep-html');
const chromiumPath = process.env.NOCPROF_CHROMIUM || '/usr/bin/chromium';
const SKIP = 77;
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch (e) {
  console.log(`SKIP: playwright-core is not installed (npm ci in web/): ${e.message}`);
  process.exit(SKIP);
}
if (!existsSync(chromiumPath)) {
  console.log(`SKIP: no chromium at ${chromiumPath}`);
  process.exit(SKIP);
}
let browser;
try {
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
} catch (e) {
  console.log(`SKIP: chromium cannot be launched: ${e.message.split('\n')[0]}`);
  process.exit(SKIP);
}
mkdirSync(artifacts, { recursive: true });
const dir = join(mkdtempSync(join(tmpdir(), 'nocprof-sweep-')), 'sweep');
execFileSync(args.nocprof, ['sweep', '-o', dir, '--axis', 'noc.link_latency=1,4', '--axis', 'sample_period=1000,3000',
  '--track', 'crc32_words', '--jobs', '2', join(args.fw, 'pipeline-el.elf')], { stdio: 'inherit' });

// expectations from the runs' own files
const runs = [];
for (let i = 0; i < 4; i++) {
  const d = `runs/run-000${i}`;
  const s = JSON.parse(readFileSync(join(dir, d, 'summary.json'), 'utf8'));
  runs.push({ dir: d, cycles: s.cores.map((c) => c.cycles) });
}

let passed = 0, failed = 0;
async function check(name, fn) {
  try { await fn(); passed++; console.log(`ok - ${name}`); } catch (e) { failed++; console.log(`not ok - ${name}\n  ${e.message}`); }
}
const page = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
await page.goto('file://' + join(dir, 'sweep.html'));
await page.waitForSelector('table.np-sweep-table tbody tr');
await page.screenshot({ path: join(artifacts, 'sweep.png'), fullPage: true });

await check('no console errors', async () => assert.deepEqual(errors, []));
await check('charts: cores and the tracked function against each axis', async () => {
  const axes = await page.$$eval('svg.np-sweep-chart', (els) => els.map((e) => e.getAttribute('data-axis')));
  assert.deepEqual(axes, ['noc.link_latency', 'noc.link_latency', 'sample_period', 'sample_period']);
});
await check('every run is a point of every core series', async () => {
  const counts = await page.$$eval('svg.np-sweep-chart', (els) => [...els[0].querySelectorAll('g.np-series')]
    .map((g) => [g.getAttribute('data-series'), g.querySelectorAll('circle').length]));
  assert.deepEqual(counts, [['core0', 4], ['core1', 4], ['core2', 4], ['core3', 4]]);
});
await check('table rows and links to each run', async () => {
  const hrefs = await page.$$eval('table.np-sweep-table tbody tr td[data-key="report"] a', (as) => as.map((a) => a.getAttribute('href')));
  assert.deepEqual(hrefs, runs.map((r) => `${r.dir}/report.html`));
  for (const h of hrefs) assert.ok(existsSync(join(dir, h)), h);
});
await check('sorting by core3 cycles puts the slowest run first', async () => {
  await page.click('table.np-sweep-table th[data-key="c3"]');
  const first = await page.$eval('table.np-sweep-table tbody tr td[data-key="c3"]', (td) => td.textContent.replace(/,/g, ''));
  assert.equal(Number(first), Math.max(...runs.map((r) => r.cycles[3])));
});
// a firmware axis whose file name is HTML (a file name may hold < > = and
// spaces): the hover text shows it, nothing of it runs (before: the
// tooltip put the axis values in as HTML and the <img>'s onerror ran)
const hostileTop = mkdtempSync(join(tmpdir(), 'nocprof-sweep-h-'));
const evil = join(hostileTop, '<img src=x onerror=window.__pwned=1>.elf');
copyFileSync(join(args.fw, 'calls-el.elf'), evil);
const hdir = join(hostileTop, 'sweep');
execFileSync(args.nocprof, ['sweep', '-o', hdir, '--axis', `firmware=${evil},${join(args.fw, 'calls-el.elf')}`,
  '--track', '<b>bold</b>', '--set', 'mesh.width=1', '--set', 'mesh.height=1', '--jobs', '2'], { stdio: 'inherit' });
const hpage = await browser.newPage({ viewport: { width: 1200, height: 1600 } });
await hpage.goto('file://' + join(hdir, 'sweep.html'));
await hpage.waitForSelector('svg.np-sweep-chart circle');
await check('axis values and tracked names in the hover text are text, never HTML', async () => {
  // away first: the last point's tooltip (which follows the pointer) may
  // cover the next point
  const hover = async (circle) => {
    await hpage.mouse.move(0, 0);
    await circle.hover({ force: true });
    await hpage.waitForFunction(() => document.querySelector('.np-tip')?.style.display === 'block');
  };
  const charts = await hpage.$$('svg.np-sweep-chart');
  for (const c of charts) for (const circle of await c.$$('circle')) await hover(circle);
  assert.equal(await hpage.evaluate(() => window.__pwned), undefined);
  assert.equal(await hpage.$$eval('.np-tip img, .np-tip b b', (els) => els.length), 0);
  await hover((await charts[charts.length - 1].$$('circle'))[0]);
  const text = await hpage.$eval('.np-tip', (el) => el.textContent);
  assert.ok(text.includes('<b>bold</b> core0'), text);
  assert.ok(text.includes('firmware = ' + evil), text);
});
await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
