// SPDX-License-Identifier: GPL-2.0-or-later
// Bundle the report front end into ONE fragment: <style>CSS</style><script>JS</script>.
// Usage: node build.mjs OUTFILE   (run from web/; CMake does it at build time)
import * as esbuild from 'esbuild';
import { writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUTFILE');
  process.exit(2);
}
const result = await esbuild.build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  outdir: 'out', // names only: nothing is written
  write: false,
  legalComments: 'eof',
  logLevel: 'warning',
});
let js = '';
let css = '';
for (const f of result.outputFiles) {
  if (f.path.endsWith('.js')) js += f.text;
  else if (f.path.endsWith('.css')) css += f.text;
}
if (!js) throw new Error('esbuild produced no JavaScript');
// Neither may close its element early.
js = js.replace(/<\/(script)/gi, '<\\/$1');
if (/<\/style/i.test(css)) throw new Error('CSS contains </style');
const text = `<style>\n${css}</style>\n<script>\n${js}</script>\n`;
writeFileSync(out + '.tmp', text);
renameSync(out + '.tmp', out);
