/** The Redis fleet bus: what it accepts from the channel, and two buses on a real redis-server. */
import { describeWithRedis, startRedis, type RedisServer } from '../../test/support/redis';
import type { FleetMessage } from '../core/events/fleet';
import { RedisBus, parseFleetMessage } from './redisBus';

const change = { action: 'create', collection: 'countries', _id: 'fr', _source: { name: 'France' } };

describe('parseFleetMessage', () => {
  it('takes the changes and revocations the bus sends', () => {
    expect(parseFleetMessage(JSON.stringify({ origin: 'a', change }))).toEqual({ origin: 'a', change });
    expect(parseFleetMessage(JSON.stringify({ origin: 'a', scope: 's', revokedKey: 'k1' }))).toEqual({ origin: 'a', scope: 's', revokedKey: 'k1' });
    const update = { ...change, action: 'update', previous: { name: 'Gaul' } };
    expect(parseFleetMessage(JSON.stringify({ origin: 'a', change: update }))?.change).toEqual(update);
  });

  it('drops anything else: whoever can write to Redis must not confuse a gateway', () => {
    for (const text of [
      'not json',
      'null',
      '[]',
      '{}',
      JSON.stringify({ origin: 1, change }),
      JSON.stringify({ origin: 'a' }),
      JSON.stringify({ origin: 'a', scope: 3, change }),
      JSON.stringify({ origin: 'a', revokedKey: 42 }),
      JSON.stringify({ origin: 'a', change: { ...change, action: 'explode' } }),
      JSON.stringify({ origin: 'a', change: { ...change, _id: 7 } }),
      JSON.stringify({ origin: 'a', change: { ...change, _source: 'text' } }),
      JSON.stringify({ origin: 'a', change: { ...change, previous: [1] } }),
      '{"origin":"a","change":{"__proto__":{"polluted":true}}}',
    ]) {
      expect([text, parseFleetMessage(text)]).toEqual([text, null]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describeWithRedis('RedisBus on a real redis-server', () => {
  let redis: RedisServer;
  const buses: RedisBus[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await redis?.stop();
  });

  const bus = async (prefix = 'test') => {
    const b = new RedisBus({ url: redis.url, prefix });
    buses.push(b);
    expect(await b.start()).toBe(true);
    return b;
  };
  const received = (b: RedisBus) => {
    const list: FleetMessage[] = [];
    b.subscribe((m) => list.push(m));
    return list;
  };
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('delivers every message to every bus of the prefix, in the order published, and none to another prefix', async () => {
    const [one, two, other] = [await bus(), await bus(), await bus('elsewhere')];
    const [atOne, atTwo, atOther] = [received(one), received(two), received(other)];
    for (let i = 0; i < 20; i++) one.publish({ origin: 'one', change: { ...change, _id: `e${i}` } as FleetMessage['change'] });
    two.publish({ origin: 'two', revokedKey: 'k' });
    await until(() => atOne.length === 21 && atTwo.length === 21);
    // each publisher's messages in its order (two publishers' are not ordered between them)
    const changes = (list: FleetMessage[]) => list.filter((m) => m.origin === 'one').map((m) => m.change?._id);
    expect(changes(atTwo)).toEqual(Array.from({ length: 20 }, (_, i) => `e${i}`));
    expect(changes(atOne)).toEqual(Array.from({ length: 20 }, (_, i) => `e${i}`));
    expect(atOne.filter((m) => m.origin === 'two')).toEqual([{ origin: 'two', revokedKey: 'k' }]);
    expect(atOther).toEqual([]);
  });

  it('comes back after Redis restarts, without the messages of the outage', async () => {
    const [one, two] = [await bus('again'), await bus('again')];
    const atTwo = received(two);
    const port = redis.port;
    await redis.stop();
    one.publish({ origin: 'one', revokedKey: 'during' }); // queued by the client until it reconnects: may arrive, or not
    redis = await (async () => {
      // the same port again, so the clients find it
      const { spawn } = await import('node:child_process');
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      return { url: `redis://127.0.0.1:${port}`, port, process: child, stop: () => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGTERM')))) };
    })();
    await until(() => {
      one.publish({ origin: 'one', revokedKey: 'after' });
      return atTwo.some((m) => m.revokedKey === 'after');
    });
    expect(atTwo.some((m) => m.revokedKey === 'after')).toBe(true);
  });
});

describe('RedisBus without Redis', () => {
  it('starts (false: not subscribed yet), and closes at once when Redis cannot be reached', async () => {
    const bus = new RedisBus({ url: 'redis://127.0.0.1:9', prefix: 'none' });
    expect(await bus.start(200)).toBe(false);
    const closing = bus.close();
    const closed = await Promise.race([closing.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 2000))]);
    expect(closed).toBe('closed');
  });
});
