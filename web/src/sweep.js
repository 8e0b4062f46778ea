// SPDX-License-Identifier: GPL-2.0-or-later
// sweep.html (nocprof sweep): per axis, cycles against the axis's values,
// one series per core (and per tracked function and core); a sortable
// table of the runs with links to each run's report.html. The data
// document is {"sweep": ...} (sweep.json, cli/sweep_collect.c).
import { select, scaleLinear, scalePoint, axisBottom, axisLeft, line, schemeTableau10, extent } from 'd3';
import { esc, fmtInt, panel, sortableTable, tip } from './util.js';

// Numeric axis when every value is a number, else categorical (in order).
const numeric = (values) => values.every((v) => v !== '' && Number.isFinite(Number(v)));

// Points of one series: for each run, (its value on axis a, y(run)); runs
// with the same value on a (other axes differ) are all drawn, and the line
// joins their means.
function series(sweep, a, label, y) {
  const pts = [];
  for (const r of sweep.runs) {
    const v = y(r);
    if (v === null || v === undefined || v < 0) continue;
    pts.push({ x: r.values[a], y: v, run: r });
  }
  const byX = new Map();
  for (const p of pts) {
    if (!byX.has(p.x)) byX.set(p.x, []);
    byX.get(p.x).push(p.y);
  }
  const order = sweep.axes[a].values;
  const mean = order.filter((x) => byX.has(x)).map((x) => ({ x, y: byX.get(x).reduce((s, v) => s + v, 0) / byX.get(x).length }));
  return { label, pts, mean };
}

function chart(parent, sweep, a, title, all) {
  const p = panel(parent, title);
  const W = 640, H = 260, M = { l: 80, r: 150, t: 10, b: 40 };
  const svg = p.append('svg').attr('class', 'np-sweep-chart').attr('viewBox', `0 0 ${W} ${H}`)
    .attr('width', W).attr('height', H).attr('data-axis', sweep.axes[a].key);
  const vals = sweep.axes[a].values;
  const isNum = numeric(vals);
  const x = isNum
    ? scaleLinear().domain(extent(vals.map(Number))).nice().range([M.l, W - M.r])
    : scalePoint().domain(vals).range([M.l, W - M.r]).padding(0.5);
  const X = (v) => (isNum ? x(Number(v)) : x(v));
  const ys = all.flatMap((s) => s.pts.map((q) => q.y));
  // the data's own range (differences between runs are usually small)
  let [lo, hi] = ys.length ? extent(ys) : [0, 1];
  if (lo === hi) { lo = Math.max(0, lo - Math.max(1, lo * 0.01)); hi += Math.max(1, hi * 0.01); }
  const y = scaleLinear().domain([lo, hi]).nice().range([H - M.b, M.t]);
  svg.append('g').attr('transform', `translate(0,${H - M.b})`).call(axisBottom(x).ticks ? axisBottom(x).ticks(6) : axisBottom(x));
  svg.append('g').attr('transform', `translate(${M.l},0)`).call(axisLeft(y).ticks(5).tickFormat((v) => fmtInt(v)));
  svg.append('text').attr('x', (M.l + W - M.r) / 2).attr('y', H - 6).attr('text-anchor', 'middle').attr('class', 'np-axis-label').text(sweep.axes[a].key);
  const t = tip();
  all.forEach((s, i) => {
    const color = schemeTableau10[i % 10];
    const g = svg.append('g').attr('class', 'np-series').attr('data-series', s.label);
    g.append('path').datum(s.mean).attr('fill', 'none').attr('stroke', color).attr('stroke-width', 1.5)
      .attr('d', line().x((d) => X(d.x)).y((d) => y(d.y)));
    g.selectAll('circle').data(s.pts).join('circle').attr('r', 3.5).attr('fill', color)
      .attr('cx', (d) => X(d.x)).attr('cy', (d) => y(d.y))
      // axis values (firmware file names) and --track names are text
      .on('mouseover', (ev, d) => t.show(ev, `${esc(s.label)}<br>${sweep.axes.map((ax, k) => `${esc(ax.key)} = ${esc(d.run.values[k])}`).join('<br>')}<br><b>${fmtInt(d.y)}</b> cycles · run ${d.run.run}`))
      .on('mouseout', () => t.hide());
    svg.append('text').attr('x', W - M.r + 10).attr('y', M.t + 14 + 16 * i).attr('fill', color).attr('class', 'np-legend').text(s.label);
  });
}

function table(parent, sweep) {
  const p = panel(parent, 'Runs', 'Click a header to sort; each run links to its own report.html.');
  const cols = [
    { key: 'run', label: 'run', value: (r) => r.run },
    ...sweep.axes.map((ax, a) => ({ key: `axis${a}`, label: ax.key, text: !numeric(ax.values), value: (r) => (numeric(ax.values) ? Number(r.values[a]) : r.values[a]) })),
    { key: 'status', label: 'status', value: (r) => r.status, fmt: (v) => (v === null ? 'missing' : String(v)) },
  ];
  for (let c = 0; c < sweep.cores; c++) cols.push({ key: `c${c}`, label: `core${c} cycles`, cls: 'num', fmt: fmtInt, value: (r) => r.cores[c]?.cycles ?? null });
  for (const f of sweep.track) {
    for (let c = 0; c < sweep.cores; c++) cols.push({ key: `t:${f}:${c}`, label: `${f} core${c}`, cls: 'num', fmt: fmtInt, value: (r) => r.track[f]?.[c] ?? null });
  }
  cols.push({ key: 'report', label: 'report', text: true, value: (r) => r.dir, html: (r) => `<a href="${encodeURI(r.dir)}/report.html">${r.dir}</a>` });
  sortableTable(p, cols, sweep.runs, { cls: 'np-sweep-table' });
}

export function startSweep(sweep) {
  const app = select('#app');
  const top = app.append('header').attr('class', 'np-top');
  top.append('h1').text('nocprof sweep');
  const failed = sweep.runs.filter((r) => r.status !== 0).length;
  top.append('span').attr('class', 'np-sub')
    .text(`${sweep.runs.length} runs · ${sweep.axes.map((a) => `${a.key} × ${a.values.length}`).join(' · ')} · ${failed} not status 0`);
  document.title = 'nocprof sweep';
  const main = app.append('main').attr('class', 'np-main');
  sweep.axes.forEach((ax, a) => {
    const cores = [];
    for (let c = 0; c < sweep.cores; c++) cores.push(series(sweep, a, `core${c}`, (r) => r.cores[c]?.cycles));
    chart(main, sweep, a, `Cycles per core against ${ax.key}`, cores);
    for (const f of sweep.track) {
      const fs = [];
      for (let c = 0; c < sweep.cores; c++) fs.push(series(sweep, a, `${f} core${c}`, (r) => r.track[f]?.[c]));
      chart(main, sweep, a, `Self cycles of ${f} against ${ax.key}`, fs);
    }
  });
  table(main, sweep);
}
