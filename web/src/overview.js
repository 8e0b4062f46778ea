// SPDX-License-Identifier: GPL-2.0-or-later
// Overview: the run, per-core status and cycles.
import { fmtInt, fmtPct, esc, panel, sortableTable } from './util.js';

export function renderOverview(root, model, sel, nav) {
  const s = model.summary;
  const cards = root.append('div').attr('class', 'np-cards');
  const total = model.totalCycles('chip');
  const ok = s.exit_status === 0;
  const card = (k, v, cls) => cards.append('div').attr('class', 'np-card').html(`<div class="k">${k}</div><div class="v ${cls || ''}">${v}</div>`);
  card('exit status', fmtInt(s.exit_status ?? ''), ok ? 'good' : 'bad');
  card('cores', fmtInt(model.cores.length));
  card('cycles (all cores)', fmtInt(total));
  card('instructions', fmtInt(model.cores.reduce((a, c) => a + (c.instructions || 0), 0)));
  if (model.hz) card('longest core', `${(Math.max(...model.cores.map((c) => c.cycles)) / model.hz * 1e3).toFixed(3)} ms`);
  if (s.noc) card('NoC packets', fmtInt(s.noc.packets));
  if (s.deadlock) card('deadlock', 'yes', 'bad');

  const p = panel(root, 'Cores', 'Click a core to select it.');
  sortableTable(p, [
    { key: 'id', label: 'core' },
    { key: 'elf', label: 'ELF', cls: 'text', text: true },
    { key: 'status', label: 'status', cls: 'text', text: true,
      html: (c) => `<span class="np-badge ${c.status === 'exited' && !c.exit_code ? 'ok' : 'bad'}">${esc(c.status)}${c.status === 'exited' ? ' ' + c.exit_code : ''}</span>` },
    { key: 'instructions', label: 'instructions', fmt: fmtInt },
    { key: 'cycles', label: 'cycles', fmt: fmtInt },
    { key: 'busy_cycles', label: 'busy', fmt: (v, c) => `${fmtInt(v)} (${fmtPct(v / c.cycles, 1)})` },
    { key: 'idle_cycles', label: 'idle', fmt: fmtInt },
    { key: 'irq_cycles', label: 'interrupt', fmt: fmtInt },
    { key: 'top', label: 'top function (self)', cls: 'name', text: true, value: (c) => topFn(c) },
  ], model.cores.map((c) => ({ ...c, name: String(c.id) })), { sortKey: 'id', desc: false, onRow: (c) => nav.selectCore(c.id) });
  for (const c of model.cores.filter((x) => x.fault)) {
    const f = c.fault;
    const q = panel(root, `Core ${c.id}: ${f.kind} fault`);
    q.append('div').attr('class', 'np-note').text(`at pc ${hex(f.pc)} in ${f.function || '??'} (${f.file || '??'}:${f.line || 0})`);
    // the message keeps its lines (the registers are a table of text)
    q.append('pre').attr('class', 'np-details np-pre').text(f.message);
    if (f.stack) q.append('div').attr('class', 'np-details').text('stack: ' + f.stack.join(' ← '));
    framesPre(q, f.frames);
  }
  // cores stopped while live: a hang (what each waited for, and why), the cycle limit, Ctrl-C
  for (const c of model.cores.filter((x) => x.stop)) {
    const st = c.stop;
    const how = c.status === 'limit' ? 'stopped at the limit' : c.status === 'interrupted' ? 'stopped when interrupted' : 'stuck (deadlock or livelock)';
    const q = panel(root, `Core ${c.id}: ${how}`);
    const w = c.wait;
    q.append('div').attr('class', 'np-note').text(`${w ? doing(w) + ' ' : ''}at pc ${hex(st.pc)} in ${st.function || '??'} (${st.file || '??'}:${st.line || 0})`);
    if (w) {
      const what = w.for === 'receive' ? 'a packet' : w.for === 'transmit' ? `transmit room${w.peer !== null ? ` toward core ${w.peer}` : ''}`
        : w.for === 'memory' ? 'a word of RAM to change' : 'an interrupt';
      q.append('pre').attr('class', 'np-details np-pre').text(`waits for ${what}, at ${hex(w.pc)} in ${w.function || '??'} (${w.file || '??'}:${w.line || 0})${w.why ? '\n' + w.why : ''}`);
    }
    framesPre(q, st.frames);
  }
  const cfg = panel(root, 'Configuration', s.config_file ? `from ${esc(s.config_file)}` : 'built-in defaults');
  const rows = [];
  for (const [g, kv] of Object.entries(s.config || {}))
    for (const [k, v] of Object.entries(kv)) rows.push({ name: `${g}.${k}`, value: Array.isArray(v) ? v.join(',') : String(v) });
  sortableTable(cfg, [{ key: 'name', label: 'key', cls: 'name', text: true }, { key: 'value', label: 'value', cls: 'text', text: true }], rows,
    { sortKey: null });
}

// what a stuck core was doing, as summary.txt says it: asleep in `wait`
// (for a packet or room to send when only those lines could wake it),
// polling an NI, spinning on RAM
function doing(w) {
  if (w.for === 'interrupt') return 'waiting';
  if (w.for === 'memory') return 'spinning';
  if (w.asleep) return w.for === 'receive' ? 'asleep in wait for a packet' : 'asleep in wait for transmit room';
  return 'polling';
}

function topFn(c) {
  const f = (c.functions || []).filter((x) => x.name !== '<idle>').sort((a, b) => b.self_cycles - a.self_cycles)[0];
  return f ? `${f.name} (${fmtPct(f.self_cycles / c.cycles, 1)})` : '';
}

function hex(v) {
  return '0x' + ((v || 0) >>> 0).toString(16).padStart(8, '0');
}

// gdb's backtrace: each frame's pc and source line, innermost first; as
// summary.txt, the innermost 6 and the outermost 3 (summary.json has them all)
function framesPre(q, frames) {
  if (!frames || !frames.length) return;
  let depth = 0;
  const lines = frames.map((x) => {
    const n = x.repeat > 1 ? `#${depth}-${depth + x.repeat - 1}` : `#${depth}`;
    depth += x.repeat;
    if (x.function === '...') return `${n} ... (${x.repeat} frames)`;
    // the CFI unwinder's last entry (--no-profile): where and why it stopped
    if (x.function && x.function.startsWith('<unwinding stopped: ')) return `${n} (${x.function.slice(1, -1)})`;
    const pc = x.pc ? hex(x.pc) : '?';
    return `${n} ${pc} in ${x.function || '??'}${x.file ? ` at ${x.file}:${x.line}` : ''}${x.inlined ? ' (inlined)' : ''}${x.repeat > 1 ? ` (${x.repeat} frames)` : ''}`;
  });
  const shown = lines.length > 10 ? [...lines.slice(0, 6), `... (${lines.length - 9} more entries: summary.json has them)`, ...lines.slice(-3)] : lines;
  q.append('pre').attr('class', 'np-details np-frames').text(shown.join('\n'));
}
