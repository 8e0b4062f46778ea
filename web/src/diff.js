// SPDX-License-Identifier: GPL-2.0-or-later
// diff.html (nocprof diff OUT_A OUT_B): per view (the chip, every core) a
// differential flame graph of both runs' exact calling contexts and the
// function table, sortable; a metric selector switches the cards, the
// table and the flame graph to one event (the function's own instructions'
// counts, as diff.txt's events table; in the flame graph split over each
// function's call paths by its cycles there). The data document is
// {"diff": ...} (cli/diff.c).
import { select } from 'd3';
import { fmtInt, fmtPct, esc, panel, sortableTable } from './util.js';
import { flameFrame, flameChart, flameShow } from './flame.js';
import { unfoldName, apportionInts } from './model.js';

// "+1,234" / "-56" / "0"
export const fmtDelta = (v) => (v > 0 ? '+' : '') + fmtInt(v);
// B / A with 4 decimals (as diff.txt); '-' when A is 0
const fmtRatio = (a, b) => (a ? (b / a).toFixed(4) : '-');
const pctChange = (a, b) => (a ? ` (${b >= a ? '+' : ''}${fmtPct((b - a) / a)})` : '');

// diff.folded: "core0;main;f CYCLES_A CYCLES_B" per line.
export function parseDiffFolded(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^(.*) (\d+) (\d+)$/.exec(line);
    if (m) out.push({ frames: m[1].split(';').map(unfoldName), a: Number(m[2]), b: Number(m[3]) });
  }
  return out;
}

// Tree of a view: node.a / node.b = cycles whose whole stack is exactly
// that path in A / B, incA / incB = with the path on the stack (inclusive),
// delta = b - a (d3-flame-graph's computeDelta sums it into d.delta).
export function diffTree(stacks, view) {
  const root = { name: view === 'chip' ? 'chip' : `core${view}`, a: 0, b: 0, children: [] };
  const kids = new Map([[root, new Map()]]);
  for (const s of stacks) {
    if (view !== 'chip' && s.frames[0] !== `core${view}`) continue;
    let node = root;
    for (const name of view === 'chip' ? s.frames : s.frames.slice(1)) {
      const m = kids.get(node);
      let child = m.get(name);
      if (!child) {
        child = { name, a: 0, b: 0, children: [] };
        node.children.push(child);
        m.set(name, child);
        kids.set(child, new Map());
      }
      node = child;
    }
    node.a += s.a;
    node.b += s.b;
  }
  sumTree(root);
  return root;
}

// incA / incB (inclusive) and delta of every node from its self a and b.
function sumTree(n) {
  n.incA = n.a;
  n.incB = n.b;
  for (const c of n.children) {
    sumTree(c);
    n.incA += c.incA;
    n.incB += c.incB;
  }
  n.delta = n.b - n.a; // self: computeDelta sums it
}

// The tree of a view for an event (metric: its key): per core, each
// function's own count in A (in B) split over its frames in proportion to
// their self cycles in A (in B), largest remainders, so a function's frames
// add up to its exact count on each side (events are counted per function,
// not per calling context: as report.html's flame graph of an event).
// Frames of functions without a row (pseudo-frames) and the roots get none.
export function diffMetricTree(stacks, view, views, metric) {
  const root = diffTree(stacks, view);
  const tops = view === 'chip' ? root.children.map((c) => [c.name.slice(4), c]) : [[view, root]];
  for (const [core, top] of tops) {
    const cv = views.find((x) => x.view === core);
    const m = cv ? metricOf(cv, metric) : null;
    const rows = new Map((cv ? cv.rows : []).map((r) => [r.name, m.row(r)]));
    const byFn = new Map();
    const walk = (n) => {
      if (n !== top) { if (!byFn.has(n.name)) byFn.set(n.name, []); byFn.get(n.name).push(n); }
      n.children.forEach(walk);
    };
    walk(top);
    for (const side of ['a', 'b']) {
      top[side] = 0;
      for (const [name, nodes] of byFn) {
        const parts = apportionInts(nodes.map((n) => n[side]), rows.has(name) ? rows.get(name)[side] : 0);
        nodes.forEach((n, i) => { n[side] = parts[i]; });
      }
    }
  }
  root.a = 0;
  root.b = 0;
  sumTree(root);
  return root;
}

// The events any view has (views list theirs: misses only where counted).
function diffMetrics(views) {
  const out = [{ key: 'cycles', label: 'cycles' }];
  for (const v of views) for (const e of v.events || []) if (!out.some((m) => m.key === e.key)) out.push(e);
  return out;
}

// A view's metric: {a, b} totals and per row; cycles: self cycles.
function metricOf(v, key) {
  const i = (v.events || []).findIndex((e) => e.key === key);
  const at = (arr) => (i >= 0 && arr ? arr[i] || 0 : 0);
  const ev = (v.events || [])[i] || { key, column: key, label: key };
  return { ev, total: { a: at(v.ev_a), b: at(v.ev_b) }, row: (r) => ({ a: at(r.ev_a), b: at(r.ev_b) }) };
}

function header(app, diff, views, state, render) {
  const top = app.append('header').attr('class', 'np-top');
  top.append('h1').text('nocprof diff');
  const base = (p) => String(p).split('/').filter(Boolean).pop() || p;
  top.append('span').attr('class', 'np-sub').text(`A: ${base(diff.a)}  →  B: ${base(diff.b)}`);
  top.append('span').attr('class', 'np-spacer');
  top.append('label').attr('for', 'view-select').text('View');
  const sel = top.append('select').attr('id', 'view-select');
  sel.selectAll('option').data(views).join('option').attr('value', (v) => v.view)
    .text((v) => v.label + (v.only ? ` (only in ${v.only})` : ''));
  sel.property('value', state.view);
  sel.on('change', () => { state.view = sel.property('value'); render(); });
  top.append('label').attr('for', 'diff-metric').text('Metric');
  const msel = top.append('select').attr('id', 'diff-metric');
  msel.selectAll('option').data(diffMetrics(views)).join('option').attr('value', (m) => m.key)
    .text((m) => m.label);
  msel.property('value', state.metric);
  msel.on('change', () => { state.metric = msel.property('value'); render(); });
  return { sel, msel };
}

function cards(root, diff, v, metric) {
  const box = root.append('div').attr('class', 'np-cards').attr('id', 'diff-cards');
  const card = (k, val, cls) => box.append('div').attr('class', 'np-card').html(`<div class="k">${k}</div><div class="v ${cls || ''}">${val}</div>`);
  const m = metric === 'cycles' ? null : metricOf(v, metric);
  const a = m ? m.total.a : v.cycles_a, b = m ? m.total.b : v.cycles_b, unit = m ? esc(m.ev.column) : 'cycles';
  const d = b - a;
  card(`A ${unit}`, fmtInt(a));
  card(`B ${unit}`, fmtInt(b));
  card('delta', fmtDelta(d) + esc(pctChange(a, b)), d > 0 ? 'bad' : d < 0 ? 'good' : '');
  card('ratio B/A', fmtRatio(a, b));
  root.append('p').attr('class', 'np-note')
    .html(`A: <code>${esc(diff.a)}</code> (${esc([...new Set(diff.elf_a)].join(', '))})<br>` +
      `B: <code>${esc(diff.b)}</code> (${esc([...new Set(diff.elf_b)].join(', '))})`);
}

// Colour of a frame by its inclusive change from A to B: red slower, blue
// faster, the deeper the larger the change relative to the larger side;
// grey unchanged, orange only in B, the search colour when highlighted.
// (d3-flame-graph's differentialColorMapper starts its scale at 235 while
// unchanged frames are 220, so a change of ~6% is drawn exactly grey and a
// small speed-up yellowish: this scale starts at a visible tint.)
export function diffColour(a, b) {
  if (a === b) return 'rgb(220,220,220)';
  if (!a) return 'rgb(255,190,90)';
  const v = Math.abs(b - a) / Math.max(a, b);
  const k = 15 + Math.round(185 * (1 - v));
  return b > a ? `rgb(235,${k},${k})` : `rgb(${k},${k},235)`;
}

function frameColour(d, original) {
  return d.highlight ? original : diffColour(d.data.incA, d.data.incB);
}

function renderDiffFlame(root, stacks, views, v, state, table) {
  select('body').selectAll('.d3-flame-graph-tip').remove(); // the previous render's
  const cyc = state.metric === 'cycles';
  const ev = cyc ? null : metricOf(v, state.metric);
  const unit = cyc ? 'cycles' : ev.ev.key; // numbers' unit; the title has the label
  const tree = cyc ? diffTree(stacks, v.view) : diffMetricTree(stacks, v.view, views, state.metric);
  const evNote = cyc ? '' : `<br><b id="dflame-metric">Metric: ${esc(ev.ev.label)} (${esc(unit)}).</b> Each function's frames add up to its exact ` +
    `count in A and in B (its own instructions', as the table); events are counted per function, not per calling context, ` +
    `so a function's count is split over its call paths in proportion to its cycles there on that side. Red: more in B, blue: fewer.`;
  const p = panel(root, `Differential flame graph — ${v.label}${cyc ? '' : ` — ${esc(ev.ev.label)}`}`,
    `Both runs' exact calling contexts merged: a frame is a call path, its width the ${cyc ? '<b>exact cycles</b>' : `${esc(unit)} (below)`} of that path ` +
    'in B (or in A, see <i>widths</i>), its colour the change from A to B: <b style="color:#c62828">red</b> ' + (cyc ? 'slower' : 'more') + ', ' +
    '<b style="color:#1f5fbf">blue</b> ' + (cyc ? 'faster' : 'fewer') + ', the deeper the larger the change relative to the frame, grey unchanged, ' +
    `orange only in B. Frames that ran on one side only are visible with that side's widths. Hover for the exact A and B ${esc(unit)} ` +
    'and the delta; click to zoom.' + evNote);
  if (!tree.children.length) {
    p.append('div').attr('class', 'np-empty').text('No calling contexts in either run.');
    return;
  }
  const frame = flameFrame(p, 'dflame');
  frame.bar.append('label').attr('for', 'dflame-width').text('widths');
  const widthSel = frame.bar.append('select').attr('id', 'dflame-width');
  widthSel.selectAll('option').data([['b', 'B (after)'], ['a', 'A (before)']]).join('option')
    .attr('value', (d) => d[0]).text((d) => d[1]);
  widthSel.property('value', state.widths);
  const rows = new Map(v.rows.map((r) => [r.name, r]));
  const label = (d) => {
    const n = d.data;
    const dl = n.incB - n.incA;
    let h = `<b>${esc(n.name)}</b><br>A: <b>${fmtInt(n.incA)}</b> ${esc(unit)} · B: <b>${fmtInt(n.incB)}</b> ${esc(unit)}` +
      `<br>delta: <b>${fmtDelta(dl)}</b>${esc(pctChange(n.incA, n.incB))}` +
      `<br>self in this context: A ${fmtInt(n.a)} · B ${fmtInt(n.b)} · delta ${fmtDelta(n.b - n.a)}`;
    const r = rows.get(n.name);
    if (r) {
      h += `<br>function: calls A ${fmtInt(r.calls_a)} · B ${fmtInt(r.calls_b)}; self A ${fmtInt(r.self_a)} · B ${fmtInt(r.self_b)}`;
      if (!cyc) h += ` cycles; own ${esc(unit)} A ${fmtInt(ev.row(r).a)} · B ${fmtInt(ev.row(r).b)}`;
      if (!r.in_a || !r.in_b) h += ` <span class="np-badge warn">only in ${r.in_a ? 'A' : 'B'}</span>`;
    }
    return h;
  };
  const key = state.widths;
  const chart = flameChart(frame, label)
    .computeDelta(true)
    .getValue((d) => (d.data ? d.value : d[key])) // data objects, and the nodes searchTree sums
    .setColorMapper(frameColour)
    .setSearchHandler((results) => {
      const term = frame.input.node().value;
      const set = new Set(results);
      const top = results.filter((d) => { for (let q = d.parent; q; q = q.parent) if (set.has(q)) return false; return true; });
      const sa = top.reduce((s, d) => s + d.data.incA, 0), sb = top.reduce((s, d) => s + d.data.incB, 0);
      frame.details.text(term ? `search "${term}": ${results.length} frames, A ${fmtInt(sa)} → B ${fmtInt(sb)} ${unit} (delta ${fmtDelta(sb - sa)})` : '');
    });
  const search = flameShow(frame, chart, tree, 'dflame');
  if (state.search) { frame.input.node().value = state.search; search(state.search); }
  widthSel.on('change', () => { state.widths = widthSel.property('value'); state.search = frame.input.node().value; table.rerender(); });
  p.append('div').attr('class', 'np-legend').html(
    `<span><span class="sw" style="background:${diffColour(2, 3)}"></span>${cyc ? 'slower' : 'more'} in B</span>` +
    `<span><span class="sw" style="background:${diffColour(3, 2)}"></span>${cyc ? 'faster' : 'fewer'} in B</span>` +
    `<span><span class="sw" style="background:rgb(255,190,90)"></span>only in B</span>` +
    `<span><span class="sw" style="background:rgb(220,220,220)"></span>unchanged</span>` +
    `<span><span class="sw" style="background:#E600E6"></span>search match</span>` +
    `<span>total: A <b>${fmtInt(tree.incA)}</b> · B <b>${fmtInt(tree.incB)}</b> ${esc(unit)}</span>`);
  return { search: (name) => { frame.input.node().value = name; search(name); frame.box.node().scrollIntoView(); } };
}

// The table for an event: its A, B, change and ratio per function (its own
// instructions), then calls; sorted by the absolute change, as diff.txt
// --metric ranks.
function renderEventTable(root, v, flame, metric) {
  const m = metricOf(v, metric);
  const col = esc(m.ev.column);
  const p = panel(root, `Functions — ${v.label} — ${esc(m.ev.label)}`,
    `Exact counts of <b>${esc(m.ev.label)}</b> of each function's own instructions (events are self counts: no ` +
    'inclusive column) in A and B, matched by function name, sorted by the absolute change (as <code>diff.txt --metric ' +
    `${esc(m.ev.key)}</code>). Click a column to sort, a row to find the function in the flame graph.`);
  const rows = v.rows.map((r) => {
    const x = m.row(r);
    return { ...r, ev_a: x.a, ev_b: x.b, dev: x.b - x.a, dcalls: r.calls_b - r.calls_a };
  });
  const maxAbs = rows.reduce((mx, r) => Math.max(mx, Math.abs(r.dev)), 1);
  const dHtml = (x) => `<span class="${x > 0 ? 'up' : x < 0 ? 'down' : 'same'}">${fmtDelta(x)}</span>`;
  const cols = [
    { key: 'change', label: `|Δ ${m.ev.column}|`, value: (r) => Math.abs(r.dev), title: `absolute change of ${m.ev.label}`,
      html: (r) => `<span class="np-bar ${r.dev > 0 ? 'slower' : 'faster'}" style="width:${Math.round(60 * Math.abs(r.dev) / maxAbs)}px"></span>` },
    { key: 'ev_a', label: `${m.ev.column} A`, fmt: fmtInt },
    { key: 'ev_b', label: `${m.ev.column} B`, fmt: fmtInt },
    { key: 'dev', label: `Δ ${m.ev.column}`, html: (r) => dHtml(r.dev), cls: 'delta' },
    { key: 'rev', label: 'ratio', value: (r) => (r.ev_a ? r.ev_b / r.ev_a : null), fmt: (x) => (x === null ? '-' : x.toFixed(4)),
      title: `${col} B / ${col} A` },
    { key: 'calls_a', label: 'calls A', fmt: fmtInt },
    { key: 'calls_b', label: 'calls B', fmt: fmtInt },
    { key: 'dcalls', label: 'Δ calls', html: (r) => dHtml(r.dcalls), cls: 'delta' },
    { key: 'name', label: 'function', cls: 'name', text: true,
      html: (r) => `<a class="fn-link">${esc(r.name)}</a>` + (!r.in_a || !r.in_b ? ` <span class="np-badge warn only">only in ${r.in_a ? 'A' : 'B'}</span>` : '') },
  ];
  tableWithFilter(p, cols, rows, flame);
}

function tableWithFilter(p, cols, rows, flame) {
  const bar = p.append('div').attr('class', 'np-toolbar');
  const filter = bar.append('input').attr('type', 'search').attr('id', 'diff-filter').attr('placeholder', 'Filter by name…');
  const holder = p.append('div');
  const draw = () => {
    holder.selectAll('*').remove();
    const t = filter.node().value.toLowerCase();
    sortableTable(holder, cols, rows.filter((r) => r.name.toLowerCase().includes(t)),
      { sortKey: 'change', cls: 'np-diff', onRow: (r) => flame && flame.search(r.name) });
  };
  filter.on('input', draw);
  draw();
  const onlyA = rows.filter((r) => r.in_a && !r.in_b).map((r) => r.name);
  const onlyB = rows.filter((r) => r.in_b && !r.in_a).map((r) => r.name);
  p.append('p').attr('class', 'np-note').attr('id', 'diff-only')
    .text(`only in A: ${onlyA.join(' ') || '(none)'} · only in B: ${onlyB.join(' ') || '(none)'}`);
}

function renderDiffTable(root, v, flame) {
  const p = panel(root, `Functions — ${v.label}`,
    'Exact self and inclusive cycles and calls in A and B, matched by function name, sorted by the absolute change of ' +
    'self cycles (as <code>diff.txt</code>). Click a column to sort, a row to find the function in the flame graph.');
  const rows = v.rows.map((r) => ({ ...r, dself: r.self_b - r.self_a, dincl: r.incl_b - r.incl_a, dcalls: r.calls_b - r.calls_a }));
  const maxAbs = rows.reduce((m, r) => Math.max(m, Math.abs(r.dself)), 1);
  const ratio = (a, b) => (a ? b / a : null);
  const dHtml = (v) => `<span class="${v > 0 ? 'up' : v < 0 ? 'down' : 'same'}">${fmtDelta(v)}</span>`;
  const fmtR = (x) => (x === null ? '-' : x.toFixed(4));
  const cols = [
    { key: 'change', label: '|Δ self|', value: (r) => Math.abs(r.dself), title: 'absolute change of self cycles',
      html: (r) => `<span class="np-bar ${r.dself > 0 ? 'slower' : 'faster'}" style="width:${Math.round(60 * Math.abs(r.dself) / maxAbs)}px"></span>` },
    { key: 'self_a', label: 'self A', fmt: fmtInt },
    { key: 'self_b', label: 'self B', fmt: fmtInt },
    { key: 'dself', label: 'Δ self', html: (r) => dHtml(r.dself), cls: 'delta' },
    { key: 'rself', label: 'ratio', value: (r) => ratio(r.self_a, r.self_b), fmt: fmtR, title: 'self B / self A' },
    { key: 'incl_a', label: 'incl A', fmt: fmtInt },
    { key: 'incl_b', label: 'incl B', fmt: fmtInt },
    { key: 'dincl', label: 'Δ incl', html: (r) => dHtml(r.dincl), cls: 'delta' },
    { key: 'rincl', label: 'ratio', value: (r) => ratio(r.incl_a, r.incl_b), fmt: fmtR, title: 'inclusive B / inclusive A' },
    { key: 'calls_a', label: 'calls A', fmt: fmtInt },
    { key: 'calls_b', label: 'calls B', fmt: fmtInt },
    { key: 'dcalls', label: 'Δ calls', html: (r) => dHtml(r.dcalls), cls: 'delta' },
    { key: 'name', label: 'function', cls: 'name', text: true,
      html: (r) => `<a class="fn-link">${esc(r.name)}</a>` + (!r.in_a || !r.in_b ? ` <span class="np-badge warn only">only in ${r.in_a ? 'A' : 'B'}</span>` : '') },
  ];
  tableWithFilter(p, cols, rows, flame);
}

export function startDiff(diff) {
  const stacks = parseDiffFolded(diff.folded || '');
  const views = diff.views || [];
  const state = { view: 'chip', widths: 'b', search: '', metric: 'cycles' };
  // opens on diff --metric's event (every view has the non-cache ones)
  if (diffMetrics(views).some((x) => x.key === diff.metric)) state.metric = diff.metric;
  const m = /^#(chip|\d+)$/.exec(window.location.hash);
  if (m && views.some((v) => v.view === m[1])) state.view = m[1];
  const app = select('#app');
  let sel = null, msel = null;
  const main = app.append('main').attr('class', 'np-main').attr('id', 'view');
  const render = () => {
    const v = views.find((x) => x.view === state.view) || views[0];
    state.view = v.view;
    main.selectAll('*').remove();
    cards(main, diff, v, state.metric);
    const table = { rerender: render };
    const flame = renderDiffFlame(main, stacks, views, v, state, table);
    if (state.metric === 'cycles') renderDiffTable(main, v, flame);
    else renderEventTable(main, v, flame, state.metric);
    state.search = '';
    try { window.history.replaceState(null, '', `#${state.view}`); } catch (e) { /* not allowed here */ }
    document.body.dataset.view = state.view;
    document.body.dataset.metric = state.metric;
  };
  ({ sel, msel } = header(app, diff, views, state, render));
  app.node().insertBefore(app.select('header').node(), main.node());
  document.title = `nocprof diff — ${diff.a} → ${diff.b}`;
  window.nocprofDiff = { diff, state, render, select: (view) => { state.view = String(view); sel.property('value', state.view); render(); },
    setMetric: (m) => { state.metric = m; msel.property('value', m); render(); } };
  render();
}
