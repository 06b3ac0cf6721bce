/**
 * `stats` and `extended_stats` (Elasticsearch's InternalStats and InternalExtendedStats):
 * `{count, min, max, avg, sum}` (min, max and avg null and sum 0.0 over no values), and for
 * extended_stats `sum_of_squares`, `variance` (= `variance_population`), `variance_sampling`,
 * `std_deviation` (= `std_deviation_population`), `std_deviation_sampling` and `std_deviation_bounds`
 * {upper, lower, upper_population, lower_population, upper_sampling, lower_sampling} at `sigma`
 * (default 2) standard deviations from the mean; all null over no values. Variances are
 * (sumOfSquares - sum²/count) / count (or count - 1), 0 when rounding makes them negative; over one
 * value the sampling ones are "NaN", as Elasticsearch writes them. Sums use Kahan summation. Dates
 * add `*_as_string` members (min, max, avg, sum; for extended_stats the other figures too, as
 * Elasticsearch prints them, formatted as dates).
 */
import { Steps } from '../budget/budget';
import { hasOwn } from '../json';
import { moments } from './metricValues';
import { jsonDouble } from './numbers';
import { aggBody, at, invalid, readField, readFormat, readMissing, readNumber } from './params';
import { AggResult, Aggregator } from './types';
import { fieldValues, missingValue, valuePrinter } from './values';

export function parseStats(type: 'stats' | 'extended_stats', body: unknown, where: string): Aggregator {
  const obj = aggBody(type, body, where, type === 'stats' ? ['field', 'missing', 'format'] : ['field', 'missing', 'format', 'sigma']);
  const field = readField(type, obj, where);
  const rawMissing = readMissing(type, obj, where);
  const format = readFormat(type, obj, where);
  const sigma = hasOwn(obj, 'sigma') ? readNumber(type, obj, 'sigma', where) : 2;
  if (sigma < 0) throw invalid(`[sigma] must be greater than or equal to 0. Found [${sigma}] in [${type}] (at ${at(where, 'sigma')})`);
  return {
    type,
    *run(docs, ctx): Steps<AggResult> {
      const values = fieldValues(ctx, field, type, ['numeric', 'date', 'boolean']);
      const missing = rawMissing === undefined ? undefined : Number(missingValue(values, rawMissing, at(where, 'missing')));
      const { count, min, max, sum, squares } = yield* moments(values, docs, missing, ctx);
      const printer = valuePrinter(values, format);
      const out: AggResult = { count };
      if (count === 0) {
        Object.assign(out, { min: null, max: null, avg: null, sum: 0 });
        if (type === 'extended_stats') {
          Object.assign(out, { sum_of_squares: null, variance: null, variance_population: null, variance_sampling: null, std_deviation: null, std_deviation_population: null, std_deviation_sampling: null });
          out.std_deviation_bounds = { upper: null, lower: null, upper_population: null, lower_population: null, upper_sampling: null, lower_sampling: null };
        }
        return out;
      }
      const avg = sum.value / count;
      Object.assign(out, { min, max, avg, sum: sum.value });
      if (printer !== null) Object.assign(out, { min_as_string: printer(min), max_as_string: printer(max), avg_as_string: printer(avg), sum_as_string: printer(sum.value) });
      if (type === 'stats') return out;
      const raw = squares.value - (sum.value * sum.value) / count;
      const population = Math.max(0, raw / count);
      const sampling = raw / (count - 1) < 0 ? 0 : raw / (count - 1); // 0/0 stays NaN, as in Elasticsearch
      const sdPopulation = Math.sqrt(population);
      const sdSampling = Math.sqrt(sampling);
      const figures: Record<string, number> = {
        sum_of_squares: squares.value,
        variance: population,
        variance_population: population,
        variance_sampling: sampling,
        std_deviation: sdPopulation,
        std_deviation_population: sdPopulation,
        std_deviation_sampling: sdSampling,
      };
      const bounds: Record<string, number> = {
        upper: avg + sdPopulation * sigma,
        lower: avg - sdPopulation * sigma,
        upper_population: avg + sdPopulation * sigma,
        lower_population: avg - sdPopulation * sigma,
        upper_sampling: avg + sdSampling * sigma,
        lower_sampling: avg - sdSampling * sigma,
      };
      for (const [k, v] of Object.entries(figures)) out[k] = jsonDouble(v);
      out.std_deviation_bounds = Object.fromEntries(Object.entries(bounds).map(([k, v]) => [k, jsonDouble(v)]));
      if (printer !== null) {
        for (const [k, v] of Object.entries(figures)) out[`${k}_as_string`] = printer(v);
        out.std_deviation_bounds_as_string = Object.fromEntries(Object.entries(bounds).map(([k, v]) => [k, printer(v)]));
      }
      return out;
    },
  };
}
