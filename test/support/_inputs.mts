import { buildSync } from 'esbuild';
const dir = process.argv[2];
const { ESBUILD_OPTIONS } = await import(dir + '/infra/bundles.ts');
const r = buildSync({ ...ESBUILD_OPTIONS, absWorkingDir: dir, sourcemap: false, entryPoints: [process.argv[3]], outdir: '/tmp/bi', write: false, logLevel: 'error' });
const out = Object.values(r.metafile!.outputs)[0];
console.log(JSON.stringify(Object.fromEntries(Object.entries(out.inputs).map(([k, v]) => [k, v.bytesInOutput]))));
