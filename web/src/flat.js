// Flat profile (gprof -p) as a sortable table.
import { fmtInt, fmtPct, panel, sortableTable, esc } from './util.js';

export function renderFlat(root, model, sel, nav) {
  const total = model.totalCycles(sel);
  const fns = model.functions(sel).filter((f) => f.calls || f.self || f.incl || Object.values(f.samples).some((n) => n));
  const p = panel(root, `Flat profile — ${model.label(sel)}`,
    'Exact cycles counted by the emulator; <i>samples</i> are the timer-tick histogram of each sampling period. ' +
    'Click a column to sort, a row to open the function in the call graph.');
  const bar = p.append('div').attr('class', 'np-toolbar');
  const filter = bar.append('input').attr('type', 'search').attr('id', 'flat-filter').attr('placeholder', 'Filter by name…');
  const maxSelf = fns.reduce((m, f) => Math.max(m, f.self), 1);
  const cols = [
    { key: 'pct', label: '% time', value: (f) => f.self / total, fmt: (v) => fmtPct(v), title: 'self cycles / all cycles' },
    { key: 'bar', label: '', value: (f) => f.self, html: (f) => `<span class="np-bar" style="width:${Math.round(60 * f.self / maxSelf)}px"></span>` },
    { key: 'self', label: 'self cycles', fmt: fmtInt },
    { key: 'incl', label: 'inclusive cycles', fmt: fmtInt, title: 'self + callees, measured with a shadow call stack' },
    { key: 'calls', label: 'calls', fmt: (v, f) => (v ? fmtInt(v) + (f.recursive ? ` (${fmtInt(v - f.recursive)}+${fmtInt(f.recursive)})` : '') : '') },
    { key: 'spc', label: 'self/call', value: (f) => (f.calls ? f.self / f.calls : null), fmt: (v) => (v === null ? '' : v.toFixed(1)) },
    { key: 'ipc', label: 'total/call', value: (f) => (f.calls ? f.incl / f.calls : null), fmt: (v) => (v === null ? '' : v.toFixed(1)) },
    { key: 'instructions', label: 'instructions', fmt: fmtInt },
    ...model.periods.map((per) => ({ key: 's' + per, label: `samples @${per}`, value: (f) => f.samples[per] || 0, fmt: fmtInt })),
    { key: 'name', label: 'name', cls: 'name', text: true, html: (f) => `<a class="fn-link">${esc(f.name)}</a>` },
  ];
  const holder = p.append('div');
  const draw = () => {
    holder.selectAll('*').remove();
    const t = filter.node().value.toLowerCase();
    sortableTable(holder, cols, fns.filter((f) => f.name.toLowerCase().includes(t)),
      { sortKey: 'self', cls: 'np-flat', limit: 500, onRow: (f) => nav.openFunction(f.name) });
  };
  filter.on('input', draw);
  draw();
  p.append('p').attr('class', 'np-note').text(`All cycles: ${fmtInt(total)}. Pseudo-functions: <idle> (wait), <interrupt> (caller of interrupt handlers), <unknown> (outside every symbol).`);
}
