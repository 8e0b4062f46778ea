// SPDX-License-Identifier: GPL-2.0-or-later
// Flat profile (gprof -p) as a sortable table.
import { fmtInt, fmtPct, panel, sortableTable, esc } from './util.js';
import { METRICS } from './model.js';

export function renderFlat(root, model, sel, nav, state) {
  const metric = (state && state.metric) || 'cycles';
  const cyc = metric === 'cycles';
  const unit = (METRICS.find((m) => m.key === metric) || { label: metric }).label;
  const total = model.total(sel, metric);
  const fns = model.functions(sel).filter((f) => f.calls || f.self || f.incl || Object.values(f.samples).some((n) => n));
  const p = panel(root, `Flat profile — ${model.label(sel)}`,
    'Exact cycles counted by the emulator; <i>samples</i> are the timer-tick histogram of each sampling period. ' +
    'Click a column to sort, a row to open the function in the call graph.');
  const bar = p.append('div').attr('class', 'np-toolbar');
  const filter = bar.append('input').attr('type', 'search').attr('id', 'flat-filter').attr('placeholder', 'Filter by name…');
  const v = (f) => model.value(f, metric);
  const maxSelf = fns.reduce((m, f) => Math.max(m, v(f)), 1);
  const evCols = model.metrics().slice(1).map((m) => ({ key: 'ev-' + m.key, label: m.label, value: (f) => f.ev[m.key] || 0, fmt: fmtInt,
    title: 'exact count of the function\'s own instructions (summary.json)' }));
  const cols = [
    { key: 'pct', label: cyc ? '% time' : `% ${unit}`, value: (f) => v(f) / total, fmt: (x) => fmtPct(x), title: cyc ? 'self cycles / all cycles' : `its ${unit} / all ${unit}` },
    { key: 'bar', label: '', value: (f) => v(f), html: (f) => `<span class="np-bar" style="width:${Math.round(60 * v(f) / maxSelf)}px"></span>` },
    { key: 'self', label: 'self cycles', fmt: fmtInt },
    { key: 'incl', label: 'inclusive cycles', fmt: fmtInt, title: 'self + callees, measured with a shadow call stack' },
    { key: 'calls', label: 'calls', fmt: (v, f) => (v ? fmtInt(v) + (f.recursive ? ` (${fmtInt(v - f.recursive)}+${fmtInt(f.recursive)})` : '') : '') },
    { key: 'spc', label: 'self/call', value: (f) => (f.calls ? f.self / f.calls : null), fmt: (v) => (v === null ? '' : v.toFixed(1)) },
    { key: 'ipc', label: 'total/call', value: (f) => (f.calls ? f.incl / f.calls : null), fmt: (v) => (v === null ? '' : v.toFixed(1)) },
    ...(cyc ? [{ key: 'instructions', label: 'instructions', fmt: fmtInt }] : evCols),
    ...model.periods.map((per) => ({ key: 's' + per, label: `samples @${per}`, value: (f) => f.samples[per] || 0, fmt: fmtInt })),
    { key: 'name', label: 'name', cls: 'name', text: true, html: (f) => `<a class="fn-link">${esc(f.name)}</a>` },
  ];
  const holder = p.append('div');
  const draw = () => {
    holder.selectAll('*').remove();
    const t = filter.node().value.toLowerCase();
    sortableTable(holder, cols, fns.filter((f) => f.name.toLowerCase().includes(t)),
      { sortKey: cyc ? 'self' : 'ev-' + metric, cls: 'np-flat', limit: 500, onRow: (f) => nav.openFunction(f.name) });
  };
  filter.on('input', draw);
  draw();
  p.append('p').attr('class', 'np-note').text(`All ${cyc ? 'cycles' : unit}: ${fmtInt(total)}. Pseudo-functions: <idle> (wait), <interrupt> (caller of interrupt handlers), <unknown> (outside every symbol).`);
}
