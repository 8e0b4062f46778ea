// SPDX-License-Identifier: GPL-2.0-or-later
// Annotated source with a heat column: per line exact counts, cycles and
// the metric selector's event (its count and share of the function's).
import { fmtInt, fmtPct, hex, esc, panel } from './util.js';
import { interpolateYlOrRd } from 'd3';
import { METRICS } from './model.js';

// The events of an instruction from its data: [executions, then the
// source document's "events" after instructions] (web/html_report.c
// append_events: a mask of the events whose count is the executions, then
// event index and count pairs), or null when only its executions.
function insnEvents(count, enc, n) {
  if (!enc) return null;
  const v = new Array(n).fill(0);
  v[0] = count;
  for (let e = 1; e < n; e++) if ((enc[0] >> e) & 1) v[e] = count;
  for (let k = 1; k + 1 < enc.length; k += 2) v[enc[k]] = enc[k + 1];
  return v;
}

function addEvents(to, ev) {
  if (!ev) return to;
  if (!to) return ev.slice();
  for (let e = 0; e < ev.length; e++) to[e] += ev[e];
  return to;
}

// Functions of a core (or of the chip, summed by name and address) with
// their instructions: {name, address, cycles, insns: [{addr,count,cycles,samples,file,line,dis,ev}]};
// ev: the instruction's events in the order of source.events (null: none but its executions).
function sourceFunctions(model, sel) {
  const src = model.data.source;
  if (!src) return [];
  const key = 'src' + sel;
  if (model.cache.has(key)) return model.cache.get(key);
  const n = (src.events || []).length;
  const byName = new Map();
  const cores = sel === 'chip' ? src.cores.filter(Boolean) : [src.cores[sel]].filter(Boolean);
  for (const c of cores) {
    for (const f of c.functions) {
      let g = byName.get(f.name);
      if (!g) { g = { name: f.name, address: f.address, cycles: 0, insns: new Map() }; byName.set(f.name, g); }
      for (const [addr, count, cycles, samples, file, line, dis, enc] of f.insns) {
        const i = g.insns.get(addr) || { addr, count: 0, cycles: 0, samples: 0, file, line, dis, ev: null };
        i.count += count; i.cycles += cycles; i.samples += samples;
        i.ev = addEvents(i.ev, insnEvents(count, enc, n));
        g.insns.set(addr, i);
        g.cycles += cycles;
      }
    }
  }
  const list = [...byName.values()].map((g) => ({ ...g, insns: [...g.insns.values()].sort((a, b) => a.addr - b.addr) }))
    .sort((a, b) => b.cycles - a.cycles);
  model.cache.set(key, list);
  return list;
}

// What an instruction's (or a line's) value of metric is: its cycles, its
// executions (instructions), the four stall causes summed (stall_cycles,
// as the metric selector's), or the event's count.
function metricValue(keys) {
  const stalls = keys.map((k, e) => (k.startsWith('stall_') ? e : -1)).filter((e) => e >= 0);
  return (x, metric) => {
    if (metric === 'cycles') return x.cycles;
    if (metric === 'instructions') return x.execs ?? x.count; // a line: all its instructions'
    if (!x.ev) return 0;
    if (metric === 'stall_cycles') return stalls.reduce((s, e) => s + x.ev[e], 0);
    const e = keys.indexOf(metric);
    return e >= 0 ? x.ev[e] : 0;
  };
}

// Per source file: the line span of the function and each line's data
// (count: its most executed instruction's; cycles, samples, events: sums).
function lineSpans(fn, files) {
  const spans = new Map();
  for (const i of fn.insns) {
    if (i.file < 0 || !i.line) continue;
    let s = spans.get(i.file);
    if (!s) { s = { file: i.file, lo: i.line, hi: i.line, lines: new Map() }; spans.set(i.file, s); }
    s.lo = Math.min(s.lo, i.line); s.hi = Math.max(s.hi, i.line);
    const l = s.lines.get(i.line) || { count: 0, cycles: 0, samples: 0, insns: 0, execs: 0, ev: null };
    l.count = Math.max(l.count, i.count); l.cycles += i.cycles; l.samples += i.samples; l.insns++;
    l.execs += i.count; l.ev = addEvents(l.ev, i.ev);
    s.lines.set(i.line, l);
  }
  return [...spans.values()].filter((s) => files[s.file] && files[s.file].text);
}

export function renderSource(root, model, sel, nav, state) {
  const files = model.data.source ? model.data.source.files : [];
  const value = metricValue((model.data.source && model.data.source.events) || []);
  const metric = (state && state.metric) || 'cycles';
  const cyc = metric === 'cycles';
  const unit = cyc ? 'cycles' : (METRICS.find((m) => m.key === metric) || { label: metric }).label;
  const fns = sourceFunctions(model, sel).map((f) => ({ ...f, total: cyc ? f.cycles : f.insns.reduce((s, i) => s + value(i, metric), 0) }))
    .sort((a, b) => b.total - a.total || b.cycles - a.cycles);
  const p = panel(root, `Annotated source — ${model.label(sel)}${cyc ? '' : ` — ${unit}`}`,
    '<i>count</i>: executions of the line (its most executed instruction); <i>cycles</i>: exact cycles of its instructions ' +
    '(each instruction\'s own: its cost, its waits, misses and a taken branch\'s cost, as in <code>annotated.txt</code>); <i>samples</i>: first sampling period. ' +
    (cyc ? 'The share and the heat column are the line\'s part of the function\'s cycles'
      : `<b>Metric: ${esc(unit)}</b>, the line's count: the sum over its instructions of executions × class (loads, stores, branches), ` +
        'their stall cycles and cache misses, the numbers of <code>annotated.txt --events</code> and <code>callgrind.out</code>; ' +
        `the share and the heat column are the line's part of the function's ${esc(unit)}`) +
    ' (10% or more: highlighted). Functions without line information show their disassembly.');
  if (!fns.length) { p.append('div').attr('class', 'np-empty').text('No per-line data (run without --no-profile).'); return; }
  if (!state.srcFunction || !fns.find((f) => f.name === state.srcFunction)) state.srcFunction = fns[0].name;
  const grid = p.append('div').attr('class', 'np-split');
  const list = grid.append('div').attr('class', 'np-list').attr('id', 'src-list');
  const right = grid.append('div');
  const drawList = () => list.selectAll('div.item').data(fns, (f) => f.name).join('div')
    .attr('class', (f) => 'item' + (f.name === state.srcFunction ? ' selected' : ''))
    .attr('data-name', (f) => f.name)
    .html((f) => `<span>${esc(f.name)}</span><span class="n">${fmtInt(f.total)}</span>`)
    .on('click', (ev, f) => { state.srcFunction = f.name; drawList(); draw(); });
  const draw = () => {
    right.selectAll('*').remove();
    const fn = fns.find((f) => f.name === state.srcFunction);
    const spans = lineSpans(fn, files);
    const asm = state.srcAsm || !spans.length;
    const head = right.append('div').attr('class', 'np-toolbar');
    head.append('span').attr('class', 'np-fn-head').attr('id', 'src-name').text(fn.name);
    const mf = cyc ? null : model.fn(sel, fn.name);
    head.append('span').attr('class', 'np-note').attr('id', 'src-head')
      .text(`${hex(fn.address)} · ${fmtInt(fn.cycles)} cycles` + (cyc ? '' : ` · ${fmtInt(fn.total)} ${unit} on its lines` +
        (mf ? ` · own ${unit}: ${fmtInt(model.value(mf, metric))}` : '')));
    if (spans.length)
      head.append('button').attr('id', 'src-asm').text(asm ? 'Show source' : 'Show disassembly')
        .on('click', () => { state.srcAsm = !state.srcAsm; draw(); });
    head.append('button').text('Call graph').on('click', () => nav.openFunction(fn.name));
    const share = (x) => (fn.total ? value(x, metric) / fn.total : 0);
    const heatCell = (x) => (value(x, metric) ? `<span style="width:${Math.max(2, Math.round(56 * share(x)))}px;background:${interpolateYlOrRd(0.25 + 0.75 * share(x))}"></span>` : '');
    // the metric's own column (cycles have theirs) and its share
    const evTh = (cyc ? '' : `<th class="ev">${esc(unit)}</th>`) + '<th>share</th>';
    const evTd = (x) => (cyc ? '' : `<td class="num ev">${fmtInt(value(x, metric))}</td>`) +
      `<td class="num share">${value(x, metric) ? fmtPct(share(x), 1) : ''}</td>`;
    const t = right.append('table').attr('class', 'np-src').attr('id', 'src-table').attr('data-metric', metric);
    if (asm) {
      t.append('tr').html(`<th>count</th><th>cycles</th>${evTh}<th>samples</th><th class="left">heat</th><th class="left">address</th><th class="left">instruction</th><th class="left">line</th>`);
      for (const i of fn.insns) {
        t.append('tr').attr('class', (i.count ? 'code' : 'code never') + (share(i) >= 0.1 ? ' hot' : '')).attr('data-addr', i.addr)
          .html(`<td class="num count">${i.count ? fmtInt(i.count) : '#####'}</td><td class="num cycles">${fmtInt(i.cycles)}</td>${evTd(i)}` +
            `<td class="num">${i.samples || ''}</td><td class="heat">${heatCell(i)}</td><td class="num">${hex(i.addr)}</td>` +
            `<td class="src">${esc(i.dis)}</td><td class="num">${i.line ? (files[i.file]?.path.split('/').pop() || '') + ':' + i.line : ''}</td>`);
      }
      return;
    }
    const ncol = cyc ? 7 : 8;
    t.append('tr').html(`<th>line</th><th>count</th><th>cycles</th>${evTh}<th>samples</th><th class="left">heat</th><th class="left">source</th>`);
    for (const s of spans) {
      const text = files[s.file].text;
      t.append('tr').html(`<td colspan="${ncol}" class="src" style="padding-top:6px;color:#5b6475;font-family:var(--sans)">${esc(files[s.file].path)}</td>`);
      for (let ln = s.lo; ln <= s.hi; ln++) {
        const l = s.lines.get(ln);
        const hot = l && share(l) >= 0.1;
        t.append('tr').attr('class', (l ? (l.count ? 'code' : 'code never') : 'nocode') + (hot ? ' hot' : '')).attr('data-line', ln)
          .html(`<td class="num">${ln}</td><td class="num count">${l ? (l.count ? fmtInt(l.count) : '#####') : ''}</td>` +
            `<td class="num cycles">${l ? fmtInt(l.cycles) : ''}</td>${l ? evTd(l) : (cyc ? '<td></td>' : '<td></td><td></td>')}` +
            `<td class="num">${l && l.samples ? fmtInt(l.samples) : ''}</td>` +
            `<td class="heat" title="${l ? fmtPct(share(l)) : ''}">${l ? heatCell(l) : ''}</td><td class="src">${esc(text[ln - 1] ?? '')}</td>`);
      }
    }
  };
  drawList();
  draw();
}
