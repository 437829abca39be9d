import { sharedModules } from './import-graph.js';
const m = await sharedModules();
for (const mod of m) {
  const from = /^shared\/([^/]+)\//.exec(mod.source)?.[1];
  if (!from) continue;
  for (const d of mod.dependencies) {
    const t = /^shared\/([^/]+)\/(.+)$/.exec(d.resolved);
    if (!t || t[1] === from || t[1] === 'platform') continue;
    if (t[2] === 'index.ts') continue;
    console.log(`${mod.source} -> ${d.resolved}`);
  }
}
