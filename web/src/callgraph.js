// SPDX-License-Identifier: GPL-2.0-or-later
// Call graph: pick a function, see its callers and callees with exact arcs.
// With an event metric the list ranks by the function's own count of it
// and the head shows it; the arcs stay in cycles (events are counted per
// function, not per call), and the page says so.
import { fmtInt, fmtPct, hex, esc, panel } from './util.js';
import { METRICS } from './model.js';

export function renderCallgraph(root, model, sel, nav, state) {
  const total = model.totalCycles(sel);
  const metric = (state && state.metric) || 'cycles';
  const cyc = metric === 'cycles';
  const unit = (METRICS.find((m) => m.key === metric) || { label: metric }).label;
  const evTotal = cyc ? 0 : model.total(sel, metric);
  const fns = model.functions(sel).filter((f) => f.calls || f.self || f.incl || f.callers.length)
    .sort((a, b) => (cyc ? 0 : model.value(b, metric) - model.value(a, metric)) || b.incl + b.self - (a.incl + a.self));
  const p = panel(root, `Call graph — ${model.label(sel)}`,
    'Arcs are exact: every call counted, with the callee\'s inclusive cycles under that arc (shadow call stack). ' +
    'Click a function on the left, or a caller/callee to follow it.' +
    (cyc ? '' : `<br>The list is ranked by each function's own <b>${esc(unit)}</b> (its share of the view's total on the right). ` +
      '<b id="cg-cycles-only">The arcs show cycles only</b>: events are counted per function, not per call.'));
  const grid = p.append('div').attr('class', 'np-split');
  const left = grid.append('div');
  const filter = left.append('div').attr('class', 'np-toolbar').append('input').attr('type', 'search')
    .attr('id', 'cg-filter').attr('placeholder', 'Filter…').style('min-width', '0').style('width', '100%');
  const list = left.append('div').attr('class', 'np-list').attr('id', 'cg-list');
  const right = grid.append('div').attr('id', 'cg-detail');
  if (!state.cgFunction || !fns.find((f) => f.name === state.cgFunction))
    state.cgFunction = (fns.find((f) => f.name === 'main') || fns[0] || {}).name;

  const drawList = () => {
    const t = filter.node().value.toLowerCase();
    list.selectAll('div.item').data(fns.filter((f) => f.name.toLowerCase().includes(t)), (f) => f.name).join('div')
      .attr('class', (f) => 'item' + (f.name === state.cgFunction ? ' selected' : ''))
      .attr('data-name', (f) => f.name)
      .html((f) => `<span>${esc(f.name)}</span><span class="n">${cyc ? fmtPct(Math.max(f.incl, f.self) / total, 1)
        : fmtPct(evTotal ? model.value(f, metric) / evTotal : 0, 1)}</span>`)
      .on('click', (ev, f) => { state.cgFunction = f.name; drawList(); drawDetail(); });
  };
  const arcTable = (parent, id, title, rows, which) => {
    parent.append('h3').text(title);
    if (!rows.length) { parent.append('div').attr('class', 'np-note').attr('id', id).text(which === 'callers' ? '<spontaneous> (no caller arc)' : 'none'); return; }
    const t = parent.append('table').attr('class', 'np-table').attr('id', id);
    t.append('thead').html(`<tr><th class="name">${which === 'callers' ? 'caller' : 'callee'}</th><th>calls</th><th>inclusive cycles</th><th>% of callee</th><th class="text">call sites</th></tr>`);
    t.append('tbody').selectAll('tr').data(rows).join('tr').attr('class', 'clickable')
      .attr('data-name', (r) => r.name)
      .html((r) => {
        const callee = which === 'callers' ? model.fn(sel, state.cgFunction) : model.fn(sel, r.name);
        const share = callee && callee.incl ? r.incl / callee.incl : NaN;
        return `<td class="name"><a class="fn-link">${esc(r.name)}</a></td><td class="count">${fmtInt(r.count)}</td>` +
          `<td class="cycles">${fmtInt(r.incl)}</td><td>${fmtPct(share, 1)}</td>` +
          `<td class="text">${r.sites.filter((s) => s).map(hex).join(', ') || '—'}</td>`;
      })
      .on('click', (ev, r) => { state.cgFunction = r.name; drawList(); drawDetail(); });
  };
  const drawDetail = () => {
    right.selectAll('*').remove();
    const f = model.fn(sel, state.cgFunction);
    if (!f) { right.append('div').attr('class', 'np-empty').text('No function.'); return; }
    right.append('div').attr('class', 'np-fn-head').attr('id', 'cg-name').text(f.name);
    const s = [`${fmtInt(f.calls)} calls` + (f.recursive ? ` (${fmtInt(f.recursive)} recursive)` : ''),
      `self ${fmtInt(f.self)} cycles`, `inclusive ${fmtInt(f.incl)} cycles (${fmtPct(f.incl / total)})`,
      f.address ? `at ${hex(f.address)}` : ''].filter(Boolean).join(' · ');
    right.append('div').attr('class', 'np-note').text(s);
    if (!cyc) right.append('div').attr('class', 'np-note').attr('id', 'cg-metric')
      .text(`own ${unit}: ${fmtInt(model.value(f, metric))}`);
    const links = right.append('div').attr('class', 'np-toolbar');
    links.append('button').text('Show in flame graph').on('click', () => nav.flameSearch(f.name));
    links.append('button').text('Show source').on('click', () => nav.openSource(f.name));
    arcTable(right, 'cg-callers', 'Callers', model.callers(sel, f.name), 'callers');
    arcTable(right, 'cg-callees', 'Callees', model.callees(sel, f.name), 'callees');
  };
  filter.on('input', drawList);
  drawList();
  drawDetail();
  const selected = list.select('div.item.selected').node();
  if (selected) selected.scrollIntoView({ block: 'nearest' });
}
