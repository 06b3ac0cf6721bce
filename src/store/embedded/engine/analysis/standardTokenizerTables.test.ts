/**
 * standardTokenizerTables.ts is what testing/StandardTokenizerTables.java prints from the installed
 * lucene-core jar (skipped with a message without java or the jar).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLuceneJar } from '../automaton/testing/luceneOracle';
import { CLASSES, CLASS_OF_RUN, RUN_START, TRANSITION } from './standardTokenizerTables';

function javaAvailable(): boolean {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const jar = process.env.LUCENE_CORE_JAR ?? findLuceneJar('core');
const available = jar !== undefined && javaAvailable();
if (!available) console.warn('Skipping the StandardTokenizer tables check: no java or no lucene-core jar (Debian: apt-get install -y default-jdk-headless liblucene8-java).');

describe('standardTokenizerTables', () => {
  it('has runs covering every code point and a full transition table', () => {
    expect(RUN_START[0]).toBe(0);
    expect(RUN_START.every((start, i) => i === 0 || start > RUN_START[i - 1])).toBe(true);
    expect(RUN_START[RUN_START.length - 1]).toBeLessThan(0x110000);
    expect(CLASS_OF_RUN.every((c) => c >= 0 && c < CLASSES)).toBe(true);
    expect(TRANSITION.length % CLASSES).toBe(0);
  });

  (available ? it : it.skip)('is what StandardTokenizerTables.java prints from the Lucene jar', () => {
    const printed = execFileSync('java', ['-cp', jar as string, join(__dirname, 'testing', 'StandardTokenizerTables.java')], { maxBuffer: 1 << 26 }).toString('utf8');
    expect(printed).toBe(readFileSync(join(__dirname, 'standardTokenizerTables.ts'), 'utf8'));
  });
});
