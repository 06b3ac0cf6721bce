import { compileRegexp, compileWildcard } from './index';
const time = (label: string, f: () => unknown) => {
  const t0 = performance.now();
  let r: unknown;
  try { r = f(); } catch (e) { r = String(e); }
  const ms = performance.now() - t0;
  console.log(`${label}: ${ms.toFixed(1)}ms ${r instanceof Object && 'size' in r ? (r as any).size : r}`);
};
test('smoke', () => {
  for (let k = 0; k < 2; k++) {
  time('warm', () => compileRegexp('abc.*'));
  time('blowup', () => compileRegexp('(a|b)*a(a|b){20}'));
  time('a999999', () => compileRegexp('a{999999}'));
  time('a10000', () => compileRegexp('a{10000}'));
  time('a0-10000', () => compileRegexp('a{0,10000}'));
  time('nested', () => compileRegexp('((a{100}){100}){100}'));
  time('nested2', () => compileRegexp('((a{10}){10}){100}'));
  time('wild', () => compileWildcard('*a??????????????????????'));
  time('wild2', () => compileWildcard('*a*a*a*a*b'));
  time('class', () => compileRegexp('(.*[' + 'acegikmoqsuwy'.repeat(1) + '0-9]){50}'));
  time('bigclass', () => compileRegexp('.*[' + Array.from({length: 300}, (_, i) => String.fromCharCode(0x100 + 2 * i)).join('') + '].*[' + Array.from({length: 300}, (_, i) => String.fromCharCode(0x101 + 2 * i)).join('') + ']'));
  time('compl', () => compileRegexp('~(.*ab.*)&~(.*cd.*)&.*e.*'));
  time('long', () => compileRegexp('(foo|bar|baz)'.repeat(70)));
  time('dotstar', () => compileRegexp('.*a.*b.*c.*d.*e.*f.*g.*h'));
  time('emptyrep', () => compileRegexp('(()|()){2000000000}'));
  }
});
