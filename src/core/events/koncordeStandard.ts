/**
 * Koncorde's own standardizer (koncorde/lib/transform/standardize, not part of its typed API): the
 * form its canonicalization and storage read, which the checks made before Koncorde compiles a
 * filter (koncordeCost.ts, koncordeGeo.ts) walk. In it, `not` only wraps a condition, an `and`/`or`
 * of conditions alone is marked `_isLeaf`, and geo keywords are `{geospatial: {<kind>: {<field>:
 * <shape>}}}` with their points as numbers.
 */

export type StandardFilter = Record<string, unknown> & { _isLeaf?: boolean };

interface Standardizer {
  standardize(filter: unknown): StandardFilter;
}

let standardizer: Standardizer | undefined;

/** The standardized filter, or undefined when Koncorde refuses it (its normalize() then says why). */
export function standardize(filter: unknown): StandardFilter | undefined {
  // (loaded with the first filter: koncorde's native addons take about 0.1 s to load)
  if (standardizer === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const StandardizerClass = require('koncorde/lib/transform/standardize') as new (config: { regExpEngine: string }) => Standardizer;
    standardizer = new StandardizerClass({ regExpEngine: 're2' });
  }
  try {
    return standardizer.standardize(filter);
  } catch {
    return undefined;
  }
}

export const keywordOf = (f: StandardFilter): string => Object.keys(f)[0];

export const childrenOf = (f: StandardFilter): StandardFilter[] => {
  const value = f[keywordOf(f)];
  return Array.isArray(value) ? (value as StandardFilter[]) : [];
};
