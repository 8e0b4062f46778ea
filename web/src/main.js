// SPDX-License-Identifier: GPL-2.0-or-later
// nocprof report.html: tabs over the run's embedded data (see docs/reports.md);
// diff.html (data {"diff": ...}) is the comparison of two runs (diff.js),
// sweep.html (data {"sweep": ...}) a sweep's runs (sweep.js).
import './style.css';
import { select } from 'd3';
import { loadData, Model } from './model.js';
import { renderOverview } from './overview.js';
import { renderFlame } from './flame.js';
import { renderFlat } from './flat.js';
import { renderCallgraph } from './callgraph.js';
import { renderSource } from './source.js';
import { renderNoc } from './noc.js';
import { renderTimeline } from './timeline.js';
import { renderAliasing } from './aliasing.js';
import { fmtInt, esc } from './util.js';
import { startDiff } from './diff.js';
import { startSweep } from './sweep.js';

const TABS = [
  { id: 'overview', label: 'Overview', render: renderOverview },
  { id: 'flame', label: 'Flame graph', render: renderFlame },
  { id: 'flat', label: 'Flat profile', render: renderFlat },
  { id: 'callgraph', label: 'Call graph', render: renderCallgraph },
  { id: 'source', label: 'Source', render: renderSource },
  { id: 'noc', label: 'NoC', render: renderNoc, chipOnly: true },
  { id: 'timeline', label: 'Timeline', render: renderTimeline, chipOnly: true },
  { id: 'aliasing', label: 'Aliasing', render: renderAliasing, when: (m) => !!m.summary.aliasing },
];

async function start() {
  const data = await loadData();
  if (data.diff) {
    startDiff(data.diff);
    return;
  }
  if (data.sweep) {
    startSweep(data.sweep);
    return;
  }
  const model = new Model(data);
  const s = model.summary;
  const state = { tab: 'overview', sel: 'chip', metric: 'cycles' };
  // #tab/core in the address keeps the view across reloads
  const fromHash = () => {
    const m = /^#(\w+)\/(chip|\d+)$/.exec(window.location.hash);
    if (!m || !TABS.some((t) => t.id === m[1]) || !(m[2] === 'chip' || Number(m[2]) < model.cores.length)) return false;
    state.tab = m[1];
    state.sel = m[2];
    return true;
  };
  fromHash();
  const app = select('#app');
  const top = app.append('header').attr('class', 'np-top');
  top.append('h1').text('nocprof report');
  const elfs = [...new Set(model.cores.map((c) => c.elf))];
  const mesh = s.config?.mesh ? `${s.config.mesh.width}×${s.config.mesh.height} mesh` : '';
  top.append('span').attr('class', 'np-sub')
    .text(`${elfs.map((e) => e.split('/').pop()).join(', ')} · ${mesh} · ${model.cores.length} cores · ${fmtInt(model.totalCycles('chip'))} cycles · exit ${s.exit_status}`);
  top.append('span').attr('class', 'np-spacer');
  top.append('label').attr('for', 'core-select').text('View');
  const coreSel = top.append('select').attr('id', 'core-select');
  coreSel.selectAll('option').data(['chip', ...model.cores.map((c) => String(c.id))]).join('option')
    .attr('value', (d) => d).text((d) => (d === 'chip' ? 'chip (all cores)' : `core ${d}`));
  coreSel.property('value', state.sel);
  // what the flame graph and the flat profile measure (model.js METRICS)
  top.append('label').attr('for', 'metric-select').text('Metric');
  const metricSel = top.append('select').attr('id', 'metric-select');
  metricSel.selectAll('option').data(model.metrics()).join('option')
    .attr('value', (d) => d.key).text((d) => d.label);
  metricSel.property('value', state.metric);
  document.title = `nocprof — ${elfs.map((e) => e.split('/').pop()).join(', ')}`;
  const nav = app.append('nav').attr('class', 'np-tabs');
  const main = app.append('main').attr('class', 'np-main').attr('id', 'view');
  const tabs = TABS.filter((t) => !t.when || t.when(model));

  const api = {
    selectCore(id) { state.sel = String(id); coreSel.property('value', state.sel); render(); },
    openFunction(name) { state.cgFunction = name; show('callgraph'); },
    openSource(name) { state.srcFunction = name; show('source'); },
    flameSearch(name) {
      show('flame');
      const input = document.getElementById('flame-search');
      if (input) { input.value = name; input.dispatchEvent(new Event('input')); }
    },
    flameClick(d) { state.cgFunction = d.data.name; },
  };
  function show(id) { state.tab = id; render(); }
  function render() {
    const tab = tabs.find((t) => t.id === state.tab) || tabs[0];
    state.tab = tab.id;
    nav.selectAll('button').data(tabs).join('button')
      .attr('class', (t) => (t.id === state.tab ? 'active' : null))
      .attr('data-tab', (t) => t.id)
      .text((t) => t.label)
      .on('click', (ev, t) => show(t.id));
    main.selectAll('*').remove();
    const sel = state.sel === 'chip' ? 'chip' : Number(state.sel);
    try {
      tab.render(main, model, sel, api, state);
    } catch (e) {
      main.append('div').attr('class', 'np-panel').html(`<b>This view failed:</b> ${esc(e.message)}`);
      throw e;
    }
    try { window.history.replaceState(null, '', `#${state.tab}/${state.sel}`); } catch (e) { /* not allowed here */ }
    document.body.dataset.tab = state.tab;
    document.body.dataset.sel = state.sel;
    document.body.dataset.metric = state.metric;
  }
  metricSel.on('change', () => { state.metric = metricSel.property('value'); render(); });
  coreSel.on('change', () => { state.sel = coreSel.property('value'); render(); });
  window.addEventListener('hashchange', () => {
    if (window.location.hash !== `#${state.tab}/${state.sel}` && fromHash()) { coreSel.property('value', state.sel); render(); }
  });
  // the flame graph and the timeline are drawn to the window's width
  let resizeTimer = null;
  let lastWidth = window.innerWidth;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (window.innerWidth !== lastWidth && ['flame', 'timeline'].includes(state.tab)) render();
      lastWidth = window.innerWidth;
    }, 250);
  });
  api.setMetric = (m) => { state.metric = m; metricSel.property('value', m); render(); };
  window.nocprofReport = { model, state, show, api };
  render();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
