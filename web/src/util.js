// SPDX-License-Identifier: GPL-2.0-or-later
// Small helpers shared by the views.
import { select } from 'd3';

const intFmt = new Intl.NumberFormat('en-US');
export const fmtInt = (v) => (v === null || v === undefined ? '' : intFmt.format(v));
export const fmtPct = (v, digits = 2) => (Number.isFinite(v) ? (100 * v).toFixed(digits) + '%' : '');
export const hex = (v) => '0x' + (v >>> 0).toString(16).padStart(8, '0');
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

// One floating tooltip for every view (the flame graph has its own).
let tipEl = null;
export function tip() {
  if (!tipEl) tipEl = select('body').append('div').attr('class', 'np-tip').node();
  return {
    show(ev, html) {
      tipEl.innerHTML = html;
      tipEl.style.display = 'block';
      const w = tipEl.offsetWidth, h = tipEl.offsetHeight;
      let x = ev.clientX + 12, y = ev.clientY + 12;
      if (x + w > window.innerWidth) x = ev.clientX - w - 12;
      if (y + h > window.innerHeight) y = ev.clientY - h - 12;
      tipEl.style.left = Math.max(4, x) + 'px';
      tipEl.style.top = Math.max(4, y) + 'px';
    },
    hide() { tipEl.style.display = 'none'; },
  };
}

// d3-flame-graph measures its tooltip while it is still hidden (width 0),
// so near the right or bottom edge it overflows the window: move it back in
// (call from the chart's onHover, after the tooltip is shown).
// It goes to the other side of the pointer, as the library means it to
// (window capture listeners see the pointer before the frame's handler).
let pointer = { x: 0, y: 0 };
const track = (e) => { pointer = { x: e.clientX, y: e.clientY }; };
if (typeof window !== 'undefined') for (const t of ['mouseover', 'mousemove']) window.addEventListener(t, track, true);
export function fitFlameTip() {
  const el = document.querySelector('.d3-flame-graph-tip');
  if (!el) return;
  const r = el.getBoundingClientRect();
  if (r.right > window.innerWidth - 4) {
    el.style.left = '0px'; // its natural width (at the edge it was squeezed)
    const w = el.getBoundingClientRect().width;
    el.style.left = Math.max(4, window.scrollX + pointer.x - w - 8) + 'px';
  }
  if (r.bottom > window.innerHeight - 4) el.style.top = Math.max(4, window.scrollY + pointer.y - el.getBoundingClientRect().height - 8) + 'px';
}

// A sortable table: columns [{key, label, cls, fmt, value(row), desc}], rows.
// Clicking a header sorts by it (numbers descending first); onRow(row) on click.
export function sortableTable(parent, columns, rows, opts = {}) {
  const table = parent.append('table').attr('class', 'np-table ' + (opts.cls || ''));
  const thead = table.append('thead').append('tr');
  const tbody = table.append('tbody');
  let sortKey = opts.sortKey || null;
  let desc = opts.desc !== undefined ? opts.desc : true;
  const val = (c, r) => (c.value ? c.value(r) : r[c.key]);
  // opts.limit: draw the first rows in the sort order, the rest on demand
  // (a firmware of 30,000 functions would otherwise make 30,000 rows)
  let shown = opts.limit || Infinity;
  const more = opts.limit ? parent.append('p').attr('class', 'np-more') : null;
  function render() {
    let data = rows.slice();
    if (sortKey) {
      const c = columns.find((x) => x.key === sortKey);
      data.sort((a, b) => {
        const x = val(c, a), y = val(c, b);
        const r = typeof x === 'string' || typeof y === 'string'
          ? String(x).localeCompare(String(y)) : (x ?? -Infinity) - (y ?? -Infinity);
        return desc ? -r : r;
      });
    }
    thead.selectAll('th').data(columns).join('th')
      .attr('class', (c) => ['sortable', c.cls || '', c.key === sortKey ? (desc ? 'sorted-desc' : 'sorted-asc') : ''].join(' '))
      .attr('data-key', (c) => c.key)
      .attr('title', (c) => c.title || null)
      .text((c) => c.label)
      .on('click', (ev, c) => {
        if (sortKey === c.key) desc = !desc;
        else { sortKey = c.key; desc = !c.text; }
        render();
      });
    const total = data.length;
    data = data.slice(0, shown);
    if (more) {
      more.selectAll('*').remove();
      const rest = total - data.length;
      if (rest > 0) {
        more.append('span').text(`${fmtInt(rest)} more rows not drawn (the filter searches all ${fmtInt(total)}). `);
        more.append('button').attr('class', 'np-more-btn').text(`Show ${fmtInt(Math.min(rest, opts.limit))} more`)
          .on('click', () => { shown += opts.limit; render(); });
      }
    }
    const tr = tbody.selectAll('tr').data(data, (r) => r.name ?? JSON.stringify(r)).join('tr')
      .attr('class', opts.onRow ? 'clickable' : null)
      .attr('data-name', (r) => r.name ?? null)
      .on('click', (ev, r) => opts.onRow && opts.onRow(r));
    tr.order();
    tr.selectAll('td').data((r) => columns.map((c) => ({ c, r }))).join('td')
      .attr('class', (d) => d.c.cls || null)
      .attr('data-key', (d) => d.c.key)
      .html((d) => (d.c.html ? d.c.html(d.r) : esc(d.c.fmt ? d.c.fmt(val(d.c, d.r), d.r) : val(d.c, d.r) ?? '')));
  }
  render();
  return table;
}

export function panel(parent, title, note) {
  const p = parent.append('section').attr('class', 'np-panel');
  if (title) p.append('h2').text(title);
  if (note) p.append('p').attr('class', 'np-note').html(note);
  return p;
}
