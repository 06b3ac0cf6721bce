/**
 * Lucene's SloppyMath (org.apache.lucene.util), which Elasticsearch's arc distance
 * (GeoUtils.arcDistance) and LatLonPoint's distance query use: haversine distances on a sphere of
 * radius 6,371,008.7714 m with table-based cos and asin. Ported number for number (the tables are
 * filled from fdlibm's sin, cos and asin, which V8's Math functions are too), since a distance
 * sort value or a document on a query's circle must be the one Elasticsearch computes: no npm
 * package reproduces these approximations.
 */

/** Earth's mean radius in metres (GeoUtils.EARTH_MEAN_RADIUS, SloppyMath.TO_METERS). */
export const EARTH_MEAN_RADIUS = 6_371_008.7714;

const scratch = new DataView(new ArrayBuffer(8));
function fromBits(hex: bigint): number {
  scratch.setBigUint64(0, hex);
  return scratch.getFloat64(0);
}
function bitsOf(value: number): bigint {
  scratch.setFloat64(0, value);
  return scratch.getBigUint64(0);
}

const TO_RADIANS = Math.PI / 180;
const ONE_DIV_F2 = 1 / 2.0;
const ONE_DIV_F3 = 1 / 6.0;
const ONE_DIV_F4 = 1 / 24.0;
const PIO2_HI = fromBits(0x3ff921fb54400000n);
const PIO2_LO = fromBits(0x3dd0b4611a626331n);
const TWOPI_HI = 4 * PIO2_HI;
const TWOPI_LO = 4 * PIO2_LO;
const SIN_COS_TABS_SIZE = (1 << 11) + 1;
const SIN_COS_DELTA_HI = TWOPI_HI / (SIN_COS_TABS_SIZE - 1);
const SIN_COS_DELTA_LO = TWOPI_LO / (SIN_COS_TABS_SIZE - 1);
const SIN_COS_INDEXER = 1 / (SIN_COS_DELTA_HI + SIN_COS_DELTA_LO);
const SIN_COS_MAX_VALUE_FOR_INT_MODULO = ((2147483647 >> 9) / SIN_COS_INDEXER) * 0.99;
const ASIN_MAX_VALUE_FOR_TABS = Math.sin(73.0 * TO_RADIANS);
const ASIN_TABS_SIZE = (1 << 13) + 1;
const ASIN_DELTA = ASIN_MAX_VALUE_FOR_TABS / (ASIN_TABS_SIZE - 1);
const ASIN_INDEXER = 1 / ASIN_DELTA;
const ASIN_PIO2_HI = fromBits(0x3ff921fb54442d18n);
const ASIN_PIO2_LO = fromBits(0x3c91a62633145c07n);
// fdlibm's asin coefficients pS0..pS5 and qS1..qS4
const [ASIN_PS0, ASIN_PS1, ASIN_PS2, ASIN_PS3, ASIN_PS4, ASIN_PS5] = [0x3fc5555555555555n, 0xbfd4d61203eb6f7dn, 0x3fc9c1550e884455n, 0xbfa48228b5688f3bn, 0x3f49efe07501b288n, 0x3f023de10dfdf709n].map(fromBits);
const [ASIN_QS1, ASIN_QS2, ASIN_QS3, ASIN_QS4] = [0xc0033a271c8a2d4bn, 0x40002ae59c598ac8n, 0xbfe6066c1b8d0159n, 0x3fb3b8c5b12e9282n].map(fromBits);

const sinTab = new Float64Array(SIN_COS_TABS_SIZE);
const cosTab = new Float64Array(SIN_COS_TABS_SIZE);
const asinTab = new Float64Array(ASIN_TABS_SIZE);
const asinDer1DivF1Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer2DivF2Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer3DivF3Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer4DivF4Tab = new Float64Array(ASIN_TABS_SIZE);
{
  const piIndex = (SIN_COS_TABS_SIZE - 1) / 2;
  for (let i = 0; i < SIN_COS_TABS_SIZE; i++) {
    const angle = i * SIN_COS_DELTA_HI + i * SIN_COS_DELTA_LO;
    let sinAngle = Math.sin(angle);
    let cosAngle = Math.cos(angle);
    if (i === piIndex || i === 2 * piIndex) sinAngle = 0.0;
    else if (i === Math.trunc(piIndex / 2) || i === Math.trunc((3 * piIndex) / 2)) cosAngle = 0.0;
    sinTab[i] = sinAngle;
    cosTab[i] = cosAngle;
  }
  for (let i = 0; i < ASIN_TABS_SIZE; i++) {
    const x = i * ASIN_DELTA;
    asinTab[i] = Math.asin(x);
    const oneMinusXSqInv = 1.0 / (1 - x * x);
    const oneMinusXSqInv0_5 = Math.sqrt(oneMinusXSqInv);
    const oneMinusXSqInv1_5 = oneMinusXSqInv0_5 * oneMinusXSqInv;
    const oneMinusXSqInv2_5 = oneMinusXSqInv1_5 * oneMinusXSqInv;
    const oneMinusXSqInv3_5 = oneMinusXSqInv2_5 * oneMinusXSqInv;
    asinDer1DivF1Tab[i] = oneMinusXSqInv0_5;
    asinDer2DivF2Tab[i] = x * oneMinusXSqInv1_5 * ONE_DIV_F2;
    asinDer3DivF3Tab[i] = (1 + 2 * x * x) * oneMinusXSqInv2_5 * ONE_DIV_F3;
    asinDer4DivF4Tab[i] = (5 + 2 * x * (2 + x * (5 - 2 * x))) * oneMinusXSqInv3_5 * ONE_DIV_F4;
  }
}

/** SloppyMath.cos. */
export function sloppyCos(a: number): number {
  if (a < 0.0) a = -a;
  if (a > SIN_COS_MAX_VALUE_FOR_INT_MODULO) return Math.cos(a);
  let index = Math.trunc(a * SIN_COS_INDEXER + 0.5);
  const delta = a - index * SIN_COS_DELTA_HI - index * SIN_COS_DELTA_LO;
  index &= SIN_COS_TABS_SIZE - 2;
  const indexCos = cosTab[index];
  const indexSin = sinTab[index];
  return indexCos + delta * (-indexSin + delta * (-indexCos * ONE_DIV_F2 + delta * (indexSin * ONE_DIV_F3 + delta * indexCos * ONE_DIV_F4)));
}

/** SloppyMath.asin. */
export function sloppyAsin(a: number): number {
  let negate = false;
  if (a < 0.0) {
    a = -a;
    negate = true;
  }
  let result: number;
  if (a <= ASIN_MAX_VALUE_FOR_TABS) {
    const index = Math.trunc(a * ASIN_INDEXER + 0.5);
    const delta = a - index * ASIN_DELTA;
    result = asinTab[index] + delta * (asinDer1DivF1Tab[index] + delta * (asinDer2DivF2Tab[index] + delta * (asinDer3DivF3Tab[index] + delta * asinDer4DivF4Tab[index])));
  } else if (a < 1.0) {
    const t = (1.0 - a) * 0.5;
    const p = t * (ASIN_PS0 + t * (ASIN_PS1 + t * (ASIN_PS2 + t * (ASIN_PS3 + t * (ASIN_PS4 + t * ASIN_PS5)))));
    const q = 1.0 + t * (ASIN_QS1 + t * (ASIN_QS2 + t * (ASIN_QS3 + t * ASIN_QS4)));
    const s = Math.sqrt(t);
    const z = s + s * (p / q);
    result = ASIN_PIO2_HI - (z + z - ASIN_PIO2_LO);
  } else if (a === 1.0) {
    result = Math.PI / 2;
  } else {
    return NaN;
  }
  return negate ? -result : result;
}

/** A double's two 32-bit halves, to clear its low bits without a BigInt; which half is the low one depends on the platform's byte order. */
const maskScratch = new Float64Array(1);
const maskWords = new Uint32Array(maskScratch.buffer);
const LOW_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** The double with the low 3 bits of its representation cleared (`Double.longBitsToDouble(bits & 0xFFFFFFFFFFFFFFF8L)`). */
function clobber(h: number): number {
  maskScratch[0] = h;
  maskWords[LOW_WORD] &= 0xfffffff8;
  return maskScratch[0];
}

/** SloppyMath.haversinSortKey: compares as the distance does, cheaper. */
export function haversinSortKey(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x1 = lat1 * TO_RADIANS;
  const x2 = lat2 * TO_RADIANS;
  const h1 = 1 - sloppyCos(x1 - x2);
  const h2 = 1 - sloppyCos((lon1 - lon2) * TO_RADIANS);
  const h = h1 + sloppyCos(x1) * sloppyCos(x2) * h2;
  // clobber crazy precision so subsequent rounding does not create ties
  return clobber(h);
}

/**
 * haversinSortKey(lat, lon, lat2, lon2) for a fixed second point (a query's centre), its terms
 * computed once: the same value to the bit (the same operations in the same order).
 */
export function haversinSortKeyTo(lat2: number, lon2: number): (lat1: number, lon1: number) => number {
  const x2 = lat2 * TO_RADIANS;
  const cosX2 = sloppyCos(x2);
  return (lat1, lon1) => {
    const x1 = lat1 * TO_RADIANS;
    const h1 = 1 - sloppyCos(x1 - x2);
    const h2 = 1 - sloppyCos((lon1 - lon2) * TO_RADIANS);
    return clobber(h1 + sloppyCos(x1) * cosX2 * h2);
  };
}

/** SloppyMath.haversinMeters of a sort key. */
export function sortKeyMeters(sortKey: number): number {
  return EARTH_MEAN_RADIUS * 2 * sloppyAsin(Math.min(1, Math.sqrt(sortKey * 0.5)));
}

/** SloppyMath.haversinMeters: Elasticsearch's arc distance (GeoUtils.arcDistance), in metres. */
export function haversinMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return sortKeyMeters(haversinSortKey(lat1, lon1, lat2, lon2));
}

/** GeoUtils.distanceQuerySortKey (Lucene): the smallest sort key whose distance reaches `radius`. */
export function distanceQuerySortKey(radius: number): number {
  const max = sortKeyMeters(Number.MAX_VALUE);
  if (radius >= max) return max;
  let lo = 0n;
  let hi = bitsOf(Number.MAX_VALUE);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1n;
    const sortKey = fromBits(mid);
    const midRadius = sortKeyMeters(sortKey);
    if (midRadius === radius) return sortKey;
    if (midRadius > radius) hi = mid - 1n;
    else lo = mid + 1n;
  }
  return fromBits(lo);
}

/** GeoUtils.planeDistance (Elasticsearch's `plane` distance_type), in metres. */
export function planeDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * TO_RADIANS * Math.cos(((lat2 + lat1) / 2.0) * TO_RADIANS);
  const y = (lat2 - lat1) * TO_RADIANS;
  return Math.sqrt(x * x + y * y) * EARTH_MEAN_RADIUS;
}
