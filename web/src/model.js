// SPDX-License-Identifier: GPL-2.0-or-later
// The run's data (embedded JSON) and what the views derive from it.

// A big data document is embedded zlib-compressed in base64
// (data-encoding="deflate-base64", web/html_report.c): inflated here.
export async function loadData() {
  const el = document.getElementById('nocprof-data');
  if (el.dataset.encoding !== 'deflate-base64') return JSON.parse(el.textContent);
  const bin = Uint8Array.from(atob(el.textContent.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream('deflate'));
  return JSON.parse(await new Response(stream).text());
}

// The metrics of the selector (report.html header): cycles, then the
// per-function events of summary.json (profiler/model/events.h); the cache
// misses only when some function has one.
export const METRICS = [
  { key: 'cycles', label: 'cycles' },
  { key: 'instructions', label: 'instructions' },
  { key: 'loads', label: 'loads' },
  { key: 'stores', label: 'stores' },
  { key: 'branches', label: 'branches' },
  { key: 'cond_branches', label: 'conditional branches' },
  { key: 'indirect_branches', label: 'indirect branches (jr/jalr)' },
  { key: 'stall_cycles', label: 'stall cycles (24k, all causes)' },
  { key: 'i1_misses', label: 'I-cache misses', cache: true },
  { key: 'd1r_misses', label: 'D-cache read misses', cache: true },
  { key: 'd1w_misses', label: 'D-cache write misses', cache: true },
];
const EVENT_KEYS = METRICS.slice(1).map((m) => m.key);

export class Model {
  constructor(data) {
    this.data = data;
    this.summary = data.summary;
    this.cores = data.summary.cores || [];
    const sp = data.summary.config?.profiler?.sample_period;
    this.periods = (Array.isArray(sp) ? sp : sp !== undefined ? [sp] : []).map(String);
    this.hz = data.summary.config?.clock?.hz || 0;
    this.flame = data.flame || { names: [], nodes: [] };
    this.cache = new Map();
  }

  label(sel) { return sel === 'chip' ? 'chip (all cores)' : `core ${sel}`; }

  // The metrics this run has (misses only with the cache model on).
  metrics() {
    const has = (k) => this.cores.some((c) => (c.functions || []).some((f) => events(f)[k]));
    return METRICS.filter((m) => !m.cache || has(m.key));
  }

  // A function's value of metric (self cycles for 'cycles').
  value(f, metric) { return metric === 'cycles' || !metric ? f.self : (f.ev[metric] || 0); }

  // The whole core's (chip's) total of metric: all cycles, or the sum of
  // the functions' counts.
  total(sel, metric) {
    if (metric === 'cycles' || !metric) return this.totalCycles(sel);
    return this.functions(sel).reduce((s, f) => s + (f.ev[metric] || 0), 0);
  }

  totalCycles(sel) {
    if (sel === 'chip') return this.cores.reduce((s, c) => s + c.cycles, 0);
    return this.cores[sel]?.cycles || 0;
  }

  // Functions of a core, or of the chip summed by name (as flat.txt of the chip).
  functions(sel) {
    const key = 'f' + sel;
    if (this.cache.has(key)) return this.cache.get(key);
    const list = sel === 'chip' ? mergeFunctions(this.cores) : (this.cores[sel]?.functions || []).map(norm);
    this.cache.set(key, list);
    return list;
  }

  fn(sel, name) { return this.functions(sel).find((f) => f.name === name); }

  // Callers of name aggregated by caller (call sites listed), callees likewise.
  callers(sel, name) {
    const f = this.fn(sel, name);
    return f ? groupArcs(f.callers.map((a) => ({ ...a, other: a.caller }))) : [];
  }

  callees(sel, name) {
    const out = [];
    for (const g of this.functions(sel))
      for (const a of g.callers) if (a.caller === name) out.push({ ...a, other: g.name });
    return groupArcs(out);
  }

  // Flame graph tree of a core ("coreN" root) or of the chip ("chip" root over
  // the cores); node.value = cycles whose whole stack is exactly that path.
  // data.flame is that tree for the chip, made by the tool from
  // stacks.folded (web/html_flame.c): names, and per node how many nodes
  // before it its parent is (0: a coreN frame), its name's index and its
  // value, parents first.
  flameTree(sel) {
    const key = 't' + sel;
    if (this.cache.has(key)) return this.cache.get(key);
    const root = { name: sel === 'chip' ? 'chip' : `core${sel}`, value: 0, children: [] };
    const { names, nodes } = this.flame;
    const made = new Array(nodes.length / 3);
    for (let i = 0; i < made.length; i++) {
      const parent = nodes[3 * i] ? i - nodes[3 * i] : -1, name = names[nodes[3 * i + 1]], value = nodes[3 * i + 2];
      if (parent < 0) {
        if (sel === 'chip') { made[i] = { name, value, children: [] }; root.children.push(made[i]); }
        else if (name === root.name) { made[i] = root; root.value += value; }
      } else if (made[parent]) {
        made[i] = { name, value, children: [] };
        made[parent].children.push(made[i]);
      }
    }
    this.cache.set(key, root);
    return root;
  }

  // The flame tree of an event: each function's exact count split over its
  // call paths in proportion to its cycles there (largest remainders, so a
  // function's frames add up to its count); the events are counted per
  // function, not per call path. Cores are split separately.
  metricTree(sel, metric) {
    if (metric === 'cycles' || !metric) return this.flameTree(sel);
    const key = `m${sel}/${metric}`;
    if (this.cache.has(key)) return this.cache.get(key);
    const copy = (n) => ({ name: n.name, value: n.value, children: n.children.map(copy) });
    const root = copy(this.flameTree(sel));
    const cores = sel === 'chip' ? root.children.map((c) => [Number(c.name.slice(4)), c]) : [[sel, root]];
    for (const [id, top] of cores) {
      const fns = new Map(this.functions(id).map((f) => [f.name, f]));
      const byFn = new Map();
      const walk = (n) => { if (n !== top) { if (!byFn.has(n.name)) byFn.set(n.name, []); byFn.get(n.name).push(n); } n.children.forEach(walk); };
      walk(top);
      top.value = 0;
      for (const [name, nodes] of byFn) apportion(nodes, fns.get(name) ? (fns.get(name).ev[metric] || 0) : 0);
    }
    if (sel === 'chip') root.value = 0;
    this.cache.set(key, root);
    return root;
  }

  coreOfSel(sel) { return sel === 'chip' ? null : this.cores[sel]; }
}

// A frame of folded stacks escapes ';' and ' ' as \x3b and \x20 (docs/reports.md
// "Names and escaping"); undone here, the name is summary.json's.
export const unfoldName = (f) => f.replace(/\\x(3b|20)/g, (_, h) => String.fromCharCode(parseInt(h, 16)));


// Split count over nodes in proportion to their value (self cycles),
// largest remainders first: the integers add up to count. Nodes with no
// cycles get none (all of it on the first node when none has cycles).
function apportion(nodes, count) {
  const parts = apportionInts(nodes.map((n) => n.value), count);
  nodes.forEach((n, i) => { n.value = parts[i]; });
}

// count split over weights in proportion, largest remainders first (ties:
// the earlier): integers adding up to count; all on the first when every
// weight is 0.
export function apportionInts(weights, count) {
  const w = weights.reduce((s, x) => s + x, 0);
  if (!w) return weights.map((x, i) => (i ? 0 : count));
  const exact = weights.map((x) => (x * count) / w);
  const out = exact.map(Math.floor);
  let left = count - out.reduce((s, x) => s + x, 0);
  const order = out.map((x, i) => i).sort((a, b) => (exact[b] - out[b]) - (exact[a] - out[a]) || a - b);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]]++;
  return out;
}

// summary.json's "cache_misses" object: its keys by metric
const MISSES = { i1_misses: 'i1', d1r_misses: 'd1_read', d1w_misses: 'd1_write' };

function events(f) {
  const ev = {};
  for (const k of EVENT_KEYS) ev[k] = f[k] || 0;
  ev.stall_cycles = Object.values(f.stall_cycles || {}).reduce((s, n) => s + n, 0);
  for (const [k, m] of Object.entries(MISSES)) ev[k] = (f.cache_misses && f.cache_misses[m]) || 0;
  return ev;
}

function norm(f) {
  return {
    name: f.name, address: f.address, size: f.size, calls: f.calls || 0,
    recursive: f.recursive_calls || 0, self: f.self_cycles || 0, incl: f.inclusive_cycles || 0,
    instructions: f.instructions || 0, samples: { ...(f.samples || {}) }, ev: events(f),
    callers: (f.callers || []).map((a) => ({ caller: a.caller, sites: [a.call_site], count: a.count, incl: a.inclusive_cycles })),
  };
}

function mergeFunctions(cores) {
  const byName = new Map();
  for (const c of cores) {
    for (const f0 of c.functions || []) {
      const f = norm(f0);
      const g = byName.get(f.name);
      if (!g) { byName.set(f.name, f); continue; }
      for (const k of ['calls', 'recursive', 'self', 'incl', 'instructions']) g[k] += f[k];
      for (const k of EVENT_KEYS) g.ev[k] += f.ev[k];
      for (const [p, n] of Object.entries(f.samples)) g.samples[p] = (g.samples[p] || 0) + n;
      g.callers.push(...f.callers);
    }
  }
  return [...byName.values()];
}

function groupArcs(arcs) {
  const m = new Map();
  for (const a of arcs) {
    const g = m.get(a.other) || { name: a.other, count: 0, incl: 0, sites: [] };
    g.count += a.count;
    g.incl += a.incl;
    for (const s of a.sites) if (!g.sites.includes(s)) g.sites.push(s);
    m.set(a.other, g);
  }
  return [...m.values()].sort((a, b) => b.incl - a.incl || b.count - a.count);
}
