/**
 * Demo data for a fresh start: every ISO 3166-1 region Node's ICU knows, as `country` entities
 * shared with all tenants. Generated, not shipped: nothing to download.
 */
import type { Doc } from '../store/port';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Codes ICU names but that are not countries (user-assigned, exceptional reservations, groupings). */
const NOT_COUNTRIES = new Set(['AA', 'QM', 'QN', 'QO', 'QP', 'QQ', 'QR', 'QS', 'QT', 'QU', 'QV', 'QW', 'QX', 'QY', 'QZ', 'XA', 'XB', 'XK', 'ZZ', 'EU', 'EZ', 'UN', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA', 'CQ', 'ZR', 'AN', 'BU', 'CS', 'DD', 'FX', 'NT', 'SU', 'TP', 'YD', 'YU']);

export function demoCountries(): Doc[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const out: Doc[] = [];
  for (const a of LETTERS) {
    for (const b of LETTERS) {
      const code = a + b;
      if (NOT_COUNTRIES.has(code) || /^X[A-Z]$/.test(code)) continue;
      const name = names.of(code);
      if (name === undefined || name === code) continue;
      out.push({ _id: code.toLowerCase(), name, code, allowTenantIds: ['*'] });
    }
  }
  return out;
}
