/**
 * Test support: matches a pattern AST against a string directly (the set of end positions of each
 * node from each start position), without automata. Slow and simple, to check the automata against.
 * It follows Lucene where Lucene is odd: `e*` and `e{0,}` match nothing when `e` matches nothing
 * (whether `e` matches nothing is the one thing asked of the DFA builder).
 */
import { WorkBudget } from '../budget';
import { buildDfa } from '../build';
import { RegexpNode } from '../regexpParser';

export function referenceMatch(node: RegexpNode, text: string): boolean {
  const chars = Array.from(text, (c) => c.codePointAt(0)!);
  return new Reference(chars).ends(node, 0).has(chars.length);
}

class Reference {
  private readonly memo = new Map<RegexpNode, Map<number, Set<number>>>();

  constructor(private readonly chars: number[]) {}

  ends(node: RegexpNode, i: number): Set<number> {
    let byStart = this.memo.get(node);
    if (!byStart) this.memo.set(node, (byStart = new Map()));
    let result = byStart.get(i);
    if (!result) byStart.set(i, (result = this.compute(node, i)));
    return result;
  }

  private compute(node: RegexpNode, i: number): Set<number> {
    const n = this.chars.length;
    switch (node.type) {
      case 'chars': {
        const c = this.chars[i];
        for (let k = 0; i < n && k < node.ranges.length; k += 2) if (c >= node.ranges[k] && c <= node.ranges[k + 1]) return new Set([i + 1]);
        return new Set();
      }
      case 'emptyString':
        return new Set([i]);
      case 'emptyLanguage':
        return new Set();
      case 'anyString':
        return new Set(range(i, n));
      case 'concat':
        return node.items.reduce((starts, item) => this.after(item, starts), new Set([i]));
      case 'union':
        return new Set(node.items.flatMap((item) => [...this.ends(item, i)]));
      case 'intersection':
        return node.items.map((item) => this.ends(item, i)).reduce((a, b) => new Set([...a].filter((j) => b.has(j))));
      case 'complement': {
        const sub = this.ends(node.sub, i);
        return new Set(range(i, n).filter((j) => !sub.has(j)));
      }
      case 'optional':
        return new Set([i, ...this.ends(node.sub, i)]);
      case 'star':
        return isEmptyLanguage(node.sub) ? new Set() : this.repeat(node.sub, 0, Infinity, i);
      case 'repeat':
        if (node.min === 0 && node.max === Infinity && isEmptyLanguage(node.sub)) return new Set();
        return this.repeat(node.sub, node.min, node.max, i);
      case 'interval':
        return new Set(range(i + 1, n).filter((j) => this.inInterval(node.min, node.max, node.digits, i, j)));
    }
  }

  private after(node: RegexpNode, starts: Set<number>): Set<number> {
    const out = new Set<number>();
    for (const s of starts) for (const j of this.ends(node, s)) out.add(j);
    return out;
  }

  private repeat(sub: RegexpNode, min: number, max: number, i: number): Set<number> {
    if (min > max) return new Set();
    let current = new Set([i]);
    for (let k = 0; k < min; k++) {
      const next = this.after(sub, current);
      if (sameSet(next, current)) break; // stable from here on
      current = next;
    }
    const result = new Set(current);
    for (let k = min; k < max && current.size > 0; k++) {
      const next = new Set([...this.after(sub, current)].filter((j) => !result.has(j)));
      next.forEach((j) => result.add(j));
      current = next;
    }
    return result;
  }

  /** Decimal digits chars[i, j) in [min, max]: `digits` of them if > 0, else any leading zeros. */
  private inInterval(min: number, max: number, digits: number, i: number, j: number): boolean {
    const text = String.fromCodePoint(...this.chars.slice(i, j));
    if (!/^[0-9]+$/.test(text) || (digits > 0 && text.length !== digits)) return false;
    const value = BigInt(text);
    return value >= BigInt(min) && value <= BigInt(max);
  }
}

function isEmptyLanguage(node: RegexpNode): boolean {
  return buildDfa(node, new WorkBudget('', Infinity)).accept.length === 0;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => from + k);
}

function sameSet(a: Set<number>, b: Set<number>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
