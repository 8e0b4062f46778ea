// SPDX-License-Identifier: GPL-2.0-or-later
// The NoC as a mesh: links coloured by utilisation, routers by stall cycles.
import { select, scaleSequential, interpolateYlOrRd, interpolateBlues, max } from 'd3';
import { fmtInt, fmtPct, panel, sortableTable, tip } from './util.js';

export function renderNoc(root, model) {
  const noc = model.summary.noc;
  const W = model.summary.config?.mesh?.width || 1, H = model.summary.config?.mesh?.height || 1;
  const p = panel(root, `Network on chip — ${W} × ${H} mesh`,
    'Links (one arrow per direction) are coloured by utilisation (flits / cycles), routers by their stall cycles. Hover for figures.');
  if (!noc) { p.append('div').attr('class', 'np-empty').text('No NoC statistics.'); return; }
  const cards = p.append('div').attr('class', 'np-cards');
  const lat = noc.latency || {};
  for (const [k, v] of [['packets', fmtInt(noc.packets)], ['flits', fmtInt(noc.flits)], ['latency p50 / p99', `${fmtInt(lat.p50)} / ${fmtInt(lat.p99)}`],
    ['latency min / max', `${fmtInt(lat.min)} / ${fmtInt(lat.max)}`], ['stall cycles', fmtInt(noc.stall_cycles)]])
    cards.append('div').attr('class', 'np-card').html(`<div class="k">${k}</div><div class="v">${v}</div>`);
  const grid = p.append('div').attr('class', 'np-grid2');
  const left = grid.append('div');
  const cell = 230, pad = 40, rs = 96;
  const svg = left.append('svg').attr('id', 'noc-mesh').attr('width', W * cell + pad).attr('height', H * cell + pad)
    .attr('viewBox', `0 0 ${W * cell + pad} ${H * cell + pad}`).style('max-width', '100%');
  const defs = svg.append('defs');
  const pos = (n) => ({ x: pad / 2 + (n % W) * cell + cell / 2, y: pad / 2 + Math.floor(n / W) * cell + cell / 2 });
  const maxU = max(noc.links || [], (l) => l.utilization) || 1;
  const uCol = scaleSequential([0, maxU], (t) => interpolateYlOrRd(0.15 + 0.85 * t));
  const routers = noc.routers || [];
  const maxS = max(routers, (r) => r.stall_cycles) || 1;
  const sCol = scaleSequential([0, maxS], (t) => interpolateBlues(0.08 + 0.7 * t));
  const t = tip();
  (noc.links || []).forEach((l, i) => {
    const a = pos(l.from), b = pos(l.to);
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const ox = (-dy / len) * 12, oy = (dx / len) * 12;            // each direction on its own side
    const sx = a.x + (dx / len) * (rs / 2 + 6) + ox, sy = a.y + (dy / len) * (rs / 2 + 6) + oy;
    const ex = b.x - (dx / len) * (rs / 2 + 10) + ox, ey = b.y - (dy / len) * (rs / 2 + 10) + oy;
    const colour = l.flits ? uCol(l.utilization) : '#d5d9e0';
    defs.append('marker').attr('id', 'arr' + i).attr('viewBox', '0 0 10 10').attr('refX', 5).attr('refY', 5)
      .attr('markerUnits', 'userSpaceOnUse').attr('markerWidth', 14).attr('markerHeight', 14).attr('orient', 'auto-start-reverse')
      .append('path').attr('d', 'M0,0L10,5L0,10z').attr('fill', colour);
    svg.append('line').attr('class', 'noc-link').attr('data-from', l.from).attr('data-to', l.to)
      .attr('x1', sx).attr('y1', sy).attr('x2', ex).attr('y2', ey)
      .attr('stroke', colour).attr('stroke-width', l.flits ? 3 + 5 * (l.utilization / maxU) : 1.5)
      .attr('marker-end', `url(#arr${i})`)
      .on('mousemove', (ev) => t.show(ev, `link ${l.from} → ${l.to}<br>flits: <b>${fmtInt(l.flits)}</b><br>utilisation: <b>${fmtPct(l.utilization, 3)}</b>`))
      .on('mouseout', () => t.hide());
    svg.append('text').attr('x', (sx + ex) / 2 + ox * 1.6).attr('y', (sy + ey) / 2 + oy * 1.6 + 4).attr('text-anchor', 'middle')
      .attr('font-size', 11).attr('fill', '#5b6475').text(fmtInt(l.flits));
  });
  for (let n = 0; n < W * H; n++) {
    const c = pos(n), r = routers.find((x) => x.node === n) || {};
    const g = svg.append('g').attr('class', 'noc-router').attr('data-node', n)
      .on('mousemove', (ev) => t.show(ev, `router ${n} (core ${n})<br>stall cycles: <b>${fmtInt(r.stall_cycles)}</b><br>` +
        `injection stalls: ${fmtInt(r.inject_stall_cycles)}<br>buffer occupancy mean ${r.occupancy_mean ?? ''}, max ${r.occupancy_max ?? ''}`))
      .on('mouseout', () => t.hide());
    g.append('rect').attr('x', c.x - rs / 2).attr('y', c.y - rs / 2).attr('width', rs).attr('height', rs).attr('rx', 8)
      .attr('fill', sCol(r.stall_cycles || 0)).attr('stroke', '#4a5366').attr('stroke-width', 1.2);
    const dark = (r.stall_cycles || 0) > maxS * 0.6;
    g.append('text').attr('x', c.x).attr('y', c.y - 6).attr('text-anchor', 'middle').attr('font-weight', 600).attr('font-size', 14)
      .attr('fill', dark ? '#fff' : '#1d2330').text(`node ${n}`);
    g.append('text').attr('x', c.x).attr('y', c.y + 14).attr('text-anchor', 'middle').attr('font-size', 11)
      .attr('fill', dark ? '#fff' : '#5b6475').text(`${fmtInt(r.stall_cycles || 0)} stall cyc.`);
  }
  left.append('div').attr('class', 'np-legend').html(
    `<span><span class="sw" style="background:${uCol(0)}"></span>…<span class="sw" style="background:${uCol(maxU)}"></span> link utilisation 0 … ${fmtPct(maxU, 3)}</span>` +
    `<span><span class="sw" style="background:${sCol(0)}"></span>…<span class="sw" style="background:${sCol(maxS)}"></span> router stall cycles 0 … ${fmtInt(maxS)}</span>`);
  const right = grid.append('div');
  right.append('h3').text('Traffic per pair');
  sortableTable(right, [
    { key: 'src', label: 'source' }, { key: 'dst', label: 'destination' },
    { key: 'packets', label: 'packets', fmt: fmtInt }, { key: 'flits', label: 'flits', fmt: fmtInt },
  ], (noc.pairs || []).map((x) => ({ ...x })), { sortKey: 'flits' });
  right.append('h3').text('Packet latency (cycles, injection to full delivery)');
  sortableTable(right, ['min', 'mean', 'p50', 'p95', 'p99', 'max'].map((k) => ({ key: k, label: k, fmt: (v) => (v === undefined ? '' : fmtInt(Math.round(v * 10) / 10)) })), [lat]);
  right.append('h3').text('Routers');
  sortableTable(right, [
    { key: 'node', label: 'node' }, { key: 'stall_cycles', label: 'stall cycles', fmt: fmtInt },
    { key: 'inject_stall_cycles', label: 'injection stalls', fmt: fmtInt },
    { key: 'occupancy_mean', label: 'occupancy mean' }, { key: 'occupancy_max', label: 'occupancy max' },
  ], routers.map((r) => ({ ...r })), { sortKey: 'node', desc: false });
  select(svg.node());
}
