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

export class Model {
  constructor(data) {
    this.data = data;
    this.summary = data.summary;
    this.cores = data.summary.cores || [];
    const sp = data.summary.config?.profiler?.sample_period;
    this.periods = (Array.isArray(sp) ? sp : sp !== undefined ? [sp] : []).map(String);
    this.hz = data.summary.config?.clock?.hz || 0;
    this.folded = parseFolded(data.folded || '');
    this.cache = new Map();
  }

  label(sel) { return sel === 'chip' ? 'chip (all cores)' : `core ${sel}`; }

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
  flameTree(sel) {
    const key = 't' + sel;
    if (this.cache.has(key)) return this.cache.get(key);
    const root = { name: sel === 'chip' ? 'chip' : `core${sel}`, value: 0, children: [] };
    for (const s of this.folded) {
      if (sel !== 'chip' && s.frames[0] !== `core${sel}`) continue;
      let node = root;
      const frames = sel === 'chip' ? s.frames : s.frames.slice(1);
      for (const name of frames) {
        let child = node.children.find((c) => c.name === name);
        if (!child) { child = { name, value: 0, children: [] }; node.children.push(child); }
        node = child;
      }
      node.value += s.count;
    }
    this.cache.set(key, root);
    return root;
  }

  coreOfSel(sel) { return sel === 'chip' ? null : this.cores[sel]; }
}

// A frame of folded stacks escapes ';' and ' ' as \x3b and \x20 (docs/reports.md
// "Names and escaping"); undone here, the name is summary.json's.
export const unfoldName = (f) => f.replace(/\\x(3b|20)/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

export function parseFolded(text) {
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^(.*) (\d+)$/.exec(line);
    if (m) out.push({ frames: m[1].split(';').map(unfoldName), count: Number(m[2]) });
  }
  return out;
}

function norm(f) {
  return {
    name: f.name, address: f.address, size: f.size, calls: f.calls || 0,
    recursive: f.recursive_calls || 0, self: f.self_cycles || 0, incl: f.inclusive_cycles || 0,
    instructions: f.instructions || 0, samples: { ...(f.samples || {}) },
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
