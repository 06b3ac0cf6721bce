/**
 * Decay functions on geo_point fields (DecayFunctionBuilder.GeoFieldDataScoreFunction): the arc
 * distance in metres (SloppyMath.haversinMeters, Elasticsearch's GeoDistance.ARC) from `origin` to
 * each quantized point, less `offset`, never below 0; `scale` and `offset` are distances ("2km",
 * metres by default; offset "0km" by default).
 */
import { ScoreFunction } from '../lucene/query';
import { BuildContext } from '../query/context';
import { DecaySpec, checkedScale, evaluateDecay, selectDistance } from '../query/decay';
import { at, invalid } from '../query/params';
import { hasOwn } from '../json';
import { geoColumn, isGeoPoint } from './geoColumn';
import { decodeLatitude, decodeLongitude, parseDistance } from './geoPoint';
import { queryPoint } from './geoLeaf';
import { haversinMeters } from './sloppyMath';

/** The decay function when its field is a geo_point, else null. */
export function geoDecay(spec: DecaySpec, ctx: BuildContext): Omit<ScoreFunction, 'filter' | 'weight'> | null {
  const { kind, field, params, path, mode } = spec;
  if (!isGeoPoint(ctx.mapping, field)) return null;
  if (!hasOwn(params, 'origin') || !hasOwn(params, 'scale')) throw invalid(`[${kind}] at ${path}: [origin] and [scale] must be set for geo fields`);
  const origin = queryPoint(kind, params.origin, at(path, 'origin'), 'ignore_malformed');
  const distance = (name: string, value: unknown): number => {
    const d = parseDistance(value);
    if (d === null) throw invalid(`[${kind}] at ${at(path, name)}: cannot parse distance ${JSON.stringify(value)}`);
    return d;
  };
  const scale = distance('scale', params.scale);
  const offset = hasOwn(params, 'offset') ? distance('offset', params.offset) : 0;
  const decay = hasOwn(params, 'decay') ? Number(params.decay) : 0.5;
  if (!Number.isFinite(decay)) throw invalid(`[${kind}] "decay" at ${at(path, 'decay')} must be a number`);
  const processed = checkedScale(spec, scale, decay, offset);
  return {
    key: `geodecay${JSON.stringify([kind, field, origin.lat, origin.lon, processed, offset, mode])}`,
    text: `${kind} decay on ${field} (origin ${origin.lat},${origin.lon}, scale ${scale}m, offset ${offset}m, decay ${decay}, ${mode})`,
    bind(index) {
      const column = geoColumn(index, field);
      let scratch = new Float64Array(4);
      return (doc) => {
        const n = column.count(doc);
        if (n === 0) return evaluateDecay(kind, 0, processed);
        if (n > scratch.length) scratch = new Float64Array(n);
        const from = column.starts[doc];
        for (let i = 0; i < n; i++) {
          const meters = haversinMeters(origin.lat, origin.lon, decodeLatitude(column.lats[from + i]), decodeLongitude(column.lons[from + i]));
          scratch[i] = Math.max(0.0, meters - offset);
        }
        if (n > 1) scratch.subarray(0, n).sort();
        return evaluateDecay(kind, selectDistance(mode, scratch, n), processed);
      };
    },
    // a decay is at most its value at distance 0
    maxFactor: () => evaluateDecay(kind, 0, processed),
  };
}
