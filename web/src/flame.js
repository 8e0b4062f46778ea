// SPDX-License-Identifier: GPL-2.0-or-later
// Flame graph of the exact calling contexts (stacks.folded): d3-flame-graph.
import { select } from 'd3';
import flamegraph, { tooltip as fgTooltips } from 'd3-flame-graph';
import { fmtInt, fmtPct, esc, panel, fitFlameTip } from './util.js';
import { METRICS } from './model.js';

const PSEUDO = /^<.*>$/;

// Colours: functions warm (hash of the name), pseudo-frames and core roots cool.
function colour(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  if (name === '<idle>') return '#c9ced8';
  if (PSEUDO.test(name)) return '#8fb3e8';
  if (/^core\d+$/.test(name) || name === 'chip') return '#9aa5b8';
  const hue = 8 + (h % 42);            // red .. orange .. yellow
  const light = 58 + ((h >> 8) % 14);
  return `hsl(${hue}, 85%, ${light}%)`;
}

// What every flame graph of the pages has (report.html, diff.html): a
// toolbar (search box, reset zoom, clear search; ids `${id}-search`,
// `-reset`, `-clear`), a details line and the chart's box (`#${id}`).
export function flameFrame(p, id) {
  const bar = p.append('div').attr('class', 'np-toolbar');
  const input = bar.append('input').attr('type', 'search').attr('id', `${id}-search`)
    .attr('placeholder', 'Search functions (substring)…');
  bar.append('button').attr('id', `${id}-reset`).text('Reset zoom');
  bar.append('button').attr('id', `${id}-clear`).text('Clear search');
  const details = p.append('div').attr('class', 'np-details').attr('id', `${id}-details`);
  const box = p.append('div').attr('class', 'np-flame').attr('id', id);
  return { bar, input, details, box };
}

// The chart with the pages' common settings, hover text from label(d).
export function flameChart(f, label) {
  return flamegraph()
    .width(Math.max(600, f.box.node().getBoundingClientRect().width || 1000))
    .cellHeight(19)
    .transitionDuration(250)
    .minFrameSize(1)
    .selfValue(true)
    .sort(true)
    .tooltip(fgTooltips.defaultFlamegraphTooltip().html(label))
    .setSearchMatch((d, term) => !!term && d.data.name.toLowerCase().includes(term.toLowerCase()))
    .setDetailsHandler(() => {})
    .onHover(fitFlameTip);
}

// Draw the chart in the frame and wire its toolbar; the search function
// (an empty term clears).
export function flameShow(f, chart, tree, id) {
  select(f.box.node()).datum(tree).call(chart);
  const search = (t) => { if (t) chart.search(t); else { chart.clear(); f.details.text(''); } };
  f.input.on('input', () => search(f.input.node().value));
  f.bar.select(`#${id}-reset`).on('click', () => chart.resetZoom());
  f.bar.select(`#${id}-clear`).on('click', () => { f.input.node().value = ''; search(''); });
  window.nocprofFlame = chart;
  return search;
}

export function renderFlame(root, model, sel, nav, state) {
  select('body').selectAll('.d3-flame-graph-tip').remove(); // the previous render's
  const metric = (state && state.metric) || 'cycles';
  const cyc = metric === 'cycles';
  const unit = cyc ? 'cycles' : (METRICS.find((m) => m.key === metric) || { label: metric }).label;
  const tree = model.metricTree(sel, metric);
  const fns = new Map(model.functions(sel).map((f) => [f.name, f]));
  const total = model.total(sel, metric);
  const p = panel(root, `Flame graph — ${model.label(sel)}${cyc ? '' : ` — ${unit}`}`,
    'Exact calling contexts: every frame is a call path, its width the <b>exact cycles</b> spent with that path on the stack ' +
    '(from <code>stacks.folded</code>). Click a frame to zoom in, click the root to zoom out; hover for exact cycles; ' +
    'interrupt handlers sit on an <code>&lt;interrupt&gt;</code> frame above the code they interrupted, <code>wait</code> time is <code>&lt;idle&gt;</code>.' +
    (cyc ? '' : `<br><b>Metric: ${esc(unit)}.</b> Each function's frames add up to its exact count (summary.json); ` +
      'events are counted per function, not per call path, so a function\'s count is split over its call paths in proportion to its cycles there.'));
  if (!tree.children.length) {
    p.append('div').attr('class', 'np-empty').text('No calling contexts were recorded (run without --no-profile).');
    return;
  }
  const frame = flameFrame(p, 'flame');

  const sampleText = (name) => {
    const f = fns.get(name);
    if (!f || !model.periods.length) return '';
    return model.periods.map((per) => `samples @${fmtInt(Number(per))}: <b>${fmtInt(f.samples[per] || 0)}</b>`).join(' · ');
  };
  const label = (d) => {
    const name = d.data.name;
    const f = fns.get(name);
    let h = `<b>${esc(name)}</b><br>${cyc ? 'exact cycles' : esc(unit)}: <b>${fmtInt(d.value)}</b> (${fmtPct(d.value / total)} of ${esc(model.label(sel))})`;
    h += `<br>self in this context: ${fmtInt(d.data.value)}`;
    if (f) {
      h += `<br>function: ${fmtInt(f.calls)} calls, ${fmtInt(f.self)} self / ${fmtInt(f.incl)} inclusive cycles`;
      if (!cyc) h += `<br>function's own ${esc(unit)}: <b>${fmtInt(model.value(f, metric))}</b>`;
      const s = sampleText(name);
      if (s) h += `<br>${s}`;
    }
    return h;
  };
  const chart = flameChart(frame, label)
    .setColorMapper((d, original) => (d.highlight ? '#d62ad6' : colour(d.data.name)))
    .setSearchHandler((results, sum, totalValue) => {
      frame.details.text(frame.input.node().value
        ? `search "${frame.input.node().value}": ${results.length} frames, ${fmtInt(sum)} of ${fmtInt(totalValue)} ${cyc ? 'cycles' : unit} (${fmtPct(sum / totalValue)})`
        : '');
    })
    .onClick((d) => nav.flameClick && nav.flameClick(d));
  flameShow(frame, chart, tree, 'flame');
  p.append('div').attr('class', 'np-legend').html(
    `<span><span class="sw" style="background:hsl(25,85%,62%)"></span>function</span>` +
    `<span><span class="sw" style="background:#8fb3e8"></span>&lt;interrupt&gt; and other pseudo-functions</span>` +
    `<span><span class="sw" style="background:#c9ced8"></span>&lt;idle&gt; (wait)</span>` +
    `<span><span class="sw" style="background:#d62ad6"></span>search match</span>` +
    `<span>total: <b>${fmtInt(total)}</b> ${esc(unit)}</span>`);
}
