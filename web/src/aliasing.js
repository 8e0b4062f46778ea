// SPDX-License-Identifier: GPL-2.0-or-later
// Aliasing: sampled versus exact shares per sampling period (summary.json "aliasing").
import { scaleLinear, scaleBand, scaleOrdinal, schemeTableau10 } from 'd3';
import { fmtPct, fmtInt, esc, panel, sortableTable, tip } from './util.js';

export function renderAliasing(root, model, sel) {
  const al = model.summary.aliasing;
  const p = panel(root, 'Aliasing: can the samples be trusted?',
    'Each sampling period\'s profile is judged against the exact cycles (binomial test per function, chi-square overall). ' +
    'Bars: exact share of self cycles; dots: sampled share per period, whiskers: the band the samples should fall in.');
  if (!al) { p.append('div').attr('class', 'np-empty').text('Only one sampling period was recorded.'); return; }
  const coreIds = sel === 'chip' ? al.cores.map((c) => c.id) : [Number(sel)];
  const periods = al.cores[0]?.periods.map((x) => x.period) || [];
  const colour = scaleOrdinal(periods, schemeTableau10);
  const t = tip();
  for (const id of coreIds) {
    const c = al.cores.find((x) => x.id === id);
    if (!c) continue;
    const sec = p.append('div').attr('class', 'np-alias-core');
    sec.append('h3').text(`core ${id} — recommended period ${fmtInt(c.recommended)}`);
    sortableTable(sec, [
      { key: 'period', label: 'period', fmt: fmtInt }, { key: 'samples', label: 'samples', fmt: fmtInt },
      { key: 'verdict', label: 'verdict', cls: 'text', text: true,
        html: (r) => `<span class="np-badge ${r.aliased ? 'bad' : r.verdict === 'consistent' ? 'ok' : 'warn'}">${esc(r.verdict)}</span>` },
      { key: 'tvd', label: 'total variation', fmt: (v) => (v === undefined ? '' : v.toFixed(3)) },
      { key: 'chi2_p', label: 'chi² p', fmt: (v) => (v === undefined ? '' : v.toPrecision(3)) },
      { key: 'dev', label: 'deviating functions', cls: 'text', text: true, value: (r) => (r.deviating || []).map((d) => d.name ?? d).join(', ') },
    ], c.periods.map((x) => ({ ...x, name: String(x.period) })), { sortKey: 'period', desc: false });
    // chart: top functions by exact share
    const names = [];
    for (const per of c.periods) for (const f of per.functions || []) if (!names.includes(f.name)) names.push(f.name);
    const exact = new Map();
    for (const per of c.periods) for (const f of per.functions || []) exact.set(f.name, f.exact);
    const top = names.sort((a, b) => exact.get(b) - exact.get(a)).slice(0, 12);
    if (!top.length) continue;
    const W = 760, rowH = 26, left = 150, H = top.length * rowH + 30;
    const xmax = Math.min(1, Math.max(...c.periods.flatMap((per) => (per.functions || []).filter((f) => top.includes(f.name))
      .map((f) => Math.max(f.exact, f.sampled, f.band ? f.band[1] : 0)))) * 1.05);
    const x = scaleLinear([0, xmax || 1], [left, W - 20]);
    const y = scaleBand(top, [20, H - 10]).padding(0.25);
    const svg = sec.append('svg').attr('class', 'np-alias-chart').attr('width', W).attr('height', H).style('max-width', '100%');
    for (const v of x.ticks(6)) {
      svg.append('line').attr('x1', x(v)).attr('x2', x(v)).attr('y1', 16).attr('y2', H - 10).attr('stroke', '#eceff3');
      svg.append('text').attr('x', x(v)).attr('y', 12).attr('text-anchor', 'middle').attr('font-size', 10.5).attr('fill', '#5b6475').text(fmtPct(v, 0));
    }
    for (const name of top) {
      svg.append('text').attr('x', left - 8).attr('y', y(name) + y.bandwidth() / 2 + 4).attr('text-anchor', 'end')
        .attr('font-size', 12).attr('font-family', 'monospace').text(name);
      svg.append('rect').attr('x', x(0)).attr('y', y(name)).attr('height', y.bandwidth()).attr('width', x(exact.get(name)) - x(0))
        .attr('fill', '#c9d3e6').attr('rx', 2).on('mousemove', (ev) => t.show(ev, `${esc(name)}: exact share <b>${fmtPct(exact.get(name))}</b>`)).on('mouseout', () => t.hide());
      c.periods.forEach((per, k) => {
        const f = (per.functions || []).find((q) => q.name === name);
        if (!f) return;
        const yy = y(name) + ((k + 1) * y.bandwidth()) / (c.periods.length + 1);
        if (f.band) svg.append('line').attr('x1', x(f.band[0])).attr('x2', x(Math.min(f.band[1], xmax))).attr('y1', yy).attr('y2', yy)
          .attr('stroke', colour(per.period)).attr('stroke-width', 1).attr('opacity', 0.35);
        svg.append('circle').attr('cx', x(f.sampled)).attr('cy', yy).attr('r', 4).attr('fill', colour(per.period))
          .attr('stroke', f.deviates ? '#b3261e' : '#fff').attr('stroke-width', f.deviates ? 2 : 1)
          .on('mousemove', (ev) => t.show(ev, `${esc(name)} @ period ${fmtInt(per.period)}<br>sampled <b>${fmtPct(f.sampled)}</b> (${fmtInt(f.samples)} samples)` +
            `<br>exact ${fmtPct(f.exact)}${f.deviates ? '<br><b>deviates</b>' : ''}`))
          .on('mouseout', () => t.hide());
      });
    }
    sec.append('div').attr('class', 'np-legend').html(periods.map((per) =>
      `<span><span class="sw" style="background:${colour(per)}"></span>period ${fmtInt(per)}</span>`).join('') +
      '<span><span class="sw" style="background:#c9d3e6"></span>exact share</span><span>line: the band a consistent sample falls in</span>');
  }
}
