// SPDX-License-Identifier: GPL-2.0-or-later
// Annotated source with a heat column (per-line exact counts and cycles).
import { fmtInt, fmtPct, hex, esc, panel } from './util.js';
import { interpolateYlOrRd } from 'd3';
import { METRICS } from './model.js';

// Functions of a core (or of the chip, summed by name and address) with
// their instructions: {name, address, cycles, insns: [{addr,count,cycles,samples,file,line,dis}]}.
function sourceFunctions(model, sel) {
  const src = model.data.source;
  if (!src) return [];
  const key = 'src' + sel;
  if (model.cache.has(key)) return model.cache.get(key);
  const byName = new Map();
  const cores = sel === 'chip' ? src.cores.filter(Boolean) : [src.cores[sel]].filter(Boolean);
  for (const c of cores) {
    for (const f of c.functions) {
      let g = byName.get(f.name);
      if (!g) { g = { name: f.name, address: f.address, cycles: 0, insns: new Map() }; byName.set(f.name, g); }
      for (const [addr, count, cycles, samples, file, line, dis] of f.insns) {
        const i = g.insns.get(addr) || { addr, count: 0, cycles: 0, samples: 0, file, line, dis };
        i.count += count; i.cycles += cycles; i.samples += samples;
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

// Per source file: the line span of the function and each line's data.
function lineSpans(fn, files) {
  const spans = new Map();
  for (const i of fn.insns) {
    if (i.file < 0 || !i.line) continue;
    let s = spans.get(i.file);
    if (!s) { s = { file: i.file, lo: i.line, hi: i.line, lines: new Map() }; spans.set(i.file, s); }
    s.lo = Math.min(s.lo, i.line); s.hi = Math.max(s.hi, i.line);
    const l = s.lines.get(i.line) || { count: 0, cycles: 0, samples: 0, insns: 0 };
    l.count = Math.max(l.count, i.count); l.cycles += i.cycles; l.samples += i.samples; l.insns++;
    s.lines.set(i.line, l);
  }
  return [...spans.values()].filter((s) => files[s.file] && files[s.file].text);
}

export function renderSource(root, model, sel, nav, state) {
  const fns = sourceFunctions(model, sel);
  const files = model.data.source ? model.data.source.files : [];
  const p = panel(root, `Annotated source — ${model.label(sel)}`,
    '<i>count</i>: executions of the line (its most executed instruction); <i>cycles</i>: exact cycles of its instructions ' +
    '(each basic block\'s cycles spread over its instructions, as in <code>annotated.txt</code>); <i>samples</i>: first sampling period. ' +
    'The heat column is the line\'s share of the function\'s cycles. Functions without line information show their disassembly.' +
    ((state && state.metric && state.metric !== 'cycles')
      ? `<br><b id="src-cycles-only">This view shows cycles only</b>: the page holds ${esc((METRICS.find((m) => m.key === state.metric) || { label: state.metric }).label)} ` +
        'per function (its own count is in the header); per line they are in <code>annotated.txt</code> with <code>--events</code> and in <code>callgrind.out</code>.'
      : ''));
  if (!fns.length) { p.append('div').attr('class', 'np-empty').text('No per-line data (run without --no-profile).'); return; }
  if (!state.srcFunction || !fns.find((f) => f.name === state.srcFunction)) state.srcFunction = fns[0].name;
  const grid = p.append('div').attr('class', 'np-split');
  const list = grid.append('div').attr('class', 'np-list').attr('id', 'src-list');
  const right = grid.append('div');
  const drawList = () => list.selectAll('div.item').data(fns, (f) => f.name).join('div')
    .attr('class', (f) => 'item' + (f.name === state.srcFunction ? ' selected' : ''))
    .attr('data-name', (f) => f.name)
    .html((f) => `<span>${esc(f.name)}</span><span class="n">${fmtInt(f.cycles)}</span>`)
    .on('click', (ev, f) => { state.srcFunction = f.name; drawList(); draw(); });
  const draw = () => {
    right.selectAll('*').remove();
    const fn = fns.find((f) => f.name === state.srcFunction);
    const spans = lineSpans(fn, files);
    const asm = state.srcAsm || !spans.length;
    const head = right.append('div').attr('class', 'np-toolbar');
    head.append('span').attr('class', 'np-fn-head').attr('id', 'src-name').text(fn.name);
    const metric = state.metric && state.metric !== 'cycles' ? state.metric : null;
    const mf = metric ? model.fn(sel, fn.name) : null;
    head.append('span').attr('class', 'np-note').attr('id', 'src-head')
      .text(`${hex(fn.address)} · ${fmtInt(fn.cycles)} cycles` + (mf ? ` · own ${(METRICS.find((m) => m.key === metric) || { label: metric }).label}: ${fmtInt(model.value(mf, metric))}` : ''));
    if (spans.length)
      head.append('button').attr('id', 'src-asm').text(asm ? 'Show source' : 'Show disassembly')
        .on('click', () => { state.srcAsm = !state.srcAsm; draw(); });
    head.append('button').text('Call graph').on('click', () => nav.openFunction(fn.name));
    const heat = (c) => (fn.cycles ? c / fn.cycles : 0);
    const heatCell = (c) => (c ? `<span style="width:${Math.max(2, Math.round(56 * heat(c)))}px;background:${interpolateYlOrRd(0.25 + 0.75 * heat(c))}"></span>` : '');
    const t = right.append('table').attr('class', 'np-src').attr('id', 'src-table');
    if (asm) {
      t.append('tr').html('<th>count</th><th>cycles</th><th>samples</th><th class="left">heat</th><th class="left">address</th><th class="left">instruction</th><th class="left">line</th>');
      for (const i of fn.insns) {
        t.append('tr').attr('class', i.count ? 'code' : 'code never')
          .html(`<td class="num count">${i.count ? fmtInt(i.count) : '#####'}</td><td class="num cycles">${fmtInt(i.cycles)}</td>` +
            `<td class="num">${i.samples || ''}</td><td class="heat">${heatCell(i.cycles)}</td><td class="num">${hex(i.addr)}</td>` +
            `<td class="src">${esc(i.dis)}</td><td class="num">${i.line ? (files[i.file]?.path.split('/').pop() || '') + ':' + i.line : ''}</td>`);
      }
      return;
    }
    t.append('tr').html('<th>line</th><th>count</th><th>cycles</th><th>samples</th><th class="left">heat</th><th class="left">source</th>');
    for (const s of spans) {
      const text = files[s.file].text;
      t.append('tr').html(`<td colspan="6" class="src" style="padding-top:6px;color:#5b6475;font-family:var(--sans)">${esc(files[s.file].path)}</td>`);
      for (let ln = s.lo; ln <= s.hi; ln++) {
        const l = s.lines.get(ln);
        const hot = l && heat(l.cycles) >= 0.1;
        t.append('tr').attr('class', (l ? (l.count ? 'code' : 'code never') : 'nocode') + (hot ? ' hot' : '')).attr('data-line', ln)
          .html(`<td class="num">${ln}</td><td class="num count">${l ? (l.count ? fmtInt(l.count) : '#####') : ''}</td>` +
            `<td class="num cycles">${l ? fmtInt(l.cycles) : ''}</td><td class="num">${l && l.samples ? fmtInt(l.samples) : ''}</td>` +
            `<td class="heat" title="${l ? fmtPct(heat(l.cycles)) : ''}">${l ? heatCell(l.cycles) : ''}</td><td class="src">${esc(text[ln - 1] ?? '')}</td>`);
      }
    }
  };
  drawList();
  draw();
}
