/**
 * Numbers as Elasticsearch writes them in aggregation answers: Java's Double.toString for keys
 * ("100.0", "1.0E7": range keys, keyed histogram and percentile keys), Jackson's quoted "NaN" and
 * "Infinity" for values JSON cannot hold (a sampling variance of one value), and Kahan summation
 * for sums, as Elasticsearch's CompensatedSum.
 */

/** Java's Double.toString (shortest digits that read back, as JDK 19+ prints them). */
export function javaDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${exponent.startsWith('+') ? exponent.slice(1) : exponent}`;
}

/** A double as JSON: itself, or the string Jackson writes for NaN and the infinities. */
export function jsonDouble(value: number): number | string {
  return Number.isFinite(value) ? value : javaDouble(value);
}

/** Kahan summation (Elasticsearch's CompensatedSum): what sum, avg and stats add values with. */
export class CompensatedSum {
  value = 0;
  private delta = 0;

  add(x: number): void {
    // as CompensatedSum.add: once the sum is not finite, plain addition
    if (!Number.isFinite(x) || !Number.isFinite(this.value)) {
      this.value += x;
      return;
    }
    const corrected = x - this.delta;
    const next = this.value + corrected;
    this.delta = next - this.value - corrected;
    this.value = next;
  }
}
