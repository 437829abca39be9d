import { coldStartTargets, measureBundleSizes } from './cold-start.js';
const names = process.argv.slice(2);
const sizes = measureBundleSizes(coldStartTargets().filter((t) => names.some((n) => t.name.includes(n))));
for (const s of sizes) console.log(s.name, s.overBareKiB, s.budgetKiB);
