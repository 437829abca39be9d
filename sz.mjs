import { build } from 'esbuild';
const entry = process.argv[2];
const r = await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, metafile: true, write: false, mainFields: ['module','main'], logLevel: 'error' });
const out = Object.values(r.metafile.outputs)[0];
console.log('total', (out.bytes/1024).toFixed(1));
const rows = Object.entries(out.inputs).filter(([k]) => !k.includes('node_modules')).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0, Number(process.argv[3]||40));
for (const [k,v] of rows) console.log((v.bytesInOutput/1024).toFixed(1), k);
