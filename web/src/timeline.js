// SPDX-License-Identifier: GPL-2.0-or-later
// The run's timeline (trace.json): waits and interrupt handlers per core,
// NoC packets per source node. Canvas, zoom/pan with d3-zoom, axis in cycles.
import { select, scaleLinear, zoom, zoomIdentity } from 'd3';
import { fmtInt, esc, panel, tip } from './util.js';

const COLOURS = { idle: '#b9c1d0', interrupt: '#f08c2e', packet: '#4f7fe0', end: '#b3261e' };

function rowsFromTrace(model) {
  const ev = (model.data.trace && model.data.trace.traceEvents) || [];
  const ncores = model.cores.length;
  const rows = [];
  for (let i = 0; i < ncores; i++) rows.push({ label: `core ${i}`, spans: [], marks: [] });
  const nocRows = new Map();
  for (const e of ev) {
    if (e.ph === 'M') continue;
    const a = e.args || {};
    if (e.pid < ncores) {
      if (e.ph === 'X') rows[e.pid].spans.push({ s: a.start_cycle, n: a.cycles, name: e.name, cat: e.cat });
      else if (e.ph === 'i') rows[e.pid].marks.push({ s: Math.round((e.ts || 0) * model.hz / 1e6), name: e.name, cat: e.cat });
    } else if (e.ph === 'X') {
      // one row per source node (trace.json spreads a node's packets over
      // lanes, threads tid = lane * nodes + src, so that they nest)
      const src = a.src ?? e.tid;
      if (!nocRows.has(src)) nocRows.set(src, { label: `NoC from ${src}`, spans: [], marks: [], noc: true });
      nocRows.get(src).spans.push({ s: a.start_cycle, n: a.cycles, name: e.name, cat: e.cat, words: a.words });
    } else if (e.ph === 'i') {
      rows[0].marks.push({ s: Math.round((e.ts || 0) * model.hz / 1e6), name: e.name, cat: 'note' });
    }
  }
  for (const k of [...nocRows.keys()].sort((a, b) => a - b)) rows.push(nocRows.get(k));
  // Packets of one source overlap: lay them out in lanes.
  for (const r of rows) {
    r.spans.sort((a, b) => a.s - b.s);
    const ends = [];
    for (const sp of r.spans) {
      let lane = ends.findIndex((e) => e <= sp.s);
      if (lane < 0) { lane = ends.length; ends.push(0); }
      ends[lane] = sp.s + sp.n;
      sp.lane = lane;
    }
    r.lanes = Math.max(1, Math.min(ends.length, 4));
  }
  return rows;
}

export function renderTimeline(root, model) {
  const p = panel(root, 'Timeline',
    'From <code>trace.json</code>: per core every <code>wait</code> (grey) and interrupt handler run (orange), per source node every NoC packet ' +
    'from send to full delivery (blue). Scroll to zoom, drag to pan; times are exact cycles.');
  const rows = rowsFromTrace(model);
  if (model.data.trace_dropped)
    p.append('p').attr('class', 'np-note').attr('id', 'tl-trimmed').html(
      `<b>Only the first ${fmtInt(model.data.trace_cut)} cycles are drawn:</b> ${fmtInt(model.data.trace_dropped)} later spans ` +
      'were left out of this page to keep it small; <code>trace.json</code> has them all (open it in Perfetto).');
  let end = 1;
  for (const c of model.cores) end = Math.max(end, c.cycles);
  for (const r of rows) for (const sp of r.spans) end = Math.max(end, sp.s + sp.n);
  if (model.data.trace_dropped) end = Math.max(1, model.data.trace_cut);
  const counts = rows.map((r) => r.spans.length);
  p.append('div').attr('class', 'np-legend').html(
    `<span><span class="sw" style="background:${COLOURS.idle}"></span>wait (idle)</span>` +
    `<span><span class="sw" style="background:${COLOURS.interrupt}"></span>interrupt handler</span>` +
    `<span><span class="sw" style="background:${COLOURS.packet}"></span>packet</span>` +
    `<span><span class="sw" style="background:${COLOURS.end}"></span>core stopped</span>` +
    `<span>${fmtInt(counts.reduce((a, b) => a + b, 0))} spans over ${fmtInt(end)} cycles</span>`);
  const bar = p.append('div').attr('class', 'np-toolbar').style('margin-top', '8px');
  bar.append('button').text('Reset zoom').attr('id', 'tl-reset');
  const info = bar.append('span').attr('class', 'np-note');
  const box = p.append('div').attr('class', 'np-timeline');
  const labelW = 110, laneH = 13, rowPad = 7, axisH = 26;
  const rowY = [];
  let y = axisH;
  for (const r of rows) { rowY.push(y); y += r.lanes * laneH + rowPad * 2; }
  const height = y + 4;
  const width = Math.max(640, box.node().getBoundingClientRect().width || 1000);
  const dpr = window.devicePixelRatio || 1;
  const canvas = box.append('canvas').attr('id', 'timeline').attr('width', width * dpr).attr('height', height * dpr)
    .style('height', height + 'px').node();
  const ctx = canvas.getContext('2d');
  const x0 = scaleLinear([0, end], [labelW, width - 10]);
  let x = x0;
  const t = tip();
  function draw() {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    rows.forEach((r, i) => {
      const yy = rowY[i];
      ctx.fillStyle = i % 2 ? '#fafbfc' : '#fff';
      ctx.fillRect(0, yy, width, r.lanes * laneH + rowPad * 2);
      ctx.save();
      ctx.beginPath(); ctx.rect(labelW, yy, width - labelW, r.lanes * laneH + rowPad * 2); ctx.clip();
      for (const s of r.spans) {
        const a = x(s.s), b = x(s.s + s.n);
        if (b < labelW || a > width) continue;
        ctx.fillStyle = COLOURS[s.cat] || '#7a8599';
        const w = b - a > 3 ? b - a - 1 : Math.max(1, b - a); // a gap between neighbours
        ctx.fillRect(a, yy + rowPad + (s.lane % r.lanes) * laneH, w, laneH - 2);
      }
      for (const m of r.marks) {
        const a = x(m.s);
        ctx.fillStyle = COLOURS.end;
        ctx.fillRect(a - 1, yy + 2, 2, r.lanes * laneH + rowPad * 2 - 4);
      }
      ctx.restore();
      ctx.fillStyle = '#1d2330';
      ctx.fillText(r.label, 8, yy + rowPad + Math.min(r.lanes, 2) * laneH / 2 + 4);
    });
    // axis
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, width, axisH);
    ctx.strokeStyle = '#dfe3ea'; ctx.fillStyle = '#5b6475';
    for (const v of x.ticks(Math.floor((width - labelW) / 110))) {
      const a = x(v);
      if (a < labelW) continue;
      ctx.beginPath(); ctx.moveTo(a, axisH - 6); ctx.lineTo(a, height); ctx.stroke();
      ctx.fillText(fmtInt(v), a + 3, axisH - 10);
    }
    ctx.fillText('cycles', 8, axisH - 10);
    const [d0, d1] = x.domain();
    info.text(`showing cycles ${fmtInt(Math.max(0, Math.round(d0)))} – ${fmtInt(Math.round(d1))}`);
  }
  const z = zoom().scaleExtent([1, Math.max(2, end / 20)]).translateExtent([[labelW, 0], [width - 10, height]])
    .extent([[labelW, 0], [width - 10, height]])
    .on('zoom', (ev) => { x = ev.transform.rescaleX(x0); draw(); });
  select(canvas).call(z);
  bar.select('#tl-reset').on('click', () => select(canvas).call(z.transform, zoomIdentity));
  select(canvas).on('mousemove', (ev) => {
    const rect = canvas.getBoundingClientRect();
    const mx = ev.clientX - rect.left, my = ev.clientY - rect.top;
    const i = rowY.findIndex((yy, k) => my >= yy && my < yy + rows[k].lanes * laneH + rowPad * 2);
    if (i < 0 || mx < labelW) { t.hide(); return; }
    const r = rows[i];
    const c = x.invert(mx), tol = x.invert(mx + 3) - c;
    const lane = Math.floor((my - rowY[i] - rowPad) / laneH);
    const hit = r.spans.find((s) => s.s - tol <= c && c <= s.s + s.n + tol && (s.lane % r.lanes) === lane)
      || r.marks.find((m) => Math.abs(m.s - c) <= tol * 2);
    if (!hit) { t.hide(); return; }
    t.show(ev, `<b>${esc(r.label)}</b>: ${esc(hit.name)}${hit.cat ? ' (' + esc(hit.cat) + ')' : ''}<br>cycle ${fmtInt(hit.s)}` +
      (hit.n !== undefined ? ` … ${fmtInt(hit.s + hit.n)}<br>duration: <b>${fmtInt(hit.n)}</b> cycles` : '') +
      (hit.words !== undefined ? `<br>${hit.words} payload words` : ''));
  }).on('mouseleave', () => t.hide());
  draw();
  if (!rows.some((r) => r.spans.length)) p.append('div').attr('class', 'np-note').text('No waits, interrupts or packets were recorded in this run.');

}
